// The store's engine: the one SQLite file and the only way to it. It opens the file (making
// the schema, or bringing it up to date), lends read-only connections from a pool, runs every
// write on one writer thread that commits waiting writes together (group commit) in WAL mode
// with synchronous=FULL, so a write that returned has reached the disk, and watches that the
// file at the path is still the one it opened. It knows nothing of tools or votes: the
// aggregates (store/store.h, store/aggregate_writes.h) are the SQL, and this runs it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "domain/writes.h"
#include "store/write_refusals.h"

namespace verdict {

namespace sql {
class Db;
}

// What a write changes: `votes_only` leaves the catalogue (Engine::catalogue_generation) as it
// was.
enum class Changes { anything, votes_only };

// How a queued write ended (Engine::write_then), heard once it is durable or not written.
using WriteDone = std::function<void(const WriteResult &)>;

class Engine {
public:
  // Opens the database at `path`, creating it from the embedded schema or upgrading it as
  // needed. ":memory:" gives a private in-memory database (for tests). A file that cannot be
  // written (database_file::why_read_only) is opened read-only: every read as usual, every
  // write refused with StoreUnavailable saying why; one from an older verdict, which would
  // need an upgrade, is refused (std::runtime_error). `on_every_connection` adds the site's
  // SQL functions to each connection as it opens.
  Engine(const std::string &path, std::function<void(sql::Db &)> on_every_connection);
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  // Increases after every committed write; caches of rendered pages key on it.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // Increases after every committed write but a vote's, and any write by another process.
  uint64_t catalogue_generation() const {
    return catalogue_generation_.load(std::memory_order_acquire);
  }
  // The path connections open (":memory:" made a shared-cache name).
  const std::string &path() const { return path_; }
  // Whether the database can take a write now: the file at the path is still the one opened,
  // and a small write reached the disk (checked at most once a second). "" when healthy,
  // otherwise what is wrong.
  std::string health_problem();
  int schema_version();

  // One moment of the database for a whole answer: every read made with it runs on one
  // connection inside one read transaction, so the parts of a page never mix two moments and
  // the page costs one read. The connection is leased at the first read: an answer that
  // reads nothing costs nothing.
  class Moment {
  public:
    explicit Moment(Engine &engine);
    ~Moment();
    Moment(const Moment &) = delete;
    Moment &operator=(const Moment &) = delete;
    sql::Db &connection(); // leased and its moment begun at the first read

  private:
    struct Held;
    Engine &engine_;
    std::unique_ptr<Held> held_;
  };
  // How many reads have taken a connection since the file opened: one per Moment that read
  // anything, one per read outside any (/metrics; a test holds every page to one).
  uint64_t reads_taken() const { return reads_taken_.load(std::memory_order_relaxed); }

  // Runs `query` on a pooled read-only connection: `moment`'s, when there is one.
  template <class F> auto read(F &&query, Moment *moment = nullptr) {
    for (int attempt = 1;; ++attempt) {
      try {
        if (moment) return query(moment->connection());
        auto lease = lease_reader();
        return query(*lease);
      } catch (...) {
        if (!wait_out_table_lock(std::current_exception(), attempt))
          rethrow_read_failure(std::current_exception());
      }
    }
  }
  // Runs `change` inside the writer's next transaction; returns once it is durable, or throws
  // WriteNotDone saying why it was not (then nothing of it was written: `change` threw, or the
  // file could not take it).
  void write(std::function<void(sql::Db &)> change);
  // The same without waiting, for a change that says how it ended: one not done (a write the
  // site refuses) is undone, whatever it wrote first. `done` is told on the writer's thread
  // once it is durable, or why it was not written (then nothing of it was), and must only hand
  // that on.
  void write_then(std::function<WriteResult(sql::Db &)> change, WriteDone done,
                  Changes changes = Changes::anything);

private:
  struct ReaderPool;
  struct Writer;
  struct Watcher;
  struct ReaderLease {
    ReaderPool *pool;
    std::unique_ptr<sql::Db> db;
    ~ReaderLease();
    sql::Db &operator*() { return *db; }
  };
  ReaderLease lease_reader();
  // An in-memory database's connections share one cache and lock its tables against each
  // other while they use them (SQLITE_LOCKED, which no busy timeout waits out; a file's, in
  // WAL, never do): true after a short pause when `failure` is that and `attempt` is not past
  // the bound, so the caller tries again.
  static bool wait_out_table_lock(std::exception_ptr failure, int attempt);
  // Rethrows what a read threw; as StoreUnavailable when the file cannot be read (gone,
  // replaced, unreadable or corrupt), which is the database's trouble, not the request's.
  [[noreturn]] static void rethrow_read_failure(std::exception_ptr failure);
  // A file that cannot be written: readers only, each write refused with read_only_refusal().
  void open_read_only();
  std::string read_only_refusal() const;
  // Why the file opened can no longer be used (deleted, moved, replaced); empty while it can.
  std::string file_problem() const;

  std::string path_;
  std::string read_only_; // why the file cannot be written; empty when it can
  std::function<void(sql::Db &)> on_every_connection_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<uint64_t> catalogue_generation_{0};
  std::atomic<uint64_t> reads_taken_{0};
  std::mutex health_mutex_;
  std::chrono::steady_clock::time_point health_checked_;
  std::string health_;               // the last probe's answer
  std::unique_ptr<Watcher> watcher_; // file databases only
  std::unique_ptr<ReaderPool> readers_;
  std::unique_ptr<Writer> writer_;
};

} // namespace verdict
