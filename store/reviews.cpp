// The panel's reviews: each reviewer's verdict and quote on a tool. Read in panel order on a
// tool's page, by tool name on a reviewer's page, newest first at the desk; the editor's
// changes are each written with their edit log entry.
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// Columns: tool slug, reviewer slug, verdict, quote.
ContentReview content_review_from_row(const sql::Stmt &row) {
  return {row.text(0), row.text(1), row.text(2), row.text(3)};
}

std::optional<ContentReview> review_at(sql::Db &db, const std::string &tool,
                                       const std::string &reviewer) {
  auto stmt = db.cached("SELECT t.slug, r.slug, v.verdict, v.quote FROM reviews v "
                        "JOIN tools t ON t.id = v.tool_id JOIN reviewers r ON r.id = v.reviewer_id "
                        "WHERE t.slug = :tool AND r.slug = :reviewer");
  stmt.bind(":tool", tool).bind(":reviewer", reviewer);
  if (!stmt.step()) return std::nullopt;
  return content_review_from_row(stmt);
}

} // namespace

Review queries::review_from_row(const sql::Stmt &row) {
  return {row.text(0), row.text(1), row.text(2),
          row.text(3), row.text(4), verdict_from_word(row.text(5)).value_or(Verdict::skip),
          row.text(6)};
}

Paged<Review> queries::reviews_of_tool(sql::Db &db, const Tool &tool, PageSpan span) {
  // A tool most of the panel reviewed: walking the panel in order and stopping at the page's
  // end beats sorting every review. A tool few reviewed: sorting its few reviews is cheaper
  // than walking the whole panel.
  auto stmt = tool.panel.total <= kFewReviews
                  ? db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                              "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                              "JOIN tools t ON t.id = v.tool_id "
                              "WHERE v.tool_id = :tool ORDER BY r.panel_order, r.id "
                              "LIMIT :limit OFFSET :offset")
                  : db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                              "FROM reviewers r CROSS JOIN reviews v "
                              "ON v.reviewer_id = r.id AND v.tool_id = :tool "
                              "JOIN tools t ON t.id = v.tool_id ORDER BY r.panel_order, r.id "
                              "LIMIT :limit OFFSET :offset");
  stmt.bind(":tool", tool.id);
  return paged(stmt, span, review_from_row);
}

std::optional<Review> queries::review_by(sql::Db &db, int64_t tool_id, int64_t reviewer_id) {
  auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                        "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                        "JOIN tools t ON t.id = v.tool_id "
                        "WHERE v.tool_id = :tool AND v.reviewer_id = :reviewer");
  stmt.bind(":tool", tool_id).bind(":reviewer", reviewer_id);
  if (!stmt.step()) return std::nullopt;
  return review_from_row(stmt);
}

Paged<Review> StoreReads::reviews_by_reviewer(int64_t reviewer_id, PageSpan span) {
  return read([&](sql::Db &db) {
    // Sorted by tool name on the keys alone; only the page's reviews (and quotes) are read.
    auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                          "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                          "JOIN tools t ON t.id = v.tool_id WHERE v.id IN ("
                          "SELECT mine.id FROM reviews mine JOIN tools named "
                          "ON named.id = mine.tool_id WHERE mine.reviewer_id = :reviewer "
                          "ORDER BY named.name, named.slug LIMIT :limit OFFSET :offset) "
                          "ORDER BY t.name, t.slug");
    stmt.bind(":reviewer", reviewer_id);
    return queries::paged(stmt, span, queries::review_from_row);
  });
}

std::optional<ContentReview> StoreReads::review_content(std::string_view tool,
                                                        std::string_view reviewer) {
  return read([&](sql::Db &db) { return review_at(db, std::string(tool), std::string(reviewer)); });
}

Paged<ContentReview> StoreReads::reviews_at_desk(PageSpan span, std::string_view words) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT t.slug, r.slug, v.verdict, v.quote "
                          "/* every row: newest first, up to the desk's page */ FROM reviews v "
                          "JOIN tools t ON t.id = v.tool_id "
                          "JOIN reviewers r ON r.id = v.reviewer_id "
                          "WHERE :words = '%%' OR t.name LIKE :words ESCAPE '\\' "
                          "OR r.name LIKE :words ESCAPE '\\' OR v.verdict LIKE :words ESCAPE '\\' "
                          "OR v.quote LIKE :words ESCAPE '\\' "
                          "ORDER BY v.id DESC LIMIT :limit OFFSET :offset");
    stmt.bind(":words", queries::holding(words));
    return queries::paged(stmt, span, content_review_from_row);
  });
}

