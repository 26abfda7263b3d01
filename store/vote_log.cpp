#include "store/vote_log.h"

#include <sqlite3.h>

#include <string_view>
#include <vector>

#include "auth/secrets.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

std::string_view text_argument(sqlite3_value *value) {
  const auto *bytes = reinterpret_cast<const char *>(sqlite3_value_text(value));
  return bytes ? std::string_view(bytes, static_cast<size_t>(sqlite3_value_bytes(value)))
               : std::string_view();
}

// verdict_keyed_hash(key, message): auth::keyed_hash, as hex text; NULL for a NULL message.
void keyed_hash_function(sqlite3_context *context, int, sqlite3_value **arguments) {
  if (sqlite3_value_type(arguments[1]) == SQLITE_NULL) return sqlite3_result_null(context);
  try {
    const auto hash = auth::keyed_hash(text_argument(arguments[0]), text_argument(arguments[1]));
    sqlite3_result_text(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
  } catch (const std::exception &e) {
    sqlite3_result_error(context, e.what(), -1);
  }
}

// rfc6962_leaf_hash(entry): the entry's leaf hash, 32 bytes.
void leaf_hash_function(sqlite3_context *context, int, sqlite3_value **arguments) {
  const auto hash = merkle::leaf_hash(text_argument(arguments[0]));
  sqlite3_result_blob(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
}

merkle::Hash hash_of(const sql::Stmt &row, int column) {
  merkle::Hash hash{};
  const auto bytes = row.blob(column);
  std::copy_n(bytes.begin(), std::min(bytes.size(), hash.size()), hash.begin());
  return hash;
}

} // namespace

void vote_log::add_functions(sql::Db &db) {
  constexpr int kFlags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  sqlite3_create_function_v2(db.handle(), "verdict_keyed_hash", 2, kFlags, nullptr,
                             keyed_hash_function, nullptr, nullptr, nullptr);
  sqlite3_create_function_v2(db.handle(), "rfc6962_leaf_hash", 1, kFlags, nullptr,
                             leaf_hash_function, nullptr, nullptr, nullptr);
}

std::vector<VoteLogEntry> Store::vote_log(uint64_t from, size_t limit) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT leaf, entry, hash FROM vote_log WHERE leaf >= :from "
                          "ORDER BY leaf LIMIT :limit");
    stmt.bind(":from", static_cast<int64_t>(from)).bind(":limit", static_cast<int64_t>(limit));
    std::vector<VoteLogEntry> entries;
    while (stmt.step())
      entries.push_back({static_cast<uint64_t>(stmt.int64(0)), stmt.text(1), hash_of(stmt, 2)});
    return entries;
  });
}

VoteLogHead Store::vote_log_head() {
  return read([&](sql::Db &db) {
    auto stmt = db.cached(
        "SELECT hash /* every row: a root is made of every leaf */ FROM vote_log ORDER BY leaf");
    std::vector<merkle::Hash> leaves;
    while (stmt.step())
      leaves.push_back(hash_of(stmt, 0));
    const auto size = leaves.size();
    return VoteLogHead{size, merkle::root(size, merkle::over(std::move(leaves)))};
  });
}

} // namespace verdict
