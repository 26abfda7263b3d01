// What the editor's desk reads and writes beyond what readers' pages need: counts, the
// categories with their tools, and changes that each leave an entry in the edit log, written
// in the same transaction as the change itself.
#include "domain/slugs.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

std::optional<ContentCategory> category_at(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached("SELECT slug, name FROM categories WHERE slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return ContentCategory{stmt.text(0), stmt.text(1)};
}

void refuse_taken_category_slug(sql::Db &db, const std::string &slug) {
  if (category_at(db, slug))
    throw AlreadyExists("another category already has the address " + slug);
}

std::optional<ContentTool> tool_at(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached(
      "SELECT t.slug, t.name, c.slug, t.tagline, t.description, t.entry, t.vendor, t.url, "
      "t.pricing_notes, ifnull(t.pricing_checked_on, ''), t.pricing_source "
      "FROM tools t JOIN categories c ON c.id = t.category_id WHERE t.slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return ContentTool{stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3),
                     stmt.text(4), stmt.text(5), stmt.text(6), stmt.text(7),
                     stmt.text(8), stmt.text(9), stmt.text(10)};
}

// The old address of a renamed item leads to the new one, and so do addresses that led to the
// old one; an address taken again by an item is that item's alone.
void record_rename(sql::Db &db, const char *kind, const std::string &old_slug,
                   const std::string &new_slug) {
  auto chains = db.cached("UPDATE renamed_slugs SET new_slug = :new "
                          "WHERE kind = :kind AND new_slug = :old");
  chains.bind(":new", new_slug).bind(":kind", kind).bind(":old", old_slug).run();
  auto taken = db.cached("DELETE FROM renamed_slugs WHERE kind = :kind AND old_slug = :new");
  taken.bind(":kind", kind).bind(":new", new_slug).run();
  auto rename = db.cached("INSERT INTO renamed_slugs (kind, old_slug, new_slug) "
                          "VALUES (:kind, :old, :new) ON CONFLICT (kind, old_slug) "
                          "DO UPDATE SET new_slug = excluded.new_slug");
  rename.bind(":kind", kind).bind(":old", old_slug).bind(":new", new_slug).run();
}

// A deleted item's old addresses lead nowhere any more.
void forget_renames(sql::Db &db, const char *kind, const std::string &slug) {
  auto stmt = db.cached("DELETE FROM renamed_slugs WHERE kind = :kind AND new_slug = :slug");
  stmt.bind(":kind", kind).bind(":slug", slug).run();
}

void bind_tool(sql::Stmt &stmt, sql::Db &db, const ContentTool &tool) {
  stmt.bind(":slug", tool.slug).bind(":name", tool.name);
  stmt.bind(":category", queries::category_id(db, tool.category));
  stmt.bind(":tagline", tool.tagline).bind(":description", tool.description);
  stmt.bind(":entry", tool.entry).bind(":vendor", tool.vendor).bind(":url", tool.url);
  stmt.bind(":pricing_notes", tool.pricing_notes).bind(":source", tool.pricing_source);
  if (tool.pricing_checked_on.empty())
    stmt.bind_null(":checked");
  else
    stmt.bind(":checked", tool.pricing_checked_on);
}

// Logs a change of one item from `before` to `after` (absent for a creation or a deletion),
// unless it changed nothing.
template <class Item>
void log_change(sql::Db &db, std::string_view editor, const char *kind, const std::string &subject,
                const std::optional<Item> &before, const std::optional<Item> &after) {
  const auto was = before ? item_json(*before) : "";
  const auto is = after ? item_json(*after) : "";
  if (was == is) return;
  const char *action = !before ? "created" : !after ? "deleted" : "updated";
  queries::log_edit(db, {0, "", std::string(editor), action, kind, subject, was, is});
}

std::optional<ContentReviewer> reviewer_at(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached("SELECT slug, name, lens, bio FROM reviewers WHERE slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return ContentReviewer{stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)};
}

std::optional<ContentReview> review_at(sql::Db &db, const std::string &tool,
                                       const std::string &reviewer) {
  auto stmt = db.cached("SELECT t.slug, r.slug, v.verdict, v.quote FROM reviews v "
                        "JOIN tools t ON t.id = v.tool_id JOIN reviewers r ON r.id = v.reviewer_id "
                        "WHERE t.slug = :tool AND r.slug = :reviewer");
  stmt.bind(":tool", tool).bind(":reviewer", reviewer);
  if (!stmt.step()) return std::nullopt;
  return ContentReview{stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)};
}

// The editor's record of the pair `a` then `b`, in that order.
std::optional<ContentComparison> comparison_at(sql::Db &db, std::string_view a,
                                               std::string_view b) {
  auto stmt = db.cached("SELECT ta.slug, tb.slug, ifnull(c.published_on, ''), c.intro, "
                        "c.bottom_line FROM comparisons c "
                        "JOIN tools ta ON ta.id = c.tool_a_id JOIN tools tb ON tb.id = c.tool_b_id "
                        "WHERE ta.slug = :a AND tb.slug = :b");
  stmt.bind(":a", a).bind(":b", b);
  if (!stmt.step()) return std::nullopt;
  return ContentComparison{stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.text(4)};
}

// The record a desk address ("a-vs-b", in the editor's order) names.
std::optional<ContentComparison> comparison_named(sql::Db &db, std::string_view pair) {
  for (const auto &[a, b] : pair_slug_splits(pair))
    if (auto found = comparison_at(db, a, b)) return found;
  return std::nullopt;
}

void bind_comparison(sql::Stmt &stmt, sql::Db &db, const ContentComparison &comparison) {
  stmt.bind(":a", queries::tool_id(db, comparison.a))
      .bind(":b", queries::tool_id(db, comparison.b));
  stmt.bind(":intro", comparison.intro).bind(":bottom_line", comparison.bottom_line);
  if (comparison.published_on.empty())
    stmt.bind_null(":published");
  else
    stmt.bind(":published", comparison.published_on);
}

const char *publishing_action(const std::optional<ContentComparison> &before,
                              const ContentComparison &after) {
  const bool was = before && !before->published_on.empty();
  const bool is = !after.published_on.empty();
  return !was && is ? "published" : was && !is ? "unpublished" : nullptr;
}

} // namespace

