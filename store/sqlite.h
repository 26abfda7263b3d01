// A small, explicit RAII layer over the SQLite C API (in the spirit of SQLiteCpp and Fossil's
// db.c): a connection, move-only statements with named binds that throw on a typo, and a
// transaction that rolls back unless committed. Only store/ includes this file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace verdict::sql {

struct Error : std::runtime_error {
  int code;
  Error(int code_, const std::string &message) : std::runtime_error(message), code(code_) {}
};

class Stmt {
public:
  Stmt(sqlite3 *db, sqlite3_stmt *stmt, bool owned) : db_(db), stmt_(stmt), owned_(owned) {}
  Stmt(Stmt &&other) noexcept;
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;
  Stmt &operator=(Stmt &&) = delete;
  ~Stmt();

  Stmt &bind(const char *name, int64_t value);
  Stmt &bind(const char *name, std::string_view value);
  Stmt &bind(const char *name, const char *value) { return bind(name, std::string_view(value)); }
  Stmt &bind(const char *name, const std::string &value) {
    return bind(name, std::string_view(value));
  }
  Stmt &bind_null(const char *name);
  Stmt &bind_blob(const char *name, const void *bytes, size_t size);

  // Advances one row: true while a row is available, false when done. Throws on error.
  bool step();
  // Runs a statement that returns no rows.
  void run();

  int64_t int64(int column) const;
  std::string text(int column) const;
  // A BLOB column's bytes, valid until the statement steps again or is reset.
  std::string_view blob(int column) const;
  bool is_null(int column) const;

private:
  int index_of(const char *name) const;

  sqlite3 *db_;
  sqlite3_stmt *stmt_;
  bool owned_; // owned statements are finalized; cached ones are reset for reuse
};

class Db {
public:
  enum class Open {
    create,   // read and write, making the file when there is none
    existing, // read and write a file that is there; never make one
    read_only,
  };
  // Opens the database at `path`; accepts SQLite URIs.
  explicit Db(const std::string &path, Open mode = Open::create);
  Db(const Db &) = delete;
  Db &operator=(const Db &) = delete;
  ~Db();

  // A statement prepared once per connection and reused; `sql` must be a string literal
  // (its address is the cache key). `where` is the caller, for the statement log.
  Stmt cached(const char *sql, std::source_location where = std::source_location::current());
  // A one-off statement.
  Stmt prepare(std::string_view sql, std::source_location where = std::source_location::current());
  // Runs one or more statements without results (schema, pragmas).
  void exec(const std::string &sql);

  int64_t changes() const { return sqlite3_changes64(db_); }
  int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
  sqlite3 *handle() { return db_; }

private:
  sqlite3 *db_ = nullptr;
  std::unordered_map<const char *, sqlite3_stmt *> cache_;
};

// Adds a statement to the statement log when it is on (store/statement_log.h).
void log_prepared(std::string_view sql, const std::source_location &where);

// BEGIN IMMEDIATE ... COMMIT; rolls back in the destructor unless commit() ran.
class Transaction {
public:
  explicit Transaction(Db &db);
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  ~Transaction();
  void commit();

private:
  Db &db_;
  bool done_ = false;
};

// BEGIN (deferred) ... ROLLBACK: the reads between its start and its end all see one moment
// of the database, even when writes commit in between (each statement alone is its own
// moment). For a reader's connection; nothing is written, so there is nothing to commit.
// Inside one already begun (a page's StoreMoment) it adds nothing: the outer moment holds.
class ReadSnapshot {
public:
  explicit ReadSnapshot(Db &db);
  ReadSnapshot(const ReadSnapshot &) = delete;
  ReadSnapshot &operator=(const ReadSnapshot &) = delete;
  ~ReadSnapshot();

private:
  Db &db_;
  bool outermost_;
};

// A named savepoint: lets one write in a batch fail without undoing the others.
class Savepoint {
public:
  explicit Savepoint(Db &db);
  Savepoint(const Savepoint &) = delete;
  Savepoint &operator=(const Savepoint &) = delete;
  ~Savepoint();
  void release();

private:
  Db &db_;
  bool done_ = false;
};

} // namespace verdict::sql