namespace {

// The refusal of a second review of a tool by one reviewer, as the editor knows them.
std::string already_reviewed(sql::Db &db, int64_t tool, int64_t reviewer) {
  return queries::reviewer_name(db, reviewer) + " has already reviewed " +
         queries::tool_name(db, tool);
}

// The review's tool and reviewer by their ids; a refusal naming the one that is not there.
struct ReviewIds {
  int64_t tool = 0, reviewer = 0;
};
std::variant<ReviewIds, WriteResult> ids_of(sql::Db &db, const ContentReview &review) {
  const auto tool = queries::tool_id(db, review.tool);
  if (!tool) return queries::no_such("tool", review.tool);
  const auto reviewer = queries::reviewer_id(db, review.reviewer);
  if (!reviewer) return queries::no_such("reviewer", review.reviewer);
  return ReviewIds{*tool, *reviewer};
}

} // namespace

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateReview &write) {
  const auto &[review, editor] = write;
  const auto ids = ids_of(db, review);
  if (const auto *refused = std::get_if<WriteResult>(&ids)) return *refused;
  const auto [tool, reviewer] = std::get<ReviewIds>(ids);
  if (review_at(db, review.tool, review.reviewer))
    return WriteResult::already_exists(already_reviewed(db, tool, reviewer));
  auto stmt = db.cached("INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) "
                        "VALUES (:tool, :reviewer, :verdict, :quote)");
  stmt.bind(":tool", tool).bind(":reviewer", reviewer);
  stmt.bind(":verdict", review.verdict).bind(":quote", review.quote).run();
  queries::log_change<ContentReview>(db, at, editor, "review",
                                     review.reviewer + " on " + review.tool, std::nullopt, review);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateReview &write) {
  const auto &[tool_slug, reviewer_slug, review, editor] = write;
  const auto before = review_at(db, tool_slug, reviewer_slug);
  if (!before) return WriteResult::not_found("there is no such review");
  const auto ids = ids_of(db, review);
  if (const auto *refused = std::get_if<WriteResult>(&ids)) return *refused;
  const auto [tool, reviewer] = std::get<ReviewIds>(ids);
  if ((review.tool != tool_slug || review.reviewer != reviewer_slug) &&
      review_at(db, review.tool, review.reviewer))
    return WriteResult::already_exists(already_reviewed(db, tool, reviewer));
  auto stmt =
      db.cached("UPDATE reviews SET tool_id = :tool, reviewer_id = :reviewer, verdict = :verdict, "
                "quote = :quote WHERE tool_id = (SELECT id FROM tools WHERE slug = :old_tool) AND "
                "reviewer_id = (SELECT id FROM reviewers WHERE slug = :old_reviewer)");
  stmt.bind(":tool", tool).bind(":reviewer", reviewer).bind(":verdict", review.verdict);
  stmt.bind(":quote", review.quote).bind(":old_tool", tool_slug);
  stmt.bind(":old_reviewer", reviewer_slug).run();
  queries::log_change<ContentReview>(db, at, editor, "review",
                                     review.reviewer + " on " + review.tool, before, review);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteReview &write) {
  const auto &[tool_slug, reviewer_slug, editor] = write;
  const auto before = review_at(db, tool_slug, reviewer_slug);
  if (!before) return WriteResult::not_found("there is no such review");
  auto stmt =
      db.cached("DELETE FROM reviews WHERE tool_id = (SELECT id FROM tools WHERE slug = :tool) AND "
                "reviewer_id = (SELECT id FROM reviewers WHERE slug = :reviewer)");
  stmt.bind(":tool", tool_slug).bind(":reviewer", reviewer_slug).run();
  queries::log_change<ContentReview>(
      db, at, editor, "review", before->reviewer + " on " + before->tool, before, std::nullopt);
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