namespace {

int64_t id_with_slug(sql::Db &db, const char *sql, const char *noun, const std::string &slug) {
  auto stmt = db.cached(sql);
  stmt.bind(":slug", slug);
  if (!stmt.step()) throw NotFound(std::string("no ") + noun + " has the address " + slug);
  return stmt.int64(0);
}

} // namespace

int64_t queries::category_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM categories WHERE slug = :slug", "category", slug);
}

int64_t queries::tool_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM tools WHERE slug = :slug", "tool", slug);
}

int64_t queries::reviewer_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM reviewers WHERE slug = :slug", "reviewer", slug);
}

void queries::log_edit(sql::Db &db, const EditEntry &entry) {
  auto stmt = db.cached("INSERT INTO edit_log (editor, action, kind, subject, before, after) "
                        "VALUES (:editor, :action, :kind, :subject, :before, :after)");
  stmt.bind(":editor", entry.editor).bind(":action", entry.action).bind(":kind", entry.kind);
  stmt.bind(":subject", entry.subject);
  if (entry.before.empty())
    stmt.bind_null(":before");
  else
    stmt.bind(":before", entry.before);
  if (entry.after.empty())
    stmt.bind_null(":after");
  else
    stmt.bind(":after", entry.after);
  stmt.run();
}

DeskCounts Store::desk_counts() {
  return read([](sql::Db &db) {
    const auto count = [&db](const char *sql) {
      auto stmt = db.prepare(sql);
      stmt.step();
      return stmt.int64(0);
    };
    DeskCounts counts;
    // Each count reads a whole table (or its smallest index): the desk is opened rarely.
    counts.categories = count("SELECT count(*) /* every row: desk counts */ FROM categories");
    counts.tools = count("SELECT count(*) /* every row: desk counts */ FROM tools");
    counts.reviewers = count("SELECT count(*) /* every row: desk counts */ FROM reviewers");
    counts.reviews = count("SELECT count(*) /* every row: desk counts */ FROM reviews");
    counts.comparisons = count("SELECT count(*) /* every row: desk counts */ FROM comparisons");
    counts.published = count("SELECT count(*) /* every row: desk counts */ FROM comparisons "
                             "WHERE published_on IS NOT NULL");
    counts.subscribers = count("SELECT count(*) /* every row: desk counts */ FROM subscribers");
    return counts;
  });
}

