// Tools: one tool as its page shows it (with a page of its reviews and comparisons), the
// lists of them by name and by category, and the editor's changes to them in the content
// file's terms, each written with its edit log entry.
#include <algorithm>

#include "domain/dates.h"
#include "store/aggregate_writes.h"
#include "store/page_starts.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/vote_log.h"

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

void bind_tool(sql::Stmt &stmt, int64_t category_id, const ContentTool &tool) {
  stmt.bind(":slug", tool.slug).bind(":name", tool.name).bind(":category", category_id);
  stmt.bind(":tagline", tool.tagline).bind(":description", tool.description);
  stmt.bind(":entry", tool.entry).bind(":vendor", tool.vendor).bind(":url", tool.url);
  stmt.bind(":pricing_notes", tool.pricing_notes).bind(":source", tool.pricing_source);
  if (tool.pricing_checked_on.empty())
    stmt.bind_null(":checked");
  else
    stmt.bind(":checked", tool.pricing_checked_on);
}

WriteResult tool_slug_taken(const std::string &slug) {
  return WriteResult::already_exists("another tool already has the address " + slug);
}

} // namespace

std::optional<int64_t> queries::tool_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM tools WHERE slug = :slug", slug);
}

std::string queries::tool_name(sql::Db &db, int64_t id) {
  auto stmt = db.cached("SELECT name FROM tools WHERE id = :id");
  stmt.bind(":id", id);
  return stmt.step() ? stmt.text(0) : std::string();
}

std::optional<Tool> queries::tool_by_slug(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached("SELECT " TOOL_COLUMNS "WHERE t.slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return tool_from_row(stmt);
}

std::optional<Tool> queries::tool_by_id(sql::Db &db, int64_t id) {
  auto stmt = db.cached("SELECT " TOOL_COLUMNS "WHERE t.id = :id");
  stmt.bind(":id", id);
  if (!stmt.step()) return std::nullopt;
  return tool_from_row(stmt);
}

std::optional<Tool> StoreReads::tool_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) { return queries::tool_by_slug(db, slug); });
}

std::optional<AlternativesData> StoreReads::alternatives(std::string_view slug, size_t most) {
  return read([&](sql::Db &db) -> std::optional<AlternativesData> {
    sql::ReadSnapshot snapshot(db); // the tallies of one moment
    auto tool = queries::tool_by_slug(db, slug);
    if (!tool) return std::nullopt;
    AlternativesData data;
    std::vector<int64_t> ids; // the candidates, the most telling first
    const auto add = [&](int64_t id) {
      if (id != tool->id && ids.size() < most && std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
    };
    // Those readers picked between, most picks first; those it was published against; then
    // its category's, the most reviewed and voted on first.
    auto picked = db.cached("SELECT high_tool_id, low_picks + high_picks FROM pair_tallies "
                            "WHERE low_tool_id = :tool AND low_picks + high_picks > 0 UNION ALL "
                            "SELECT low_tool_id, low_picks + high_picks FROM pair_tallies "
                            "WHERE high_tool_id = :tool AND low_picks + high_picks > 0 "
                            "ORDER BY 2 DESC, 1");
    picked.bind(":tool", tool->id);
    while (picked.step())
      add(picked.int64(0));
    auto published = db.cached(
        "SELECT tool_b_id FROM comparisons WHERE tool_a_id = :tool AND " PUBLISHED_BY_TODAY
        " UNION SELECT tool_a_id FROM comparisons "
        "WHERE tool_b_id = :tool AND " PUBLISHED_BY_TODAY " ORDER BY 1");
    published.bind(":tool", tool->id);
    while (published.step())
      add(published.int64(0));

    auto same_category = db.cached(
        "SELECT id FROM tools WHERE category_id = (SELECT category_id FROM tools WHERE id = :tool) "
        "AND id <> :tool ORDER BY panel_reviews + community_votes DESC, name, slug LIMIT :most");
    same_category.bind(":tool", tool->id).bind(":most", static_cast<int64_t>(most));
    while (same_category.step())
      add(same_category.int64(0));

    for (const auto id : ids) {
      auto found = queries::tool_by_id(db, id);
      if (!found) continue;
      auto candidate = std::move(*found);
      // Published or not, and in the order its address has: the editor's when written up, else
      // by slug.
      const auto record = queries::comparison_of_pair(db, tool->id, id);
      const bool compared = record && record->readers_see;
      const auto first = queries::named_first(record, tool->id, tool->slug, candidate.slug);
      data.candidates.push_back({std::move(candidate), compared, first});
    }
    // Every counted head-to-head among the tool and its candidates, each pair looked up by its
    // key: a bounded number of reads however many pairs a popular tool is in.
    std::vector<int64_t> weighed(ids);
    weighed.push_back(tool->id);
    std::sort(weighed.begin(), weighed.end());
    for (size_t i = 0; i < weighed.size(); ++i)
      for (size_t j = i + 1; j < weighed.size(); ++j) {
        const auto picks = queries::pair_tally(db, weighed[i], weighed[j]);
        if (picks.a + picks.b > 0) data.picks.push_back({weighed[i], weighed[j], picks.a, picks.b});
      }
    data.tool = std::move(*tool);
    return data;
  });
}

Paged<Tool> StoreReads::tool_directory(const DirectoryQuery &query, PageSpan span) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the order and the rows of one moment
    // A lower bound no index holds: the tools that pass the filters are read (in the category's
    // index when there is one), ordered here, and only the page's rows read whole.
    auto rows = db.cached(
        "SELECT t.id, t.name, t.slug, t.panel_ships, t.panel_reviews, t.community_ships, "
        "t.community_votes FROM tools t /* every row: the directory in an order no index holds */ "
        "WHERE (:category = '' OR t.category_id = (SELECT id FROM categories WHERE slug = "
        ":category)) AND (:pricing = '' OR t.entry = :pricing)");
    rows.bind(":category", query.category).bind(":pricing", query.pricing);
    std::vector<DirectoryEntry> entries;
    while (rows.step())
      entries.push_back({rows.int64(0), rows.text(1), rows.text(2),
                         ShipTally{rows.int64(3), rows.int64(4)},
                         ShipTally{rows.int64(5), rows.int64(6)}});
    order_directory(entries, query.sort);
    Paged<Tool> page;
    page.number = span.number;
    const auto from = static_cast<size_t>(span.offset());
    const auto to = std::min(entries.size(), from + static_cast<size_t>(span.size));
    page.has_next = entries.size() > to;
    for (auto i = from; i < to; ++i)
      if (auto tool = queries::tool_by_id(db, entries[i].id))
        page.items.push_back(std::move(*tool));
    return page;
  });
}

