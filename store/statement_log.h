// A log of every SQL statement the store prepares, and each one's query plan, so a test can
// prove no query of the site reads a large table row by row (tests/test_query_plans.cpp).
// Statements are recorded where they are prepared (store/sqlite.cpp), with the place in
// store/ that asked for them: a query added later is logged without anyone listing it.
#pragma once

#include <string>
#include <vector>

namespace verdict {

struct PreparedStatement {
  std::string sql;
  std::string file; // the source file that prepared it, as the compiler named it
  unsigned line = 0;
  bool operator<(const PreparedStatement &other) const;
};

// Turns the log on (it starts off, and costs one atomic load per prepare while off).
void start_statement_log();
// Every distinct statement prepared since the log was started, sorted.
std::vector<PreparedStatement> logged_statements();

// EXPLAIN QUERY PLAN of `sql` on the database at `db_path`, one detail line per step, e.g.
// "SEARCH t USING INDEX tools_by_name (name=?)"; empty for a statement with no plan (a
// PRAGMA, BEGIN).
std::vector<std::string> query_plan(const std::string &db_path, const std::string &sql);

} // namespace verdict
