// Tools and their reviews.
#include "store/page_starts.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

#define TOOL_COLUMNS                                                                               \
  "t.id, t.slug, t.name, c.slug, c.name, t.tagline, t.description, t.entry, t.vendor, t.url, "     \
  "t.pricing_notes, ifnull(t.pricing_checked_on, ''), t.pricing_source, t.panel_ships, "           \
  "t.panel_reviews, t.community_ships, t.community_votes, t.community_set_aside_network, "         \
  "t.community_set_aside_too_fast "                                                                \
  "FROM tools t JOIN categories c ON c.id = t.category_id "

Tool tool_from_row(const sql::Stmt &row) {
  Tool tool;
  tool.id = row.int64(0);
  tool.slug = row.text(1);
  tool.name = row.text(2);
  tool.category = {row.text(3), row.text(4)};
  tool.tagline = row.text(5);
  tool.description = row.text(6);
  tool.entry = row.text(7);
  tool.vendor = row.text(8);
  tool.url = row.text(9);
  tool.pricing_notes = row.text(10);
  tool.pricing_checked_on = row.text(11);
  tool.pricing_source = row.text(12);
  tool.panel = {row.int64(13), row.int64(14)};
  tool.community = {row.int64(15), row.int64(16)};
  tool.community_set_aside = {row.int64(17), row.int64(18)};
  return tool;
}

} // namespace

std::optional<Tool> queries::tool_by_slug(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached("SELECT " TOOL_COLUMNS "WHERE t.slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return tool_from_row(stmt);
}

std::vector<Review> queries::reviews_of_tool(sql::Db &db, int64_t tool_id, int64_t limit,
                                             int64_t offset) {
  auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                        "FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id "
                        "JOIN tools t ON t.id = v.tool_id "
                        "WHERE v.tool_id = :tool ORDER BY r.panel_order, r.id "
                        "LIMIT :limit OFFSET :offset");
  stmt.bind(":tool", tool_id).bind(":limit", limit).bind(":offset", offset);
  std::vector<Review> reviews;
  while (stmt.step())
    reviews.push_back(review_from_row(stmt));
  return reviews;
}

Paged<Review> queries::reviews_of_tool(sql::Db &db, const Tool &tool, PageSpan span) {
  // A tool most of the panel reviewed: walking the panel in order and stopping at the page's
  // end beats sorting every review. A tool few reviewed: sorting its few reviews is cheaper
  // than walking the whole panel.
  if (tool.panel.total <= kFewReviews)
    return paged(reviews_of_tool(db, tool.id, span.size + 1, span.offset()), span);
  auto stmt = db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote "
                        "FROM reviewers r CROSS JOIN reviews v "
                        "ON v.reviewer_id = r.id AND v.tool_id = :tool "
                        "JOIN tools t ON t.id = v.tool_id ORDER BY r.panel_order, r.id "
                        "LIMIT :limit OFFSET :offset");
  stmt.bind(":tool", tool.id).bind(":limit", int64_t{span.size} + 1);
  stmt.bind(":offset", span.offset());
  std::vector<Review> reviews;
  while (stmt.step())
    reviews.push_back(review_from_row(stmt));
  return paged(std::move(reviews), span);
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

Review queries::review_from_row(const sql::Stmt &row) {
  return {row.text(0), row.text(1), row.text(2),
          row.text(3), row.text(4), verdict_from_word(row.text(5)).value_or(Verdict::skip),
          row.text(6)};
}

std::optional<Tool> Store::tool_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) { return queries::tool_by_slug(db, slug); });
}

std::vector<Tool> queries::tools_by_name(sql::Db &db, int64_t limit, int64_t offset) {
  // The rows before the page are skipped in the (name, slug) index alone; only the page's
  // rows are read whole.
  auto stmt =
      db.cached("SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools ORDER BY name, slug "
                "LIMIT :limit OFFSET :offset) ORDER BY t.name, t.slug");
  stmt.bind(":limit", limit).bind(":offset", offset);
  std::vector<Tool> tools;
  while (stmt.step())
    tools.push_back(tool_from_row(stmt));
  return tools;
}

