// Old addresses: when the desk renames a tool, a reviewer or a category, its old slug is kept
// leading to the new one, so links and bookmarks made before still find it.
#include "domain/slugs.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

// The old address of a renamed item leads to the new one, and so do addresses that led to the
// old one; an address taken again by an item is that item's alone.
void queries::record_rename(sql::Db &db, const char *kind, const std::string &old_slug,
                            const std::string &new_slug) {
  auto chains = db.cached("UPDATE renamed_slugs SET new_slug = :new "
                          "WHERE kind = :kind AND new_slug = :old");
  chains.bind(":new", new_slug).bind(":kind", kind).bind(":old", old_slug).run();
  address_taken(db, kind, new_slug);
  auto rename = db.cached("INSERT INTO renamed_slugs (kind, old_slug, new_slug) "
                          "VALUES (:kind, :old, :new) ON CONFLICT (kind, old_slug) "
                          "DO UPDATE SET new_slug = excluded.new_slug");
  rename.bind(":kind", kind).bind(":old", old_slug).bind(":new", new_slug).run();
}

void queries::address_taken(sql::Db &db, const char *kind, const std::string &slug) {
  auto stmt = db.cached("DELETE FROM renamed_slugs WHERE kind = :kind AND old_slug = :slug");
  stmt.bind(":kind", kind).bind(":slug", slug).run();
}

void queries::forget_renames(sql::Db &db, const char *kind, const std::string &slug) {
  auto stmt = db.cached("DELETE FROM renamed_slugs WHERE kind = :kind AND new_slug = :slug");
  stmt.bind(":kind", kind).bind(":slug", slug).run();
}

std::optional<std::string> StoreReads::renamed_slug(std::string_view kind, std::string_view slug) {
  return read([&](sql::Db &db) -> std::optional<std::string> {
    auto stmt =
        db.cached("SELECT new_slug FROM renamed_slugs WHERE kind = :kind AND old_slug = :slug");
    stmt.bind(":kind", kind).bind(":slug", slug);
    if (!stmt.step()) return std::nullopt;
    return stmt.text(0);
  });
}

std::optional<std::string> queries::renamed_tool_slug(sql::Db &db, std::string_view slug) {
  auto stmt =
      db.cached("SELECT new_slug FROM renamed_slugs WHERE kind = 'tool' AND old_slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return stmt.text(0);
}

std::optional<std::string> StoreReads::pair_after_renames(std::string_view pair) {
  return read([&](sql::Db &db) -> std::optional<std::string> {
    const auto current = [&db](const std::string &slug) {
      return queries::renamed_tool_slug(db, slug).value_or(slug);
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

} // namespace verdict
