// The store (store/store.h): the site's data over its engine, the date it reads by, and the
// site's SQL functions. Each aggregate's reads and writes are in the files beside it.
#include "store/store.h"

#include "domain/clock.h"
#include "store/page_starts.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/vote_targets.h"

namespace verdict {

Store::Store(const std::string &path, Clock clock)
    : StoreReads(*this, nullptr), clock_(std::move(clock)),
      engine_(path, [this](sql::Db &db) { queries::add_site_functions(db, this); }),
      vote_targets_(std::make_unique<VoteTargets>()),
      page_starts_(std::make_unique<PageStartMemos>()) {}

Store::~Store() = default;

void Store::set_today(std::function<std::string()> today) {
  std::lock_guard lock(today_mutex_);
  today_ = std::move(today);
}

std::string StoreReads::today() const {
  std::lock_guard lock(store_.today_mutex_);
  return store_.today_ ? store_.today_() : utc_date_at(store_.clock_.now_ms());
}

uint64_t StoreReads::generation() const {
  return store_.engine_.generation();
}

uint64_t StoreReads::catalogue_generation() const {
  return store_.engine_.catalogue_generation();
}

int StoreReads::schema_version() {
  return store_.engine_.schema_version();
}

std::string StoreReads::health_problem() {
  return store_.engine_.health_problem();
}

uint64_t StoreReads::reads_taken() const {
  return store_.engine_.reads_taken();
}

Engine &StoreMoment::engine_of(StoreReads &reads) {
  return reads.store_.engine_;
}

void queries::add_site_functions(sql::Db &db, const Store *store) {
  // Not deterministic: the date moves. A statement asks once per row it tests at most, and
  // the comparisons' index asks once.
  sqlite3_create_function_v2(
      db.handle(), "site_today", 0, SQLITE_UTF8, const_cast<Store *>(store),
      [](sqlite3_context *context, int, sqlite3_value **) {
        try {
          const auto *site = static_cast<const Store *>(sqlite3_user_data(context));
          const auto today = site ? site->today() : utc_today();
          sqlite3_result_text(context, today.data(), static_cast<int>(today.size()),
                              SQLITE_TRANSIENT);
        } catch (const std::exception &e) {
          sqlite3_result_error(context, e.what(), -1);
        }
      },
      nullptr, nullptr, nullptr);
}

int64_t list_version(sql::Db &db, const char *list) {
  auto stmt = db.cached("SELECT version FROM list_versions WHERE list = :list");
  stmt.bind(":list", list);
  if (!stmt.step()) throw std::runtime_error(std::string("no version for list ") + list);
  return stmt.int64(0);
}

} // namespace verdict
