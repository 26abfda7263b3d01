// The store's engine (store/engine.h): opening the file (schema and upgrades), the reader
// pool, the one writer thread with its group commit, and the watcher of the file's identity.
// Over 500 lines because these share one lifecycle and one rule — every write through the
// writer, on the file that was opened — and reading them side by side is how that rule is
// checked.
#include "store/engine.h"

#include <sys/stat.h>

#include <algorithm>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>

#include "assets/embedded.h"
#include "domain/clock.h"
#include "domain/dates.h"
#include "store/database_file.h"
#include "store/maintenance.h"
#include "store/sqlite.h"
#include "store/vote_log.h"

namespace verdict {

namespace {

// Each entry upgrades the schema by one version; entry i brings user_version from i to i + 1.
// Append, never edit: databases in the field are at every version ever shipped.
// They are the files of migrations/, named for their versions (0001-schema.sql, …).
std::vector<std::string> migrations() {
  std::vector<EmbeddedFile> files;
  for (const auto &file : embedded_files())
    if (file.path.starts_with("migrations/")) files.push_back(file);
  std::sort(files.begin(), files.end(),
            [](const auto &a, const auto &b) { return a.path < b.path; });
  std::vector<std::string> steps;
  for (const auto &file : files)
    steps.emplace_back(file.bytes);
  return steps;
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
  // Each job of a batch runs in a savepoint, whose journal keeps the pages the job changes
  // first. Once that journal outgrew SQLite's spill size it went to a temporary file, and every
  // such page became a pwrite (an eighth of a cluster node's CPU under `./dev bench cluster`).
  // In memory it holds at most a batch's pages, and is gone at its commit.
  db.exec("PRAGMA temp_store = MEMORY");
  vote_log::add_functions(db);
}

// migrations/0016-tally-changes.sql: the schema version that keeps the tallies per day.
constexpr size_t kTallyChangesVersion = 16;

void upgrade_schema(sql::Db &db) {
  const auto steps = migrations();
  // Read and finished before any step runs: a statement still open on the connection
  // would make a DROP in a step fail with "database table is locked".
  const auto version = [&db] {
    auto stmt = db.prepare("PRAGMA user_version");
    stmt.step();
    return static_cast<size_t>(stmt.int64(0));
  }();
  if (version == 0) {
    // A new file is empty; a file with tables but no schema version is someone else's.
    auto tables = db.prepare("SELECT count(*) FROM sqlite_schema");
    tables.step();
    if (tables.int64(0) != 0)
      throw std::runtime_error("the database file holds tables but not Verdict's: it is not a "
                               "Verdict database");
  }
  if (version > steps.size())
    throw std::runtime_error("database schema version " + std::to_string(version) +
                             " is newer than this verdict (" + std::to_string(steps.size()) + ")");
  for (auto step = version; step < steps.size(); ++step) {
    sql::Transaction tx(db);
    db.exec(steps[step]);
    // The one step with a part SQL cannot do: the log's replay is C++ (domain/tallies.h).
    if (step + 1 == kTallyChangesVersion) vote_log::build_tally_changes(db);
    db.exec("PRAGMA user_version = " + std::to_string(step + 1));
    tx.commit();
  }
}

} // namespace

struct Engine::ReaderPool {
  std::string path;
  std::mutex mutex;
  std::vector<std::unique_ptr<sql::Db>> idle;
};

Engine::ReaderLease::~ReaderLease() {
  if (!db) return;
  std::lock_guard lock(pool->mutex);
  pool->idle.push_back(std::move(db));
}

Engine::ReaderLease Engine::lease_reader() {
  reads_taken_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(readers_->mutex);
    if (!readers_->idle.empty()) {
      auto db = std::move(readers_->idle.back());
      readers_->idle.pop_back();
      return {readers_.get(), std::move(db)};
    }
  }
  // A reader opens the file the site opened and no other: never one made anew where it was
  // deleted, nor a replacement beside the old file's log (store/database_file.h).
  if (auto problem = file_problem(); !problem.empty()) throw StoreUnavailable(problem);
  auto db = std::make_unique<sql::Db>(readers_->path, sql::Db::Open::existing);
  if (auto problem = file_problem(); !problem.empty()) throw StoreUnavailable(problem);
  db->exec("PRAGMA query_only = ON"); // every write goes through the writer
  on_every_connection_(*db);
  // The writer alone copies the log into the file, so the record of whose log it is stays
  // true (store/database_file.h).
  sqlite3_db_config(db->handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  return {readers_.get(), std::move(db)};
}

struct Engine::Moment::Held {
  ReaderLease lease;
  sql::ReadSnapshot snapshot{*lease};
};

Engine::Moment::Moment(Engine &engine) : engine_(engine) {}

Engine::Moment::~Moment() = default;

sql::Db &Engine::Moment::connection() {
  if (!held_) held_.reset(new Held{engine_.lease_reader()});
  return *held_->lease;
}

namespace {

// Why the file at `path` is not the one with `device` and `inode` (the file the site opened),
// or empty when it is: the watcher's word and the writer's own at its stop.
std::string not_the_file_opened(const std::string &path, dev_t device, ino_t inode) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0)
    return "the database file " + path + " is gone (deleted or moved)";
  if (info.st_dev != device || info.st_ino != inode)
    return "the database file " + path + " was replaced by another file";
  return {};
}

} // namespace