std::vector<Tool> queries::tools_by_name(sql::Db &db, int64_t limit, int64_t offset) {
  // The rows before the page are skipped in the (name, slug) index alone; only the page's
  // rows are read whole.
  auto stmt =
      db.cached("SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools ORDER BY name, slug "
                "LIMIT :limit OFFSET :offset) ORDER BY t.name, t.slug");
  stmt.bind(":limit", limit).bind(":offset", offset);
  return rows_of(stmt, tool_from_row);
}

int64_t queries::tool_count_up_to(sql::Db &db, int64_t limit) {
  auto stmt = db.cached("SELECT count(*) FROM (SELECT 1 FROM tools LIMIT :limit)");
  stmt.bind(":limit", limit).step();
  return stmt.int64(0);
}

std::vector<Tool> StoreReads::tools_by_name() {
  return read([&](sql::Db &db) { return queries::tools_by_name(db); });
}

std::shared_ptr<const ToolSlugs> StoreReads::tool_slugs() {
  return read([this](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the version read is the version of the rows read
    // The list's version moves whenever a tool is added or removed or its slug changes.
    return store_.tool_slugs_.at(list_version(db, "tools_by_name"), [&db] {
      std::vector<std::pair<int64_t, std::string>> slugs;
      auto rows = db.cached("SELECT id, slug /* every row: every tool's slug */ FROM tools");
      while (rows.step())
        slugs.emplace_back(rows.int64(0), rows.text(1));
      return ToolSlugs(std::move(slugs));
    });
  });
}

Paged<Tool> StoreReads::tools_by_name(PageSpan span) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the version read is the version of the rows read
    const auto version = list_version(db, "tools_by_name");
    const auto from_start = [&](const std::pair<std::string, std::string> &start, int64_t limit,
                                int64_t skip) {
      // Found in the (name, slug) index by the start's key, then as from the top.
      auto stmt = db.cached(
          "SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools "
          "WHERE (name, slug) >= (:name, :slug) ORDER BY name, slug LIMIT :limit OFFSET :offset) "
          "ORDER BY t.name, t.slug");
      stmt.bind(":name", start.first).bind(":slug", start.second);
      stmt.bind(":limit", limit).bind(":offset", skip);
      return queries::rows_of(stmt, tool_from_row);
    };
    const auto from_top = [&](int64_t limit, int64_t offset) {
      return queries::tools_by_name(db, limit, offset);
    };
    const auto key_of = [](const Tool &tool) { return std::pair(tool.name, tool.slug); };
    return queries::paged(span, [&](int64_t limit, int64_t offset) {
      return read_page(store_.page_starts_->tools_by_name, version, limit, offset, from_start,
                       from_top, key_of);
    });
  });
}

Paged<Tool> StoreReads::tools_holding(std::string_view words, PageSpan span) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached(
        "SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools /* every row: the desk's "
        "list narrowed */ WHERE name LIKE :words ESCAPE '\\' OR slug LIKE :words ESCAPE '\\' "
        "OR tagline LIKE :words ESCAPE '\\' OR ifnull(vendor, '') LIKE :words ESCAPE '\\' "
        "ORDER BY name, slug LIMIT :limit OFFSET :offset) ORDER BY t.name, t.slug");
    stmt.bind(":words", queries::holding(words));
    return queries::paged(stmt, span, tool_from_row);
  });
}

