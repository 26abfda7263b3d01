// The reviewer panel.
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {
Reviewer reviewer_from_row(const sql::Stmt &row) {
  return {row.int64(0), row.text(1), row.text(2),
          row.text(3),  row.text(4), ShipTally{row.int64(5), row.int64(6)}};
}

std::vector<Reviewer> reviewers_in_panel_order(sql::Db &db, int64_t limit, int64_t offset) {
  auto stmt = db.cached("SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers "
                        "ORDER BY panel_order, id LIMIT :limit OFFSET :offset");
  stmt.bind(":limit", limit).bind(":offset", offset);
  std::vector<Reviewer> reviewers;
  while (stmt.step())
    reviewers.push_back(reviewer_from_row(stmt));
  return reviewers;
}
} // namespace

std::vector<Reviewer> Store::reviewers() {
  return read([](sql::Db &db) { return reviewers_in_panel_order(db, -1, 0); });
}

Paged<Reviewer> Store::reviewers(PageSpan span) {
  return read([&](sql::Db &db) {
    return queries::paged(reviewers_in_panel_order(db, span.size + 1, span.offset()), span);
  });
}

std::optional<Reviewer> queries::reviewer_by_slug(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached(
      "SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers WHERE slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return reviewer_from_row(stmt);
}

std::optional<Reviewer> Store::reviewer_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) { return queries::reviewer_by_slug(db, slug); });
}

Paged<Review> Store::reviews_by_reviewer(int64_t reviewer_id, PageSpan span) {
  return read([&](sql::Db &db) {
    // Sorted by tool name on the keys alone; only the page's reviews (and quotes) are read.
    auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                          "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                          "JOIN tools t ON t.id = v.tool_id WHERE v.id IN ("
                          "SELECT mine.id FROM reviews mine JOIN tools named "
                          "ON named.id = mine.tool_id WHERE mine.reviewer_id = :reviewer "
                          "ORDER BY named.name, named.slug LIMIT :limit OFFSET :offset) "
                          "ORDER BY t.name, t.slug");
    stmt.bind(":reviewer", reviewer_id).bind(":limit", int64_t{span.size} + 1);
    stmt.bind(":offset", span.offset());
    std::vector<Review> reviews;
    while (stmt.step())
      reviews.push_back(queries::review_from_row(stmt));
    return queries::paged(std::move(reviews), span);
  });
}

} // namespace verdict
