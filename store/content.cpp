// Content in and out as the JSON file format of domain/content.h. Import upserts by slug in
// one transaction, so importing the same file twice changes nothing and a failure changes
// nothing at all.
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

void bind_optional(sql::Stmt &stmt, const char *name, const std::string &value) {
  if (value.empty())
    stmt.bind_null(name);
  else
    stmt.bind(name, value);
}

bool exists(sql::Db &db, const char *sql, const char *name, const std::string &key) {
  auto stmt = db.cached(sql);
  stmt.bind(name, key);
  return stmt.step();
}

// Runs an upsert whose update skips a row already as given, and counts what it did.
void upsert(sql::Db &db, sql::Stmt &stmt, bool existed, ImportCounts &counts) {
  stmt.run();
  if (!existed)
    ++counts.created;
  else if (db.changes() > 0)
    ++counts.updated;
}

} // namespace

WriteResult aggregates::apply_in(sql::Db &db, const WriteContext &, const ImportContent &write) {
  const auto &content = write.content;
  ImportSummary summary;
  for (const auto &[key, value] : content.site) {
    auto stmt = db.cached("INSERT INTO settings (key, value) VALUES (:key, :value) "
                          "ON CONFLICT (key) DO UPDATE SET value = excluded.value "
                          "WHERE value <> excluded.value");
    stmt.bind(":key", key).bind(":value", value);
    upsert(db, stmt, exists(db, "SELECT 1 FROM settings WHERE key = :key", ":key", key),
           summary.site);
  }
  for (const auto &category : content.categories) {
    auto stmt = db.cached("INSERT INTO categories (slug, name) VALUES (:slug, :name) "
                          "ON CONFLICT (slug) DO UPDATE SET name = excluded.name "
                          "WHERE name <> excluded.name");
    stmt.bind(":slug", category.slug).bind(":name", category.name);
    upsert(db, stmt,
           exists(db, "SELECT 1 FROM categories WHERE slug = :slug", ":slug", category.slug),
           summary.categories);
  }
  int64_t panel_order = 0;
  for (const auto &reviewer : content.reviewers) {
    auto stmt = db.cached(
        "INSERT INTO reviewers (slug, name, lens, bio, panel_order) "
        "VALUES (:slug, :name, :lens, :bio, :order) ON CONFLICT (slug) DO UPDATE SET "
        "name = excluded.name, lens = excluded.lens, bio = excluded.bio, "
        "panel_order = excluded.panel_order WHERE name <> excluded.name OR "
        "lens <> excluded.lens OR bio <> excluded.bio OR panel_order <> excluded.panel_order");
    stmt.bind(":slug", reviewer.slug).bind(":name", reviewer.name).bind(":lens", reviewer.lens);
    stmt.bind(":bio", reviewer.bio).bind(":order", ++panel_order);
    upsert(db, stmt,
           exists(db, "SELECT 1 FROM reviewers WHERE slug = :slug", ":slug", reviewer.slug),
           summary.reviewers);
  }
  for (const auto &tool : content.tools) {
    auto stmt = db.cached(
        "INSERT INTO tools (slug, name, category_id, tagline, description, entry, vendor, url, "
        "pricing_notes, pricing_checked_on, pricing_source) VALUES (:slug, :name, "
        "(SELECT id FROM categories WHERE slug = :category), :tagline, :description, :entry, "
        ":vendor, :url, :pricing_notes, :checked, :source) ON CONFLICT (slug) DO UPDATE SET "
        "name = excluded.name, category_id = excluded.category_id, tagline = excluded.tagline, "
        "description = excluded.description, entry = excluded.entry, vendor = excluded.vendor, "
        "url = excluded.url, pricing_notes = excluded.pricing_notes, "
        "pricing_checked_on = excluded.pricing_checked_on, "
        "pricing_source = excluded.pricing_source WHERE name <> excluded.name OR "
        "category_id <> excluded.category_id OR tagline <> excluded.tagline OR "
        "description <> excluded.description OR entry <> excluded.entry OR "
        "vendor <> excluded.vendor OR url <> excluded.url OR "
        "pricing_notes <> excluded.pricing_notes OR "
        "pricing_checked_on IS NOT excluded.pricing_checked_on OR "
        "pricing_source <> excluded.pricing_source");
    stmt.bind(":slug", tool.slug).bind(":name", tool.name).bind(":category", tool.category);
    stmt.bind(":tagline", tool.tagline).bind(":description", tool.description);
    stmt.bind(":entry", tool.entry).bind(":vendor", tool.vendor).bind(":url", tool.url);
    stmt.bind(":pricing_notes", tool.pricing_notes).bind(":source", tool.pricing_source);
    bind_optional(stmt, ":checked", tool.pricing_checked_on);
    upsert(db, stmt, exists(db, "SELECT 1 FROM tools WHERE slug = :slug", ":slug", tool.slug),
           summary.tools);
  }
  for (const auto &review : content.reviews) {
    const auto tool = queries::tool_id(db, review.tool);
    if (!tool) return queries::no_such("tool", review.tool);
    const auto reviewer = queries::reviewer_id(db, review.reviewer);
    if (!reviewer) return queries::no_such("reviewer", review.reviewer);
    auto existing =
        db.cached("SELECT 1 FROM reviews WHERE tool_id = :tool AND reviewer_id = :reviewer");
    existing.bind(":tool", *tool).bind(":reviewer", *reviewer);
    const bool existed = existing.step();
    auto stmt = db.cached(
        "INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) VALUES (:tool, :reviewer, "
        ":verdict, :quote) ON CONFLICT (tool_id, reviewer_id) DO UPDATE SET "
        "verdict = excluded.verdict, quote = excluded.quote "
        "WHERE verdict <> excluded.verdict OR quote <> excluded.quote");
    stmt.bind(":tool", *tool).bind(":reviewer", *reviewer);
    stmt.bind(":verdict", review.verdict).bind(":quote", review.quote);
    upsert(db, stmt, existed, summary.reviews);
  }
  for (const auto &comparison : content.comparisons) {
    const auto a = queries::tool_id(db, comparison.a);
    if (!a) return queries::no_such("tool", comparison.a);
    const auto b = queries::tool_id(db, comparison.b);
    if (!b) return queries::no_such("tool", comparison.b);
    auto existing = db.cached("SELECT 1 FROM comparisons WHERE min(tool_a_id, tool_b_id) = "
                              "min(:a, :b) AND max(tool_a_id, tool_b_id) = max(:a, :b)");
    existing.bind(":a", *a).bind(":b", *b);
    const bool existed = existing.step();
    // The pair is unique in either order; an import may flip the order the editor chose.
    auto stmt = db.cached(
        "INSERT INTO comparisons (tool_a_id, tool_b_id, published_on, intro, bottom_line) "
        "VALUES (:a, :b, :published, :intro, :bottom_line) "
        "ON CONFLICT (min(tool_a_id, tool_b_id), max(tool_a_id, tool_b_id)) DO UPDATE SET "
        "tool_a_id = excluded.tool_a_id, tool_b_id = excluded.tool_b_id, "
        "published_on = excluded.published_on, intro = excluded.intro, "
        "bottom_line = excluded.bottom_line "
        "WHERE tool_a_id <> excluded.tool_a_id OR "
        "published_on IS NOT excluded.published_on OR intro <> excluded.intro OR "
        "bottom_line <> excluded.bottom_line");
    stmt.bind(":a", *a).bind(":b", *b).bind(":intro", comparison.intro);
    stmt.bind(":bottom_line", comparison.bottom_line);
    bind_optional(stmt, ":published", comparison.published_on);
    upsert(db, stmt, existed, summary.comparisons);
  }
  return WriteResult::written(summary);
}