std::vector<CategoryListing> Store::categories_with_tool_counts() {
  return read([](sql::Db &db) {
    std::vector<CategoryListing> all;
    auto stmt = db.cached("SELECT c.slug, c.name, (SELECT count(*) FROM tools t "
                          "WHERE t.category_id = c.id) /* every row: the desk's list */ "
                          "FROM categories c ORDER BY c.name, c.slug");
    while (stmt.step())
      all.push_back({{stmt.text(0), stmt.text(1)}, stmt.int64(2)});
    return all;
  });
}

std::optional<ContentCategory> Store::category(std::string_view slug) {
  return read([&](sql::Db &db) { return category_at(db, slug); });
}

void Store::create_category(const ContentCategory &category, std::string_view editor) {
  write([&](sql::Db &db) {
    refuse_taken_category_slug(db, category.slug);
    auto stmt = db.cached("INSERT INTO categories (slug, name) VALUES (:slug, :name)");
    stmt.bind(":slug", category.slug).bind(":name", category.name).run();
    log_change<ContentCategory>(db, editor, "category", category.slug, std::nullopt, category);
  });
}

void Store::update_category(std::string_view slug, const ContentCategory &category,
                            std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = category_at(db, slug);
    if (!before) throw NotFound("no category has the address " + std::string(slug));
    if (category.slug != slug) refuse_taken_category_slug(db, category.slug);
    auto stmt = db.cached("UPDATE categories SET slug = :new_slug, name = :name "
                          "WHERE slug = :slug");
    stmt.bind(":new_slug", category.slug).bind(":name", category.name).bind(":slug", slug).run();
    if (category.slug != slug) record_rename(db, "category", before->slug, category.slug);
    log_change<ContentCategory>(db, editor, "category", category.slug, before, category);
  });
}

void Store::delete_category(std::string_view slug, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = category_at(db, slug);
    if (!before) throw NotFound("no category has the address " + std::string(slug));
    auto used = db.cached("SELECT count(*) FROM tools WHERE category_id = "
                          "(SELECT id FROM categories WHERE slug = :slug)");
    used.bind(":slug", slug);
    used.step();
    if (const auto tools = used.int64(0); tools > 0)
      throw Refused(std::to_string(tools) + (tools == 1 ? " tool is" : " tools are") +
                    " in this category: move " + (tools == 1 ? "it" : "them") +
                    " to another category first");
    auto stmt = db.cached("DELETE FROM categories WHERE slug = :slug");
    stmt.bind(":slug", slug).run();
    forget_renames(db, "category", before->slug);
    log_change<ContentCategory>(db, editor, "category", before->slug, before, std::nullopt);
  });
}

std::optional<std::string> Store::renamed_slug(std::string_view kind, std::string_view slug) {
  return read([&](sql::Db &db) -> std::optional<std::string> {
    auto stmt =
        db.cached("SELECT new_slug FROM renamed_slugs WHERE kind = :kind AND old_slug = :slug");
    stmt.bind(":kind", kind).bind(":slug", slug);
    if (!stmt.step()) return std::nullopt;
    return stmt.text(0);
  });
}

std::optional<ContentTool> Store::tool_content(std::string_view slug) {
  return read([&](sql::Db &db) { return tool_at(db, slug); });
}

void Store::create_tool(const ContentTool &tool, std::string_view editor) {
  write([&](sql::Db &db) {
    if (tool_at(db, tool.slug))
      throw AlreadyExists("another tool already has the address " + tool.slug);
    auto stmt = db.cached(
        "INSERT INTO tools (slug, name, category_id, tagline, description, entry, vendor, url, "
        "pricing_notes, pricing_checked_on, pricing_source) VALUES (:slug, :name, :category, "
        ":tagline, :description, :entry, :vendor, :url, :pricing_notes, :checked, :source)");
    bind_tool(stmt, db, tool);
    stmt.run();
    // The address may have been another tool's before it was renamed: it is this one's now.
    auto reused = db.cached("DELETE FROM renamed_slugs WHERE kind = 'tool' AND old_slug = :slug");
    reused.bind(":slug", tool.slug).run();
    log_change<ContentTool>(db, editor, "tool", tool.slug, std::nullopt, tool);
  });
}

