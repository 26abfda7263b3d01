// Comparisons: the pairs the editor has written up, published or not.
#include "domain/slugs.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {
std::vector<ComparisonSummary> summaries(sql::Stmt &stmt) {
  std::vector<ComparisonSummary> list;
  while (stmt.step())
    list.push_back({stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.text(4)});
  return list;
}
} // namespace

std::optional<Store::PairRecord> Store::comparison_of_pair(int64_t x, int64_t y) {
  return read([&](sql::Db &db) -> std::optional<PairRecord> {
    auto stmt = db.cached("SELECT tool_a_id, tool_b_id, ifnull(published_on, ''), intro "
                          "FROM comparisons WHERE min(tool_a_id, tool_b_id) = min(:x, :y) "
                          "AND max(tool_a_id, tool_b_id) = max(:x, :y)");
    stmt.bind(":x", x).bind(":y", y);
    if (!stmt.step()) return std::nullopt;
    return PairRecord{stmt.int64(0), stmt.int64(1), stmt.text(2), stmt.text(3)};
  });
}

std::vector<ComparisonSummary> Store::published_comparisons(int limit) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT a.slug, a.name, b.slug, b.name, c.published_on "
                          "FROM comparisons c JOIN tools a ON a.id = c.tool_a_id "
                          "JOIN tools b ON b.id = c.tool_b_id "
                          "WHERE c.published_on IS NOT NULL "
                          "ORDER BY c.published_on DESC, c.id DESC LIMIT :limit");
    stmt.bind(":limit", int64_t{limit});
    return summaries(stmt);
  });
}

std::vector<ComparisonSummary> Store::comparisons_with_tool(int64_t tool_id) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT a.slug, a.name, b.slug, b.name, c.published_on "
                          "FROM comparisons c JOIN tools a ON a.id = c.tool_a_id "
                          "JOIN tools b ON b.id = c.tool_b_id "
                          "WHERE c.published_on IS NOT NULL "
                          "AND (c.tool_a_id = :tool OR c.tool_b_id = :tool) "
                          "ORDER BY c.published_on DESC, c.id DESC");
    stmt.bind(":tool", tool_id);
    return summaries(stmt);
  });
}

} // namespace verdict

namespace verdict {

std::optional<ComparisonDetail> Store::comparison_detail(std::string_view pair_slug,
                                                         std::string_view voter) {
  std::optional<Tool> a, b;
  read([&](sql::Db &db) {
    for (const auto &[left, right] : pair_slug_splits(pair_slug)) {
      a = queries::tool_by_slug(db, left);
      b = a ? queries::tool_by_slug(db, right) : std::nullopt;
      if (a && b) return;
    }
  });
  if (!a || !b || a->id == b->id) return std::nullopt;

  ComparisonDetail detail;
  const auto record = comparison_of_pair(a->id, b->id);
  auto &comparison = detail.comparison;
  if (record) {
    comparison.published = !record->published_on.empty();
    comparison.published_on = record->published_on;
    comparison.intro = record->intro;
    detail.canonical_order = record->a_id == a->id;
  } else {
    // A pair nobody wrote up has one address: its slugs in alphabetical order.
    detail.canonical_order = a->slug < b->slug;
  }
  read([&](sql::Db &db) {
    detail.reviews_a = queries::reviews_of_tool(db, a->id);
    detail.reviews_b = queries::reviews_of_tool(db, b->id);
  });
  detail.picks = pair_tally(a->id, b->id);
  if (!voter.empty()) detail.voter = voter_choices(voter, a->id, b->id);
  comparison.a = std::move(*a);
  comparison.b = std::move(*b);
  return detail;
}

} // namespace verdict
