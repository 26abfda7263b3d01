// What the editor's desk reads and writes beyond what readers' pages need: counts, the
// categories with their tools, and changes that each leave an entry in the edit log, written
// in the same transaction as the change itself.
#include <nlohmann/json.hpp>

#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// `item` as the edit log keeps it: the item's fields as the content file gives them.
std::string as_json(const ContentCategory &category) {
  return nlohmann::ordered_json{{"slug", category.slug}, {"name", category.name}}.dump();
}

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

} // namespace

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
    queries::log_edit(db, {0, "", std::string(editor), "created", "category", category.slug, "",
                           as_json(category)});
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
    if (before->slug == category.slug && before->name == category.name) return;
    queries::log_edit(db, {0, "", std::string(editor), "updated", "category", category.slug,
                           as_json(*before), as_json(category)});
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
    queries::log_edit(db, {0, "", std::string(editor), "deleted", "category", before->slug,
                           as_json(*before), ""});
  });
}

} // namespace verdict