void Store::update_tool(std::string_view slug, const ContentTool &tool, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = tool_at(db, slug);
    if (!before) throw NotFound("no tool has the address " + std::string(slug));
    if (tool.slug != slug && tool_at(db, tool.slug))
      throw AlreadyExists("another tool already has the address " + tool.slug);
    auto stmt = db.cached(
        "UPDATE tools SET slug = :slug, name = :name, category_id = :category, "
        "tagline = :tagline, description = :description, entry = :entry, vendor = :vendor, "
        "url = :url, pricing_notes = :pricing_notes, pricing_checked_on = :checked, "
        "pricing_source = :source WHERE slug = :old_slug");
    bind_tool(stmt, db, tool);
    stmt.bind(":old_slug", slug).run();
    if (tool.slug != slug) record_rename(db, "tool", before->slug, tool.slug);
    log_change<ContentTool>(db, editor, "tool", tool.slug, before, tool);
  });
}

void Store::delete_tool(std::string_view slug, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = tool_at(db, slug);
    if (!before) throw NotFound("no tool has the address " + std::string(slug));
    auto stmt = db.cached("DELETE FROM tools WHERE slug = :slug"); // reviews and votes cascade
    stmt.bind(":slug", slug).run();
    forget_renames(db, "tool", before->slug);
    log_change<ContentTool>(db, editor, "tool", before->slug, before, std::nullopt);
  });
}

std::optional<std::string> Store::pair_after_renames(std::string_view pair) {
  return read([&](sql::Db &db) -> std::optional<std::string> {
    const auto current = [&db](const std::string &slug) {
      auto stmt =
          db.cached("SELECT new_slug FROM renamed_slugs WHERE kind = 'tool' AND old_slug = :slug");
      stmt.bind(":slug", slug);
      return stmt.step() ? stmt.text(0) : slug;
    };
    for (const auto &[left, right] : pair_slug_splits(pair)) {
      const auto a = current(left), b = current(right);
      if ((a != left || b != right) && a != b && queries::tool_by_slug(db, a) &&
          queries::tool_by_slug(db, b))
        return pair_slug(a, b);
    }
    return std::nullopt;
  });
}

std::optional<ContentReviewer> Store::reviewer_content(std::string_view slug) {
  return read([&](sql::Db &db) { return reviewer_at(db, slug); });
}

void Store::create_reviewer(const ContentReviewer &reviewer, std::string_view editor) {
  write([&](sql::Db &db) {
    if (reviewer_at(db, reviewer.slug))
      throw AlreadyExists("another reviewer already has the address " + reviewer.slug);
    // A new reviewer joins the end of the panel.
    auto stmt = db.cached("INSERT INTO reviewers (slug, name, lens, bio, panel_order) VALUES "
                          "(:slug, :name, :lens, :bio, (SELECT ifnull(max(panel_order), 0) + 1 "
                          "/* every row: a panel of a few personas */ FROM reviewers))");
    stmt.bind(":slug", reviewer.slug).bind(":name", reviewer.name).bind(":lens", reviewer.lens);
    stmt.bind(":bio", reviewer.bio).run();
    auto reused =
        db.cached("DELETE FROM renamed_slugs WHERE kind = 'reviewer' AND old_slug = :slug");
    reused.bind(":slug", reviewer.slug).run();
    log_change<ContentReviewer>(db, editor, "reviewer", reviewer.slug, std::nullopt, reviewer);
  });
}

void Store::update_reviewer(std::string_view slug, const ContentReviewer &reviewer,
                            std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = reviewer_at(db, slug);
    if (!before) throw NotFound("no reviewer has the address " + std::string(slug));
    if (reviewer.slug != slug && reviewer_at(db, reviewer.slug))
      throw AlreadyExists("another reviewer already has the address " + reviewer.slug);
    auto stmt = db.cached("UPDATE reviewers SET slug = :new_slug, name = :name, lens = :lens, "
                          "bio = :bio WHERE slug = :slug");
    stmt.bind(":new_slug", reviewer.slug).bind(":name", reviewer.name);
    stmt.bind(":lens", reviewer.lens).bind(":bio", reviewer.bio).bind(":slug", slug).run();
    if (reviewer.slug != slug) record_rename(db, "reviewer", before->slug, reviewer.slug);
    log_change<ContentReviewer>(db, editor, "reviewer", reviewer.slug, before, reviewer);
  });
}