// The one writer. Writes queue up while a commit is in flight; the next transaction takes all
// of them, each in its own savepoint, and one fsync makes the whole batch durable before any
// of its callers hears back.
// What a write is told while the file is not the one the site opened (deleted, moved or
// replaced under it): for the reader, so without the path; the owner's log names the file.
constexpr auto kFileNotTheOneOpened =
    "The site cannot save anything at the moment: its database file was moved or replaced. "
    "Nothing was changed; please try again later.";

// How a write ended is told back as a value (WriteResult): a caller's thread that wants an
// exception raises its own, so no exception object is ever shared between threads.
struct Engine::Writer {
  struct Job {
    std::function<WriteResult(sql::Db &)> change; // a job not done is undone
    WriteDone done;                               // told once the batch is durable, or failed
    Changes changes = Changes::anything;
  };

  explicit Writer(const std::string &path, std::atomic<uint64_t> &generation,
                  std::atomic<uint64_t> &catalogue_generation, bool in_memory,
                  std::function<std::string()> file_problem,
                  const std::function<void(sql::Db &)> &add_site_functions)
      : db(path), path_(path), in_memory_(in_memory), generation_(generation),
        catalogue_generation_(catalogue_generation), file_problem_(std::move(file_problem)) {
    configure_writer(db, in_memory);
    add_site_functions(db);
    upgrade_schema(db);
    // The writer copies the log into the file itself, recording that it does
    // (store/database_file.h), instead of SQLite doing it unannounced inside a commit.
    sqlite3_wal_hook(db.handle(), &Writer::count_log_frames, this);
    // The file stamped and its record written from the start (store/database_file.h).
    if (!in_memory) checkpoint("PASSIVE");
    seen_version_ = data_version(); // before the thread starts, so no change is missed
    thread = std::thread([this] { run(); });
  }

