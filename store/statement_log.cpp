#include "store/statement_log.h"

#include <atomic>
#include <mutex>
#include <set>
#include <tuple>

#include "store/queries.h"
#include "store/sqlite.h"
#include "store/vote_log.h"

namespace verdict {

namespace {
std::atomic<bool> logging{false};
std::mutex log_mutex;
std::set<PreparedStatement> &statements() {
  static std::set<PreparedStatement> logged;
  return logged;
}
} // namespace

bool PreparedStatement::operator<(const PreparedStatement &other) const {
  return std::tie(file, line, sql) < std::tie(other.file, other.line, other.sql);
}

void start_statement_log() {
  logging = true;
}

std::vector<PreparedStatement> logged_statements() {
  std::lock_guard lock(log_mutex);
  return {statements().begin(), statements().end()};
}

void sql::log_prepared(std::string_view text, const std::source_location &where) {
  if (!logging.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(log_mutex);
  statements().insert({std::string(text), where.file_name(), where.line()});
}

std::vector<std::string> query_plan(const std::string &db_path, const std::string &sql) {
  sql::Db db(db_path, sql::Db::Open::read_only);
  vote_log::add_functions(db); // a vote's statements fire the log's triggers, which call it
  queries::add_site_functions(db, nullptr);
  auto plan = db.prepare("EXPLAIN QUERY PLAN " + sql);
  std::vector<std::string> steps;
  while (plan.step())
    steps.push_back(plan.text(3)); // columns: id, parent, notused, detail
  return steps;
}

} // namespace verdict
