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
} // namespace

std::vector<Reviewer> Store::reviewers() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers "
                          "ORDER BY panel_order, id");
    std::vector<Reviewer> reviewers;
    while (stmt.step())
      reviewers.push_back(reviewer_from_row(stmt));
    return reviewers;
  });
}

std::optional<Reviewer> Store::reviewer_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) -> std::optional<Reviewer> {
    auto stmt = db.cached(
        "SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers WHERE slug = :slug");
    stmt.bind(":slug", slug);
    if (!stmt.step()) return std::nullopt;
    return reviewer_from_row(stmt);
  });
}

std::vector<Review> Store::reviews_by_reviewer(int64_t reviewer_id) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                          "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                          "JOIN tools t ON t.id = v.tool_id "
                          "WHERE v.reviewer_id = :reviewer ORDER BY t.name, t.slug");
    stmt.bind(":reviewer", reviewer_id);
    std::vector<Review> reviews;
    while (stmt.step())
      reviews.push_back(queries::review_from_row(stmt));
    return reviews;
  });
}

} // namespace verdict