  ~Writer() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
    // Everything into the file before it closes, so no log is left beside it. The last
    // connection's close would do the same, unrecorded. A file deleted, moved or replaced
    // while the site was quiet is found here too (the watcher may be gone already): what it
    // holds is put back where the owner will find it, never closed into a file nobody can.
    if (const auto problem = file_not_served(); !problem.empty())
      keep_acknowledged_writes_in_the_served_file(problem);
    else if (!in_memory_)
      checkpoint("TRUNCATE");
  }

  // Why the file at the site's path is not the one this connection has open, or empty: the
  // watcher's word while it watches, and the file's own identity after.
  std::string file_not_served() {
    if (in_memory_) return {};
    if (auto problem = file_problem_(); !problem.empty()) return problem;
    return not_the_file_opened(path_, served_.device, served_.inode);
  }

  // Asked by the watcher the moment it sees the file go: the acknowledged writes are kept at
  // once, not only at the next write or the stop.
  void keep_now() {
    queue([](sql::Db &) { return WriteResult::written(); }, [](const WriteResult &) {});
  }

  static int count_log_frames(void *writer, sqlite3 *, const char *, int frames) {
    static_cast<Writer *>(writer)->log_frames_ = frames;
    return SQLITE_OK;
  }

  // Copies what the log holds into the file, recorded before and after; PASSIVE copies
  // what no reader still needs, TRUNCATE all of it and empties the log. The file's new state
  // gets a new stamp, committed to the log first so the copy carries it into the file; one
  // committed before that a reader kept out of the file is still to come, so it serves again
  // (a new one each time would be a write per batch while the reader holds on).
  void checkpoint(const char *mode) {
    try {
      const database_file::CheckpointLock lock(path_);
      const auto from = database_file::stamp_of_open_file(db);
      auto to = database_file::committed_stamp(db);
      if (to == from) to = database_file::commit_new_stamp(db);
      database_file::note_checkpoint_starting(path_, from, to);
      db.exec(std::string("PRAGMA wal_checkpoint(") + mode + ")");
      database_file::note_settled(path_, database_file::stamp_of_open_file(db));
      log_frames_ = 0;
    } catch (const std::exception &e) {
      std::cerr << "verdict: copying the log into " << path_ << ": " << e.what() << "\n";
    }
  }

  // When the file was deleted, moved or replaced: every write acknowledged so far is copied
  // into the file that was served (still open here), once, and the log tells where it is.
  void keep_acknowledged_writes_in_the_served_file(const std::string &problem) {
    if (served_file_kept_) return;
    served_file_kept_ = true;
    try {
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      auto served = served_file_name();
      // Deleted (it lives only while this process has it open) or moved away: what it holds
      // is copied back to the site's path when nothing is there, so the site starts again
      // with every write; beside it when another file took the name.
      const bool deleted = served.ends_with(" (deleted)");
      if (deleted || !std::filesystem::exists(path_)) {
        const auto copy = std::filesystem::exists(path_)
                              ? path_ + ".served-" + std::to_string(std::time(nullptr))
                              : path_;
        copy_database(db, copy);
        served = copy + (deleted ? " (a copy: the file that was served was deleted)"
                                 : " (a copy of the file that was served, now at " + served + ")");
      }
      std::cerr << "verdict: " << problem << "; every write acknowledged before is in the file "
                << "that was served: " << served << "\n";
    } catch (const std::exception &e) {
      std::cerr << "verdict: " << problem << "; the writes acknowledged before are in the log "
                << path_ << "-wal (" << e.what() << ")\n";
    }
  }

  // Where the file this connection has open is now: its new name when it was moved, or its
  // old name followed by "(deleted)".
  std::string served_file_name() {
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
      struct stat open_file {};
      if (stat(entry.path().c_str(), &open_file) != 0 || open_file.st_dev != served_.device ||
          open_file.st_ino != served_.inode)
        continue;
      const auto name = std::filesystem::read_symlink(entry.path(), error);
      if (!error) return name.string();
    }
    return path_ + " (deleted)";
  }

  // Queues `change` for the next transaction; `done` hears how it ended, on the writer's
  // thread, once the batch is durable (or failed), so it must only hand the outcome on.
  void queue(std::function<WriteResult(sql::Db &)> change, WriteDone done,
             Changes changes = Changes::anything) {
    {
      std::lock_guard lock(mutex);
      queue_.push_back({std::move(change), std::move(done), changes});
    }
    wake.notify_one();
  }

  // Queues `change` and waits until it is durable; throws WriteNotDone, with the words of what
  // `change` threw, when it was not written.
  void submit(std::function<void(sql::Db &)> change) {
    std::promise<WriteResult> told;
    auto outcome_told = told.get_future();
    queue(
        [change = std::move(change)](sql::Db &writer_db) {
          change(writer_db);
          return WriteResult::written();
        },
        [&told](const WriteResult &ended) { told.set_value(ended); });
    throw_unless_done(outcome_told.get());
  }

  void run() {
    for (;;) {
      std::deque<Job> batch;
      {
        std::unique_lock lock(mutex);
        wake.wait_for(lock, kForeignWriteCheck, [&] { return stopping || !queue_.empty(); });
        if (stopping && queue_.empty()) return; // nothing left to write
        batch.swap(queue_);
      }
      if (!batch.empty()) commit(batch);
      notice_foreign_writes();
    }
  }

  // Writes by other processes (`verdict import`) move the write generation too, so cached
  // pages are rendered anew. Asked on the writer's own connection, whose data_version moves
  // only for commits by other connections: the writer's own commits, already counted, would
  // otherwise move it a second time a moment later and throw away pages rendered since.
  void notice_foreign_writes() {
    try {
      const auto now = data_version();
      if (now != seen_version_) {
        catalogue_generation_.fetch_add(1, std::memory_order_release);
        generation_.fetch_add(1, std::memory_order_release);
      }
      seen_version_ = now;
    } catch (const std::exception &) {
      // An unreadable file shows as a file problem in /healthz and refuses the next write.
    }
  }
  int64_t data_version() {
    auto version = db.cached("PRAGMA data_version");
    version.step();
    return version.int64(0);
  }
  static constexpr auto kForeignWriteCheck = std::chrono::milliseconds(250);

  void commit(std::deque<Job> &batch) {
    // A file deleted, moved or replaced under us would take the write and lose it, or
    // corrupt what is there now: refuse before anything is acknowledged.
    if (auto problem = file_problem_(); !problem.empty()) {
      keep_acknowledged_writes_in_the_served_file(problem); // once
      for (auto &job : batch)
        job.done(WriteResult::not_done(WriteResult::Ended::unavailable, kFileNotTheOneOpened));
      return;
    }
    std::vector<WriteResult> ended(batch.size());
    try {
      sql::Transaction tx(db);
      for (size_t i = 0; i < batch.size(); ++i)
        for (int attempt = 1;; ++attempt) {
          sql::Savepoint savepoint(db);
          try {
            ended[i] = batch[i].change(db);
            if (ended[i].done()) savepoint.release(); // else undone: a refusal leaves nothing
          } catch (...) {
            // A table an in-memory database's reader holds: undone, and tried again.
            if (wait_out_table_lock(std::current_exception(), attempt)) continue;
            ended[i] = failed_with(std::current_exception());
          }
          break;
        }
      tx.commit();
    } catch (...) {
      const auto failed = failed_with(std::current_exception());
      for (auto &job : batch)
        job.done(failed);
      return;
    }
    // The catalogue first: whoever sees the new write generation finds it moved too.
    if (std::any_of(batch.begin(), batch.end(),
                    [](const Job &job) { return job.changes != Changes::votes_only; }))
      catalogue_generation_.fetch_add(1, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_release);
    for (size_t i = 0; i < batch.size(); ++i)
      batch[i].done(ended[i]);
    // After the answers: the batch is durable already, and its writers need not wait for it.
    if (log_frames_ >= kCheckpointFrames) checkpoint("PASSIVE");
  }

  // SQLite's own default for copying the log into the file (about 4 MiB of pages).
  static constexpr int kCheckpointFrames = 1000;

  sql::Db db;
  std::string path_;
  bool in_memory_;
  database_file::Identity served_ =
      database_file::identity_of(path_).value_or(database_file::Identity{});
  int log_frames_ = 0;            // pages in the log since it was last copied into the file
  bool served_file_kept_ = false; // the acknowledged writes were copied into it, once
  std::atomic<uint64_t> &generation_;
  std::atomic<uint64_t> &catalogue_generation_;
  int64_t seen_version_ = 0;                  // PRAGMA data_version when last asked
  std::function<std::string()> file_problem_; // "" while the file is the one opened
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> queue_;
  bool stopping = false;
  std::thread thread;
};