int64_t queries::tool_count_up_to(sql::Db &db, int64_t limit) {
  auto stmt = db.cached("SELECT count(*) FROM (SELECT 1 FROM tools LIMIT :limit)");
  stmt.bind(":limit", limit).step();
  return stmt.int64(0);
}

std::vector<Tool> Store::tools_by_name() {
  return read([&](sql::Db &db) { return queries::tools_by_name(db); });
}

Paged<Tool> Store::tools_by_name(PageSpan span) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the version read is the version of the rows read
    const auto version = list_version(db, "tools_by_name");
    const int64_t limit = span.size + 1;
    const auto from_start = [&](const std::pair<std::string, std::string> &start, int64_t offset) {
      // Found in the (name, slug) index by the start's key, then as from the top.
      auto stmt = db.cached(
          "SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools "
          "WHERE (name, slug) >= (:name, :slug) ORDER BY name, slug LIMIT :limit OFFSET :offset) "
          "ORDER BY t.name, t.slug");
      stmt.bind(":name", start.first).bind(":slug", start.second);
      stmt.bind(":limit", limit).bind(":offset", offset);
      std::vector<Tool> tools;
      while (stmt.step())
        tools.push_back(tool_from_row(stmt));
      return tools;
    };
    const auto from_top = [&](int64_t offset) { return queries::tools_by_name(db, limit, offset); };
    const auto key_of = [](const Tool &tool) { return std::pair(tool.name, tool.slug); };
    return queries::paged(
        read_page(page_starts_->tools_by_name, version, span, from_start, from_top, key_of), span);
  });
}

std::vector<Review> Store::reviews_of_tool(int64_t tool_id) {
  return read([&](sql::Db &db) { return queries::reviews_of_tool(db, tool_id); });
}

std::optional<ToolDetail> Store::tool_detail(std::string_view slug, std::string_view voter,
                                             PageSpan span, int picker_limit) {
  // One connection for the whole page, so its parts come from the same moment.
  return read([&](sql::Db &db) -> std::optional<ToolDetail> {
    auto tool = queries::tool_by_slug(db, slug);
    if (!tool) return std::nullopt;
    ToolDetail detail;
    detail.reviews = queries::reviews_of_tool(db, *tool, span);
    detail.comparisons = queries::comparisons_with_tool(db, tool->id, span);
    if (!voter.empty()) detail.voter = queries::voter_choices_on_tool(db, voter, tool->id);
    // The picker offers the others as a list only while they are few (the tool itself is
    // among the tools counted).
    detail.others_complete = queries::tool_count_up_to(db, picker_limit + 2) <= picker_limit + 1;
    if (detail.others_complete)
      for (auto &other : queries::tools_by_name(db))
        if (other.id != tool->id) detail.others.push_back(std::move(other));
    detail.tool = std::move(*tool);
    return detail;
  });
}

std::optional<CategoryListing> Store::category_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) -> std::optional<CategoryListing> {
    auto stmt = db.cached("SELECT c.slug, c.name, (SELECT count(*) FROM tools t "
                          "WHERE t.category_id = c.id) FROM categories c WHERE c.slug = :slug");
    stmt.bind(":slug", slug);
    if (!stmt.step()) return std::nullopt;
    return CategoryListing{{stmt.text(0), stmt.text(1)}, stmt.int64(2)};
  });
}

Paged<Tool> Store::tools_in_category(std::string_view category_slug, PageSpan span) {
  return read([&](sql::Db &db) {
    // The page is found in the (category, name) index; only its rows are read whole.
    auto stmt =
        db.cached("SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools WHERE category_id = "
                  "(SELECT id FROM categories WHERE slug = :slug) ORDER BY name, slug "
                  "LIMIT :limit OFFSET :offset) ORDER BY t.name, t.slug");
    stmt.bind(":slug", category_slug).bind(":limit", int64_t{span.size} + 1);
    stmt.bind(":offset", span.offset());
    std::vector<Tool> tools;
    while (stmt.step())
      tools.push_back(tool_from_row(stmt));
    return queries::paged(std::move(tools), span);
  });
}

} // namespace verdict
