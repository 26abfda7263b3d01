// Categories: the desk's list of them with their tool counts, one category as a page shows
// it, and the editor's changes to them, each written with its edit log entry.
#include "store/aggregate_writes.h"
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

WriteResult category_slug_taken(const std::string &slug) {
  return WriteResult::already_exists("another category already has the address " + slug);
}

} // namespace

std::optional<int64_t> queries::category_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM categories WHERE slug = :slug", slug);
}

std::optional<CategoryListing> StoreReads::category_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) -> std::optional<CategoryListing> {
    auto stmt = db.cached("SELECT c.slug, c.name, (SELECT count(*) FROM tools t "
                          "WHERE t.category_id = c.id) FROM categories c WHERE c.slug = :slug");
    stmt.bind(":slug", slug);
    if (!stmt.step()) return std::nullopt;
    return CategoryListing{{stmt.text(0), stmt.text(1)}, stmt.int64(2)};
  });
}

std::vector<CategoryListing> StoreReads::categories_with_tool_counts() {
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

std::optional<ContentCategory> StoreReads::category(std::string_view slug) {
  return read([&](sql::Db &db) { return category_at(db, slug); });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateCategory &write) {
  const auto &category = write.item;
  if (category_at(db, category.slug)) return category_slug_taken(category.slug);
  auto stmt = db.cached("INSERT INTO categories (slug, name) VALUES (:slug, :name)");
  stmt.bind(":slug", category.slug).bind(":name", category.name).run();
  queries::log_change<ContentCategory>(db, at, write.editor, "category", category.slug,
                                       std::nullopt, category);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateCategory &write) {
  const auto &[slug, category, editor] = write;
  const auto before = category_at(db, slug);
  if (!before) return queries::no_such("category", slug);
  if (category.slug != slug && category_at(db, category.slug))
    return category_slug_taken(category.slug);
  auto stmt = db.cached("UPDATE categories SET slug = :new_slug, name = :name "
                        "WHERE slug = :slug");
  stmt.bind(":new_slug", category.slug).bind(":name", category.name).bind(":slug", slug).run();
  if (category.slug != slug) queries::record_rename(db, "category", before->slug, category.slug);
  queries::log_change<ContentCategory>(db, at, editor, "category", category.slug, before, category);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteCategory &write) {
  const auto before = category_at(db, write.slug);
  if (!before) return queries::no_such("category", write.slug);
  auto used = db.cached("SELECT count(*) FROM tools WHERE category_id = "
                        "(SELECT id FROM categories WHERE slug = :slug)");
  used.bind(":slug", write.slug);
  used.step();
  if (const auto tools = used.int64(0); tools > 0)
    return WriteResult::refused(std::to_string(tools) + (tools == 1 ? " tool is" : " tools are") +
                                " in this category: move " + (tools == 1 ? "it" : "them") +
                                " to another category first");
  auto stmt = db.cached("DELETE FROM categories WHERE slug = :slug");
  stmt.bind(":slug", write.slug).run();
  queries::forget_renames(db, "category", before->slug);
  queries::log_change<ContentCategory>(db, at, write.editor, "category", before->slug, before,
                                       std::nullopt);
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
