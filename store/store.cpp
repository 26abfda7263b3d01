#include "store/store.h"

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "app/embedded.h"
#include "store/sqlite.h"

namespace verdict {

namespace {

// Each entry upgrades the schema by one version; entry i brings user_version from i to i + 1.
// Append, never edit: databases in the field are at every version ever shipped.
std::vector<std::string> migrations() {
  return {
      std::string(embedded("schema.sql")),
      // 2: version 1's date CHECKs let a non-date through (date() of one is NULL, and a NULL
      // CHECK passes). SQLite cannot change a CHECK in place, so triggers refuse them instead.
      R"(CREATE TRIGGER tools_checked_on_is_a_date BEFORE INSERT ON tools
           WHEN NEW.pricing_checked_on IS NOT NULL
            AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
         BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER tools_checked_on_stays_a_date BEFORE UPDATE OF pricing_checked_on ON tools
           WHEN NEW.pricing_checked_on IS NOT NULL
            AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
         BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER comparisons_published_on_is_a_date BEFORE INSERT ON comparisons
           WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
         BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER comparisons_published_on_stays_a_date
           BEFORE UPDATE OF published_on ON comparisons
           WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
         BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;)",
  };
}

// ":memory:" would give every connection its own empty database; a named shared-cache memory
// database lets the readers and the writer see the same one.
std::string connection_path(const std::string &path) {
  if (path != ":memory:") return path;
  static std::atomic<int> counter{0};
  return "file:verdict-memory-" + std::to_string(++counter) + "?mode=memory&cache=shared";
}

void configure_writer(sql::Db &db, bool in_memory) {
  if (!in_memory) {
    db.exec("PRAGMA journal_mode = WAL");
    // FULL: the WAL is synced at every commit, so an acknowledged write survives power loss.
    db.exec("PRAGMA synchronous = FULL");
  }
  db.exec("PRAGMA foreign_keys = ON");
}

void upgrade_schema(sql::Db &db) {
  const auto steps = migrations();
  auto version_stmt = db.prepare("PRAGMA user_version");
  version_stmt.step();
  auto version = static_cast<size_t>(version_stmt.int64(0));
  if (version > steps.size())
    throw std::runtime_error("database schema version " + std::to_string(version) +
                             " is newer than this verdict (" + std::to_string(steps.size()) + ")");
  for (; version < steps.size(); ++version) {
    sql::Transaction tx(db);
    db.exec(steps[version]);
    db.exec("PRAGMA user_version = " + std::to_string(version + 1));
    tx.commit();
  }
}

} // namespace

struct Store::ReaderPool {
  std::string path;
  std::mutex mutex;
  std::vector<std::unique_ptr<sql::Db>> idle;
};

Store::ReaderLease::~ReaderLease() {
  if (!db) return;
  std::lock_guard lock(pool->mutex);
  pool->idle.push_back(std::move(db));
}

Store::ReaderLease Store::lease_reader() {
  {
    std::lock_guard lock(readers_->mutex);
    if (!readers_->idle.empty()) {
      auto db = std::move(readers_->idle.back());
      readers_->idle.pop_back();
      return {readers_.get(), std::move(db)};
    }
  }
  auto db = std::make_unique<sql::Db>(readers_->path);
  db->exec("PRAGMA query_only = ON"); // every write goes through the writer
  return {readers_.get(), std::move(db)};
}

// The one writer. Writes queue up while a commit is in flight; the next transaction takes all
// of them, each in its own savepoint, and one fsync makes the whole batch durable before any
// of its callers hears back.
struct Store::Writer {
  struct Job {
    std::function<void(sql::Db &)> change;
    std::promise<void> done;
  };

  explicit Writer(const std::string &path, std::atomic<uint64_t> &generation, bool in_memory)
      : db(path), generation_(generation) {
    configure_writer(db, in_memory);
    upgrade_schema(db);
    thread = std::thread([this] { run(); });
  }

  ~Writer() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
  }

  void submit(std::function<void(sql::Db &)> change) {
    Job job{std::move(change), {}};
    auto done = job.done.get_future();
    {
      std::lock_guard lock(mutex);
      queue.push_back(std::move(job));
    }
    wake.notify_one();
    done.get();
  }

  void run() {
    for (;;) {
      std::deque<Job> batch;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stopping || !queue.empty(); });
        if (queue.empty()) return; // stopping, and nothing left to write
        batch.swap(queue);
      }
      commit(batch);
    }
  }

  void commit(std::deque<Job> &batch) {
    std::vector<std::exception_ptr> failures(batch.size());
    try {
      sql::Transaction tx(db);
      for (size_t i = 0; i < batch.size(); ++i) {
        sql::Savepoint savepoint(db);
        try {
          batch[i].change(db);
          savepoint.release();
        } catch (...) {
          failures[i] = std::current_exception();
        }
      }
      tx.commit();
    } catch (...) {
      for (auto &job : batch)
        job.done.set_exception(std::current_exception());
      return;
    }
    generation_.fetch_add(1, std::memory_order_release);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (failures[i])
        batch[i].done.set_exception(failures[i]);
      else
        batch[i].done.set_value();
    }
  }

  sql::Db db;
  std::atomic<uint64_t> &generation_;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> queue;
  bool stopping = false;
  std::thread thread;
};

Store::Store(const std::string &path) : path_(connection_path(path)) {
  readers_ = std::make_unique<ReaderPool>();
  readers_->path = path_;
  writer_ = std::make_unique<Writer>(path_, generation_, path == ":memory:");
}

Store::~Store() {
  readers_.reset();
  writer_.reset();
}

void Store::write(std::function<void(sql::Db &)> change) {
  writer_->submit(std::move(change));
}

bool Store::has_content() {
  return read([](sql::Db &db) { return db.cached("SELECT 1 FROM tools LIMIT 1").step(); });
}

Durability Store::durability() {
  Durability settings;
  write([&](sql::Db &db) {
    auto journal = db.prepare("PRAGMA journal_mode");
    if (journal.step()) settings.journal_mode = journal.text(0);
    auto synchronous = db.prepare("PRAGMA synchronous");
    if (synchronous.step()) settings.synchronous = static_cast<int>(synchronous.int64(0));
  });
  return settings;
}

int Store::schema_version() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("PRAGMA user_version");
    stmt.step();
    return static_cast<int>(stmt.int64(0));
  });
}

} // namespace verdict