std::optional<ToolDetail> StoreReads::tool_detail(std::string_view slug, PageSpan span,
                                                  int picker_limit) {
  // One connection for the whole page, so its parts come from the same moment.
  return read([&](sql::Db &db) -> std::optional<ToolDetail> {
    auto tool = queries::tool_by_slug(db, slug);
    if (!tool) return std::nullopt;
    ToolDetail detail;
    detail.reviews = queries::reviews_of_tool(db, *tool, span);
    detail.comparisons = queries::comparisons_with_tool(db, tool->id, span);
    // The picker offers the others as a list only while they are few (the tool itself is
    // among the tools counted).
    detail.others_complete = queries::tool_count_up_to(db, picker_limit + 2) <= picker_limit + 1;
    if (detail.others_complete)
      for (auto &other : queries::tools_by_name(db))
        if (other.id != tool->id) detail.others.push_back(std::move(other));
    detail.tool = std::move(*tool);
    detail.vote_log_size = queries::vote_log_size(db);
    return detail;
  });
}

Paged<Tool> StoreReads::tools_in_category(std::string_view category_slug, PageSpan span) {
  return read([&](sql::Db &db) {
    // The page is found in the (category, name) index; only its rows are read whole.
    auto stmt =
        db.cached("SELECT " TOOL_COLUMNS "WHERE t.id IN (SELECT id FROM tools WHERE category_id = "
                  "(SELECT id FROM categories WHERE slug = :slug) ORDER BY name, slug "
                  "LIMIT :limit OFFSET :offset) ORDER BY t.name, t.slug");
    stmt.bind(":slug", category_slug);
    return queries::paged(stmt, span, tool_from_row);
  });
}

std::optional<ContentTool> StoreReads::tool_content(std::string_view slug) {
  return read([&](sql::Db &db) { return tool_at(db, slug); });
}

std::vector<ContentTool> StoreReads::tools_named(std::string_view name) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT slug FROM tools WHERE name = :name ORDER BY slug");
    stmt.bind(":name", name);
    std::vector<ContentTool> named;
    while (stmt.step())
      if (auto tool = tool_at(db, stmt.text(0))) named.push_back(std::move(*tool));
    return named;
  });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateTool &write) {
  const auto &tool = write.item;
  if (tool_at(db, tool.slug)) return tool_slug_taken(tool.slug);
  const auto category = queries::category_id(db, tool.category);
  if (!category) return queries::no_such("category", tool.category);
  auto stmt = db.cached(
      "INSERT INTO tools (slug, name, category_id, tagline, description, entry, vendor, url, "
      "pricing_notes, pricing_checked_on, pricing_source) VALUES (:slug, :name, :category, "
      ":tagline, :description, :entry, :vendor, :url, :pricing_notes, :checked, :source)");
  bind_tool(stmt, *category, tool);
  stmt.run();
  // The address may have been another tool's before it was renamed: it is this one's now.
  queries::address_taken(db, "tool", tool.slug);
  queries::log_change<ContentTool>(db, at, write.editor, "tool", tool.slug, std::nullopt, tool);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateTool &write) {
  const auto &[slug, tool, editor] = write;
  const auto before = tool_at(db, slug);
  if (!before) return queries::no_such("tool", slug);
  if (tool.slug != slug && tool_at(db, tool.slug)) return tool_slug_taken(tool.slug);
  const auto category = queries::category_id(db, tool.category);
  if (!category) return queries::no_such("category", tool.category);
  auto stmt =
      db.cached("UPDATE tools SET slug = :slug, name = :name, category_id = :category, "
                "tagline = :tagline, description = :description, entry = :entry, vendor = :vendor, "
                "url = :url, pricing_notes = :pricing_notes, pricing_checked_on = :checked, "
                "pricing_source = :source WHERE slug = :old_slug");
  bind_tool(stmt, *category, tool);
  stmt.bind(":old_slug", slug).run();
  if (tool.slug != slug) queries::record_rename(db, "tool", before->slug, tool.slug);
  queries::log_change<ContentTool>(db, at, editor, "tool", tool.slug, before, tool);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteTool &write) {
  const auto before = tool_at(db, write.slug);
  const auto id = queries::tool_id(db, write.slug);
  if (!before || !id) return queries::no_such("tool", write.slug);
  // Its votes go with it, each withdrawal logged at the time of this write (the log's
  // triggers date a withdrawal by the row's cast_at: migrations/0018-times-bound.sql).
  queries::date_withdrawals_of_tool(db, at, *id);
  auto stmt = db.cached("DELETE FROM tools WHERE slug = :slug"); // reviews and votes cascade
  stmt.bind(":slug", write.slug).run();
  queries::forget_renames(db, "tool", before->slug);
  queries::log_change<ContentTool>(db, at, write.editor, "tool", before->slug, before,
                                   std::nullopt);
  // Its votes' withdrawals are the editor's, not readers': published now, with every vote
  // waiting (a batch of its own, as the next would be).
  vote_log::publish_waiting(db, rfc3339_utc(at.seconds()));
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