Content StoreReads::export_content() {
  return read([](sql::Db &db) {
    Content content;
    auto site = db.cached("SELECT key, value FROM settings ORDER BY key");
    while (site.step())
      content.site[site.text(0)] = site.text(1);
    auto categories = db.cached("SELECT slug, name FROM categories ORDER BY id");
    while (categories.step())
      content.categories.push_back({categories.text(0), categories.text(1)});
    auto reviewers =
        db.cached("SELECT slug, name, lens, bio FROM reviewers ORDER BY panel_order, id");
    // The export is the whole content: these read every row, in the order it was made.
    while (reviewers.step())
      content.reviewers.push_back(
          {reviewers.text(0), reviewers.text(1), reviewers.text(2), reviewers.text(3)});
    auto tools = db.cached(
        "SELECT t.slug, t.name, c.slug, t.tagline, t.description, t.entry, t.vendor, t.url, "
        "t.pricing_notes, ifnull(t.pricing_checked_on, ''), t.pricing_source "
        "/* every row: the export */ FROM tools t "
        "JOIN categories c ON c.id = t.category_id ORDER BY t.id");
    while (tools.step())
      content.tools.push_back({tools.text(0), tools.text(1), tools.text(2), tools.text(3),
                               tools.text(4), tools.text(5), tools.text(6), tools.text(7),
                               tools.text(8), tools.text(9), tools.text(10)});
    auto reviews = db.cached("SELECT t.slug, r.slug, v.verdict, v.quote "
                             "/* every row: the export */ FROM reviews v "
                             "JOIN tools t ON t.id = v.tool_id "
                             "JOIN reviewers r ON r.id = v.reviewer_id ORDER BY v.id");
    while (reviews.step())
      content.reviews.push_back(
          {reviews.text(0), reviews.text(1), reviews.text(2), reviews.text(3)});
    auto comparisons = db.cached(
        "SELECT a.slug, b.slug, ifnull(c.published_on, ''), c.intro, c.bottom_line "
        "/* every row: the export */ FROM comparisons c "
        "JOIN tools a ON a.id = c.tool_a_id JOIN tools b ON b.id = c.tool_b_id ORDER BY c.id");
    while (comparisons.step())
      content.comparisons.push_back({comparisons.text(0), comparisons.text(1), comparisons.text(2),
                                     comparisons.text(3), comparisons.text(4)});
    return content;
  });
}

} // namespace verdict