void Store::delete_reviewer(std::string_view slug, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = reviewer_at(db, slug);
    if (!before) throw NotFound("no reviewer has the address " + std::string(slug));
    auto stmt = db.cached("DELETE FROM reviewers WHERE slug = :slug"); // reviews cascade
    stmt.bind(":slug", slug).run();
    forget_renames(db, "reviewer", before->slug);
    log_change<ContentReviewer>(db, editor, "reviewer", before->slug, before, std::nullopt);
  });
}

std::optional<ContentReview> Store::review_content(std::string_view tool,
                                                   std::string_view reviewer) {
  return read([&](sql::Db &db) { return review_at(db, std::string(tool), std::string(reviewer)); });
}

Paged<ContentReview> Store::reviews_at_desk(PageSpan span) {
  return read([&](sql::Db &db) {
    std::vector<ContentReview> rows;
    auto stmt = db.cached("SELECT t.slug, r.slug, v.verdict, v.quote "
                          "/* every row: newest first, up to the desk's page */ FROM reviews v "
                          "JOIN tools t ON t.id = v.tool_id "
                          "JOIN reviewers r ON r.id = v.reviewer_id "
                          "ORDER BY v.id DESC LIMIT :limit OFFSET :offset");
    stmt.bind(":limit", int64_t{span.size} + 1).bind(":offset", span.offset());
    while (stmt.step())
      rows.push_back({stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)});
    return queries::paged(std::move(rows), span);
  });
}

void Store::create_review(const ContentReview &review, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto tool = queries::tool_id(db, review.tool);
    const auto reviewer = queries::reviewer_id(db, review.reviewer);
    if (review_at(db, review.tool, review.reviewer))
      throw AlreadyExists(review.reviewer + " has already reviewed " + review.tool);
    auto stmt = db.cached("INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) "
                          "VALUES (:tool, :reviewer, :verdict, :quote)");
    stmt.bind(":tool", tool).bind(":reviewer", reviewer);
    stmt.bind(":verdict", review.verdict).bind(":quote", review.quote).run();
    log_change<ContentReview>(db, editor, "review", review.reviewer + " on " + review.tool,
                              std::nullopt, review);
  });
}

void Store::update_review(std::string_view tool_slug, std::string_view reviewer_slug,
                          const ContentReview &review, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = review_at(db, std::string(tool_slug), std::string(reviewer_slug));
    if (!before) throw NotFound("there is no such review");
    const auto tool = queries::tool_id(db, review.tool);
    const auto reviewer = queries::reviewer_id(db, review.reviewer);
    if ((review.tool != tool_slug || review.reviewer != reviewer_slug) &&
        review_at(db, review.tool, review.reviewer))
      throw AlreadyExists(review.reviewer + " has already reviewed " + review.tool);
    auto stmt = db.cached(
        "UPDATE reviews SET tool_id = :tool, reviewer_id = :reviewer, verdict = :verdict, "
        "quote = :quote WHERE tool_id = (SELECT id FROM tools WHERE slug = :old_tool) AND "
        "reviewer_id = (SELECT id FROM reviewers WHERE slug = :old_reviewer)");
    stmt.bind(":tool", tool).bind(":reviewer", reviewer).bind(":verdict", review.verdict);
    stmt.bind(":quote", review.quote).bind(":old_tool", tool_slug);
    stmt.bind(":old_reviewer", reviewer_slug).run();
    log_change<ContentReview>(db, editor, "review", review.reviewer + " on " + review.tool, before,
                              review);
  });
}

void Store::delete_review(std::string_view tool_slug, std::string_view reviewer_slug,
                          std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = review_at(db, std::string(tool_slug), std::string(reviewer_slug));
    if (!before) throw NotFound("there is no such review");
    auto stmt = db.cached(
        "DELETE FROM reviews WHERE tool_id = (SELECT id FROM tools WHERE slug = :tool) AND "
        "reviewer_id = (SELECT id FROM reviewers WHERE slug = :reviewer)");
    stmt.bind(":tool", tool_slug).bind(":reviewer", reviewer_slug).run();
    log_change<ContentReview>(db, editor, "review", before->reviewer + " on " + before->tool,
                              before, std::nullopt);
  });
}

