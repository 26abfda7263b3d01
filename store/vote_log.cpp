#include "store/vote_log.h"

#include <sqlite3.h>

#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "domain/tallies.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

std::string_view text_argument(sqlite3_value *value) {
  const auto *bytes = reinterpret_cast<const char *>(sqlite3_value_text(value));
  return bytes ? std::string_view(bytes, static_cast<size_t>(sqlite3_value_bytes(value)))
               : std::string_view();
}

// The log's pseudonyms on one connection: its key, read from site_secrets at the first call.
struct Pseudonyms {
  std::optional<auth::KeyedHasher> hasher;
};

// vote_log_pseudonym(message): the keyed hash of a voter or network under the site secret
// 'vote_log', as hex text; NULL for NULL. The key is read once per connection: a vote costs
// the writer a hash, not a lookup and a hex decoding as well.
void pseudonym_function(sqlite3_context *context, int, sqlite3_value **arguments) {
  if (sqlite3_value_type(arguments[0]) == SQLITE_NULL) return sqlite3_result_null(context);
  auto &pseudonyms = *static_cast<Pseudonyms *>(sqlite3_user_data(context));
  try {
    if (!pseudonyms.hasher) {
      auto *db = sqlite3_context_db_handle(context);
      sqlite3_stmt *prepared = nullptr;
      sqlite3_prepare_v2(db, "SELECT value FROM site_secrets WHERE name = 'vote_log'", -1,
                         &prepared, nullptr);
      sql::Stmt key(db, prepared, true);
      if (!prepared || !key.step()) throw std::runtime_error("the vote log has no key");
      pseudonyms.hasher.emplace(key.text(0));
    }
    const auto hash = (*pseudonyms.hasher)(text_argument(arguments[0]));
    sqlite3_result_text(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
  } catch (const std::exception &e) {
    sqlite3_result_error(context, e.what(), -1);
  }
}

} // namespace

void vote_log::add_functions(sql::Db &db) {
  sqlite3_create_function_v2(
      db.handle(), "vote_log_pseudonym", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, new Pseudonyms,
      pseudonym_function, nullptr, nullptr,
      [](void *pseudonyms) { delete static_cast<Pseudonyms *>(pseudonyms); });
}

std::vector<VoteLogEntry> Store::vote_log(uint64_t from, size_t limit) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT leaf, entry FROM vote_log WHERE leaf >= :from "
                          "ORDER BY leaf LIMIT :limit");
    stmt.bind(":from", static_cast<int64_t>(from)).bind(":limit", static_cast<int64_t>(limit));
    std::vector<VoteLogEntry> entries;
    while (stmt.step())
      entries.push_back(
          {static_cast<uint64_t>(stmt.int64(0)), stmt.text(1), merkle::leaf_hash(stmt.text(1))});
    return entries;
  });
}

VoteLogHead Store::vote_log_head() {
  return read([&](sql::Db &db) {
    auto stmt = db.cached(
        "SELECT entry /* every row: a root is made of every leaf */ FROM vote_log ORDER BY leaf");
    std::vector<merkle::Hash> leaves;
    while (stmt.step())
      leaves.push_back(merkle::leaf_hash(stmt.text(0)));
    const auto size = leaves.size();
    return VoteLogHead{size, merkle::root(size, merkle::over(std::move(leaves)))};
  });
}

uint64_t Store::vote_events(const std::function<void(const VoteEvent &)> &each) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached(
        "SELECT substr(json_extract(entry, '$.at'), 1, 10), json_extract(entry, '$.target'), "
        "json_extract(entry, '$.event') = 'withdrawn', json_extract(entry, '$.choice'), "
        "json_extract(entry, '$.set_aside'), json_extract(entry, '$.voter') "
        "/* every row: the tallies are the whole log replayed */ FROM vote_log ORDER BY leaf");
    uint64_t entries = 0;
    VoteEvent event;
    while (stmt.step()) {
      const auto code = stmt.text(1);
      const auto target = vote_target_from_code(code);
      if (!target) throw std::runtime_error("the vote log names no target: " + code);
      event.day = stmt.text(0);
      event.target = *target;
      event.voter = stmt.text(5);
      // A tool's choice is its verdict's word; a pair's, the picked tool's id.
      event.first.reset();
      if (!stmt.int64(2))
        event.first = target->pair ? stmt.int64(3) == target->low : stmt.text(3) == "ship";
      event.set_aside.reset();
      if (!stmt.is_null(4)) event.set_aside = reason_from_code(stmt.text(4));
      each(event);
      ++entries;
    }
    return entries;
  });
}

} // namespace verdict
