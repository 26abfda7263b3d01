#include "store/sqlite.h"

#include <mutex>

namespace verdict::sql {

namespace {
[[noreturn]] void fail(sqlite3 *db, int code) {
  throw Error(code, std::string("sqlite: ") + (db ? sqlite3_errmsg(db) : sqlite3_errstr(code)));
}
} // namespace

Stmt::Stmt(Stmt &&other) noexcept : db_(other.db_), stmt_(other.stmt_), owned_(other.owned_) {
  other.stmt_ = nullptr;
}

Stmt::~Stmt() {
  if (!stmt_) return;
  if (owned_) {
    sqlite3_finalize(stmt_);
  } else {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

int Stmt::index_of(const char *name) const {
  const int index = sqlite3_bind_parameter_index(stmt_, name);
  if (index == 0) throw Error(SQLITE_RANGE, std::string("sqlite: no parameter ") + name);
  return index;
}

Stmt &Stmt::bind(const char *name, int64_t value) {
  if (int rc = sqlite3_bind_int64(stmt_, index_of(name), value); rc != SQLITE_OK) fail(db_, rc);
  return *this;
}

Stmt &Stmt::bind(const char *name, std::string_view value) {
  if (int rc = sqlite3_bind_text64(stmt_, index_of(name), value.data(), value.size(),
                                   SQLITE_TRANSIENT, SQLITE_UTF8);
      rc != SQLITE_OK)
    fail(db_, rc);
  return *this;
}

Stmt &Stmt::bind_blob(const char *name, const void *bytes, size_t size) {
  if (int rc = sqlite3_bind_blob64(stmt_, index_of(name), bytes, size, SQLITE_TRANSIENT);
      rc != SQLITE_OK)
    fail(db_, rc);
  return *this;
}

Stmt &Stmt::bind_null(const char *name) {
  if (int rc = sqlite3_bind_null(stmt_, index_of(name)); rc != SQLITE_OK) fail(db_, rc);
  return *this;
}

bool Stmt::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3_reset(stmt_);
  fail(db_, rc);
}

void Stmt::run() {
  while (step()) {
  }
}

int64_t Stmt::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string Stmt::text(int column) const {
  const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(stmt_, column));
  if (!bytes) return {};
  return std::string(bytes, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::string_view Stmt::blob(int column) const {
  const auto *bytes = static_cast<const char *>(sqlite3_column_blob(stmt_, column));
  if (!bytes) return {};
  return {bytes, static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

bool Stmt::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Db::Db(const std::string &path, Open mode) {
  const int flags = (mode == Open::read_only  ? SQLITE_OPEN_READONLY
                     : mode == Open::existing ? SQLITE_OPEN_READWRITE
                                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  if (int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr); rc != SQLITE_OK) {
    std::string message =
        "cannot open database " + path + ": " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
    sqlite3_close(db_);
    throw Error(rc, message);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Another connection holding the write lock briefly (a backup, the CLI) is waited for.
  sqlite3_busy_timeout(db_, 5000);
}

Db::~Db() {
  for (auto &[sql, stmt] : cache_)
    sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

Stmt Db::cached(const char *sql, std::source_location where) {
  auto &slot = cache_[sql];
  if (!slot) {
    log_prepared(sql, where);
    if (int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &slot, nullptr);
        rc != SQLITE_OK) {
      cache_.erase(sql);
      fail(db_, rc);
    }
  }
  return Stmt(db_, slot, false);
}

Stmt Db::prepare(std::string_view sql, std::source_location where) {
  log_prepared(sql, where);
  sqlite3_stmt *stmt = nullptr;
  if (int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
      rc != SQLITE_OK)
    fail(db_, rc);
  return Stmt(db_, stmt, true);
}

void Db::exec(const std::string &sql) {
  char *message = nullptr;
  if (int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message); rc != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    throw Error(rc, "sqlite: " + text);
  }
}

Transaction::Transaction(Db &db) : db_(db) {
  db_.cached("BEGIN IMMEDIATE").run();
}

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.cached("COMMIT").run();
  done_ = true;
}

ReadSnapshot::ReadSnapshot(Db &db) : db_(db), outermost_(sqlite3_get_autocommit(db.handle()) != 0) {
  if (outermost_) db_.cached("BEGIN").run();
}

ReadSnapshot::~ReadSnapshot() {
  if (outermost_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

Savepoint::Savepoint(Db &db) : db_(db) {
  db_.cached("SAVEPOINT one_write").run();
}

Savepoint::~Savepoint() {
  if (!done_) {
    sqlite3_exec(db_.handle(), "ROLLBACK TO one_write; RELEASE one_write", nullptr, nullptr,
                 nullptr);
  }
}

void Savepoint::release() {
  db_.cached("RELEASE one_write").run();
  done_ = true;
}

} // namespace verdict::sql