// For a file database: the identity of the file opened, checked before every write and four
// times a second, so an operator who deleted or replaced it is told once, in the log.
struct Engine::Watcher {
  // `gone`: told once, on the watcher's thread, the moment the file is seen deleted, moved or
  // replaced.
  Watcher(const std::string &file, std::function<void()> gone)
      : path(file), gone_(std::move(gone)) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) throw std::runtime_error("cannot stat " + path);
    device = info.st_dev;
    inode = info.st_ino;
    thread = std::thread([this] { run(); });
  }

  ~Watcher() { stop(); }

  // Stops looking, and so calling `gone`; file_problem() still answers. Once only.
  void stop() {
    {
      std::lock_guard lock(mutex);
      if (stopping) return;
      stopping = true;
    }
    wake.notify_one();
    thread.join();
  }

  // Said as first seen, until the server is restarted: once the file was deleted, what comes
  // to its path later (the copy the writer keeps of it, a restore) does not change what happened.
  std::string file_problem() const {
    std::lock_guard lock(first_problem_mutex);
    if (first_problem.empty()) first_problem = not_the_file_opened(path, device, inode);
    return first_problem;
  }

  void run() {
    bool reported = false;
    std::unique_lock lock(mutex);
    while (!wake.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping; })) {
      const auto problem = file_problem();
      if (!problem.empty() && !reported) {
        std::cerr << "verdict: " << problem << "; writes are refused until it is restarted\n";
        if (gone_) gone_();
      }
      reported = !problem.empty();
    }
  }

  std::string path;
  std::function<void()> gone_;
  dev_t device;
  ino_t inode;
  mutable std::mutex first_problem_mutex;
  mutable std::string first_problem; // guarded by first_problem_mutex
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
};