std::optional<ContentComparison> Store::comparison_content(std::string_view pair) {
  return read([&](sql::Db &db) { return comparison_named(db, pair); });
}

Paged<ContentComparison> Store::comparisons_at_desk(PageSpan span) {
  return read([&](sql::Db &db) {
    std::vector<ContentComparison> rows;
    // Drafts first, then the published newest first: the desk's work is at the top.
    auto stmt = db.cached("SELECT ta.slug, tb.slug, ifnull(c.published_on, ''), c.intro, "
                          "c.bottom_line /* every row: the desk's list of comparisons */ "
                          "FROM comparisons c JOIN tools ta ON ta.id = c.tool_a_id "
                          "JOIN tools tb ON tb.id = c.tool_b_id "
                          "ORDER BY c.published_on IS NOT NULL, c.published_on DESC, c.id DESC "
                          "LIMIT :limit OFFSET :offset");
    stmt.bind(":limit", int64_t{span.size} + 1).bind(":offset", span.offset());
    while (stmt.step())
      rows.push_back({stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.text(4)});
    return queries::paged(std::move(rows), span);
  });
}

void Store::create_comparison(const ContentComparison &comparison, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto a = queries::tool_id(db, comparison.a), b = queries::tool_id(db, comparison.b);
    if (queries::comparison_of_pair(db, a, b))
      throw AlreadyExists(comparison.a + " and " + comparison.b + " are already compared");
    auto stmt = db.cached("INSERT INTO comparisons (tool_a_id, tool_b_id, published_on, intro, "
                          "bottom_line) VALUES (:a, :b, :published, :intro, :bottom_line)");
    bind_comparison(stmt, db, comparison);
    stmt.run();
    const auto subject = pair_slug(comparison.a, comparison.b);
    log_change<ContentComparison>(db, editor, "comparison", subject, std::nullopt, comparison);
    if (const auto action = publishing_action(std::nullopt, comparison))
      queries::log_edit(db, {0, "", std::string(editor), action, "comparison", subject, "", ""});
  });
}

void Store::update_comparison(std::string_view pair, const ContentComparison &comparison,
                              std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = comparison_named(db, pair);
    if (!before) throw NotFound("there is no comparison " + std::string(pair));
    const auto a = queries::tool_id(db, comparison.a), b = queries::tool_id(db, comparison.b);
    const auto old_a = queries::tool_id(db, before->a), old_b = queries::tool_id(db, before->b);
    if (std::minmax(a, b) != std::minmax(old_a, old_b) && queries::comparison_of_pair(db, a, b))
      throw AlreadyExists(comparison.a + " and " + comparison.b + " are already compared");
    auto stmt = db.cached("UPDATE comparisons SET tool_a_id = :a, tool_b_id = :b, "
                          "published_on = :published, intro = :intro, bottom_line = :bottom_line "
                          "WHERE tool_a_id = :old_a AND tool_b_id = :old_b");
    bind_comparison(stmt, db, comparison);
    stmt.bind(":old_a", old_a).bind(":old_b", old_b).run();
    const auto subject = pair_slug(comparison.a, comparison.b);
    log_change<ContentComparison>(db, editor, "comparison", subject, before, comparison);
    if (const auto action = publishing_action(before, comparison))
      queries::log_edit(db, {0, "", std::string(editor), action, "comparison", subject, "", ""});
  });
}

void Store::delete_comparison(std::string_view pair, std::string_view editor) {
  write([&](sql::Db &db) {
    const auto before = comparison_named(db, pair);
    if (!before) throw NotFound("there is no comparison " + std::string(pair));
    auto stmt = db.cached("DELETE FROM comparisons WHERE tool_a_id = :a AND tool_b_id = :b");
    stmt.bind(":a", queries::tool_id(db, before->a))
        .bind(":b", queries::tool_id(db, before->b))
        .run();
    log_change<ContentComparison>(db, editor, "comparison", pair_slug(before->a, before->b), before,
                                  std::nullopt);
  });
}

} // namespace verdict