Engine::Engine(const std::string &path, std::function<void(sql::Db &)> on_every_connection)
    : path_(connection_path(path)), on_every_connection_(std::move(on_every_connection)) {
  readers_ = std::make_unique<ReaderPool>();
  readers_->path = path_;
  const bool in_memory = path == ":memory:";
  if (!in_memory && !(read_only_ = database_file::why_read_only(path_)).empty()) {
    open_read_only();
    return;
  }
  if (!in_memory) {
    database_file::refuse_what_is_not_a_database(path_);
    if (auto set_aside = database_file::set_aside_a_foreign_log(path_); !set_aside.empty())
      std::cerr << "verdict: " << set_aside << "\n";
  }
  writer_ = std::make_unique<Writer>(
      path_, generation_, catalogue_generation_, in_memory, [this] { return file_problem(); },
      [this](sql::Db &db) { on_every_connection_(db); });
  if (!in_memory)
    watcher_ = std::make_unique<Watcher>(path_, [writer = writer_.get()] { writer->keep_now(); });
}

void Engine::open_read_only() {
  database_file::refuse_what_is_not_a_database(path_);
  // Read as it is, without locks, the log or its index, none of which can be written here.
  readers_->path = "file:" + path_ + "?immutable=1";
  const auto latest = static_cast<int>(migrations().size());
  if (const auto version = schema_version(); version != latest)
    throw std::runtime_error(path_ + " cannot be written (" + read_only_ +
                             "), and its schema is version " + std::to_string(version) +
                             " where this verdict's is " + std::to_string(latest) +
                             ": it cannot be brought up to date. Make it writable, or serve a "
                             "copy of it");
  const auto log = database_file::identity_of(path_ + "-wal");
  std::cerr << "verdict: " << read_only_ << ": serving " << path_
            << " read-only; votes and every other write are answered 503 until it can be "
               "written and the server is started again"
            << (log && log->size > 0 ? " (the log beside it, " + path_ +
                                           "-wal, cannot be applied: pages show the file as of "
                                           "its last checkpoint)"
                                     : std::string())
            << "\n";
  watcher_ = std::make_unique<Watcher>(path_, nullptr); // nothing to keep: nothing is written
}

std::string Engine::read_only_refusal() const {
  return "This site is read-only for now: its database cannot be written (" + read_only_ +
         "), so nothing can be saved. Pages still read as before.";
}

bool Engine::wait_out_table_lock(std::exception_ptr failure, int attempt) {
  constexpr int kMostAttempts = 200; // 200 pauses of 5 ms: a second
  if (attempt >= kMostAttempts) return false;
  try {
    std::rethrow_exception(failure);
  } catch (const sql::Error &e) {
    if ((e.code & 0xff) != SQLITE_LOCKED) return false;
  } catch (...) {
    return false;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return true;
}

void Engine::rethrow_read_failure(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const sql::Error &e) {
    switch (e.code & 0xff) { // the primary result code
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_BUSY:
      throw StoreUnavailable(std::string("the database cannot be read: ") + e.what());
    default:
      throw;
    }
  }
}

std::string Engine::file_problem() const {
  return watcher_ ? watcher_->file_problem() : std::string();
}

std::string Engine::health_problem() {
  if (watcher_)
    if (auto problem = watcher_->file_problem(); !problem.empty()) return problem;
  std::lock_guard lock(health_mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - health_checked_ < std::chrono::seconds(1)) return health_;
  health_checked_ = now;
  try {
    write([](sql::Db &db) {
      db.cached("INSERT INTO health (id, checked_at) VALUES (1, :now) "
                "ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at")
          .bind(":now", rfc3339_utc(unix_now()))
          .run();
    });
    health_.clear();
  } catch (const std::exception &e) {
    health_ = std::string("the database cannot take a write: ") + e.what();
  }
  return health_;
}

Engine::~Engine() {
  // The watcher stops calling into the writer first, and stays until the writer is gone: the
  // writer's last commits still ask it whether the file is the one opened (file_problem).
  if (watcher_) watcher_->stop();
  readers_.reset();
  writer_.reset();
  watcher_.reset();
  database_file::forget_when_no_log(path_); // the last connection closed
}

void Engine::write(std::function<void(sql::Db &)> change) {
  if (!writer_) throw StoreUnavailable(read_only_refusal());
  writer_->submit(std::move(change));
}

void Engine::write_then(std::function<WriteResult(sql::Db &)> change, WriteDone done,
                        Changes changes) {
  if (!writer_)
    return done(WriteResult::not_done(WriteResult::Ended::unavailable, read_only_refusal()));
  writer_->queue(std::move(change), std::move(done), changes);
}

int Engine::schema_version() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("PRAGMA user_version");
    stmt.step();
    return static_cast<int>(stmt.int64(0));
  });
}

} // namespace verdict
