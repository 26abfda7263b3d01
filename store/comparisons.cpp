// Comparisons: the pairs the editor has written up, published or not. Readers' lists and
// pair pages, and the desk's list and changes, each written with its edit log entry (which
// also says when a change published or unpublished one).
#include <algorithm>

#include "domain/dates.h"
#include "domain/slugs.h"
#include "store/aggregate_writes.h"
#include "store/page_starts.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// What a list of comparisons shows of each (ComparisonSummary), read by summary_from_row().
// With who leads: both tools' panel and counted reader tallies, and the pair's counted picks
// in a's then b's order (the pair's row is keyed lowest tool first).
#define SUMMARY_COLUMNS                                                                            \
  "SELECT a.slug, a.name, b.slug, b.name, c.published_on, c.id, "                                  \
  "a.panel_ships, a.panel_reviews, b.panel_ships, b.panel_reviews, "                               \
  "a.community_ships, a.community_votes, b.community_ships, b.community_votes, "                   \
  "ifnull(iif(a.id < b.id, pt.low_picks, pt.high_picks), 0), "                                     \
  "ifnull(iif(a.id < b.id, pt.high_picks, pt.low_picks), 0) "                                      \
  "FROM comparisons c JOIN tools a ON a.id = c.tool_a_id JOIN tools b ON b.id = c.tool_b_id "      \
  "LEFT JOIN pair_tallies pt ON pt.low_tool_id = min(a.id, b.id) "                                 \
  "AND pt.high_tool_id = max(a.id, b.id) "

ComparisonSummary summary_from_row(const sql::Stmt &row) {
  ComparisonSummary summary{row.text(0), row.text(1),  row.text(2), row.text(3),
                            row.text(4), row.int64(5), {}};
  auto &numbers = summary.numbers;
  numbers.panel_a = {row.int64(6), row.int64(7)};
  numbers.panel_b = {row.int64(8), row.int64(9)};
  numbers.readers_a = {row.int64(10), row.int64(11)};
  numbers.readers_b = {row.int64(12), row.int64(13)};
  numbers.picks.a = row.int64(14);
  numbers.picks.b = row.int64(15);
  return summary;
}

// Columns: tool a's slug, tool b's slug, published on ('' for a draft), intro, bottom line.
ContentComparison record_from_row(const sql::Stmt &row) {
  return {row.text(0), row.text(1), row.text(2), row.text(3), row.text(4)};
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
  return record_from_row(stmt);
}

// The record a desk address ("a-vs-b", in the editor's order) names.
std::optional<ContentComparison> comparison_named(sql::Db &db, std::string_view pair) {
  for (const auto &[a, b] : pair_slug_splits(pair))
    if (auto found = comparison_at(db, a, b)) return found;
  return std::nullopt;
}

// A comparison's two tools by their ids.
struct PairIds {
  int64_t a = 0, b = 0;
};

void bind_comparison(sql::Stmt &stmt, PairIds ids, const ContentComparison &comparison) {
  stmt.bind(":a", ids.a).bind(":b", ids.b);
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

std::optional<queries::PairRecord> queries::comparison_of_pair(sql::Db &db, int64_t x, int64_t y) {
  auto stmt = db.cached("SELECT tool_a_id, tool_b_id, ifnull(published_on, ''), intro, "
                        "bottom_line, " PUBLISHED_BY_TODAY " FROM comparisons "
                        "WHERE min(tool_a_id, tool_b_id) = min(:x, :y) "
                        "AND max(tool_a_id, tool_b_id) = max(:x, :y)");
  stmt.bind(":x", x).bind(":y", y);
  if (!stmt.step()) return std::nullopt;
  return PairRecord{stmt.int64(0), stmt.int64(1), stmt.text(2),
                    stmt.text(3),  stmt.text(4),  stmt.int64(5) != 0};
}

bool queries::named_first(const std::optional<PairRecord> &record, int64_t x_id,
                          std::string_view x_slug, std::string_view y_slug) {
  return record ? record->a_id == x_id : x_slug < y_slug;
}

std::optional<queries::ResolvedPair> queries::resolve_pair(sql::Db &db, std::string_view pair_slug,
                                                           Drafts drafts) {
  std::optional<Tool> a, b;
  for (const auto &[left, right] : pair_slug_splits(pair_slug)) {
    a = tool_by_slug(db, left);
    b = a ? tool_by_slug(db, right) : std::nullopt;
    if (a && b) break;
  }
  if (!a || !b || a->id == b->id) return std::nullopt;

  ResolvedPair pair;
  auto &comparison = pair.comparison;
  const auto record = comparison_of_pair(db, a->id, b->id);
  pair.canonical_order = queries::named_first(record, a->id, a->slug, b->slug);
  if (record && (record->readers_see || drafts == Drafts::shown)) {
    comparison.published = record->readers_see;
    comparison.published_on = record->published_on;
    comparison.intro = record->intro;
    comparison.bottom_line = record->bottom_line;
  }
  comparison.picks = queries::pair_tally(db, a->id, b->id);
  comparison.a = std::move(*a);
  comparison.b = std::move(*b);
  return pair;
}

std::vector<ComparisonSummary> queries::newest_published(sql::Db &db, int64_t limit,
                                                         int64_t offset) {
  auto stmt =
      db.cached(SUMMARY_COLUMNS "WHERE c.id IN (SELECT id FROM comparisons "
                                "WHERE " PUBLISHED_BY_TODAY " ORDER BY published_on DESC, id DESC "
                                "LIMIT :limit OFFSET :offset) "
                                "ORDER BY c.published_on DESC, c.id DESC");
  stmt.bind(":limit", limit).bind(":offset", offset);
  return rows_of(stmt, summary_from_row);
}

Paged<ComparisonSummary> StoreReads::published_comparisons(PageSpan span) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the version read is the version of the rows read
    // The list moves with the date too, when a scheduled comparison's day comes: page starts
    // learnt on another day are not used. (Unsigned: the version is any 64-bit number.)
    const auto version = static_cast<int64_t>(
        static_cast<uint64_t>(list_version(db, "published_comparisons")) * 100'003u +
        static_cast<uint64_t>(day_number(today())));
    const auto from_start = [&](const std::pair<std::string, int64_t> &start, int64_t limit,
                                int64_t skip) {
      // Found in the date index by the start's date; rows of that date newer than the start
      // (a handful) are stepped over.
      auto stmt = db.cached(SUMMARY_COLUMNS
                            "WHERE c.id IN (SELECT id FROM comparisons "
                            "WHERE " PUBLISHED_BY_TODAY " AND (published_on, id) <= (:on, :id) "
                            "ORDER BY published_on DESC, id DESC LIMIT :limit OFFSET :offset) "
                            "ORDER BY c.published_on DESC, c.id DESC");
      stmt.bind(":on", start.first).bind(":id", start.second);
      stmt.bind(":limit", limit).bind(":offset", skip);
      return queries::rows_of(stmt, summary_from_row);
    };
    const auto from_top = [&](int64_t limit, int64_t offset) {
      return queries::newest_published(db, limit, offset);
    };
    const auto key_of = [](const ComparisonSummary &c) { return std::pair(c.published_on, c.id); };
    return queries::paged(span, [&](int64_t limit, int64_t offset) {
      return read_page(store_.page_starts_->published_comparisons, version, limit, offset,
                       from_start, from_top, key_of);
    });
  });
}

Paged<ComparisonSummary> queries::comparisons_with_tool(sql::Db &db, int64_t tool_id,
                                                        PageSpan span) {
  auto stmt = db.cached(SUMMARY_COLUMNS
                        // Either side, read newest first from its (tool, date) index alone
                        // and merged: a page costs its own rows, not all the tool's comparisons.
                        "WHERE c.id IN (SELECT id FROM ("
                        "SELECT id, published_on FROM comparisons "
                        "WHERE tool_a_id = :tool AND " PUBLISHED_BY_TODAY " UNION ALL "
                        "SELECT id, published_on FROM comparisons "
                        "WHERE tool_b_id = :tool AND " PUBLISHED_BY_TODAY " "
                        "ORDER BY 2 DESC, 1 DESC LIMIT :limit "
                        "OFFSET :offset)) "
                        "ORDER BY c.published_on DESC, c.id DESC");
  stmt.bind(":tool", tool_id);
  return paged(stmt, span, summary_from_row);
}

// The newest `:limit` published comparisons with one of the tools TOOLS selects (as
// `tool_id`) on either side, through the (tool, date) indexes; a comparison of two of them is
// counted once.
#define NEWEST_WITH_EITHER_OF(TOOLS)                                                               \
  SUMMARY_COLUMNS                                                                                  \
  "WHERE c.id IN (SELECT id FROM ("                                                                \
  "SELECT p.id, p.published_on FROM (" TOOLS ") x JOIN comparisons p "                             \
  "ON p.tool_a_id = x.tool_id WHERE " PUBLISHED_BY_TODAY " UNION "                                 \
  "SELECT p.id, p.published_on FROM (" TOOLS ") x JOIN comparisons p "                             \
  "ON p.tool_b_id = x.tool_id WHERE " PUBLISHED_BY_TODAY " "                                       \
  "ORDER BY 2 DESC, 1 DESC LIMIT :limit)) "                                                        \
  "ORDER BY c.published_on DESC, c.id DESC"

std::vector<ComparisonSummary> queries::comparisons_reviewed_by(sql::Db &db, int64_t reviewer_id,
                                                                int64_t limit) {
  auto stmt =
      db.cached(NEWEST_WITH_EITHER_OF("SELECT tool_id FROM reviews WHERE reviewer_id = :reviewer"));
  stmt.bind(":reviewer", reviewer_id).bind(":limit", limit);
  return rows_of(stmt, summary_from_row);
}

std::vector<ComparisonSummary> queries::comparisons_in_category(sql::Db &db, int64_t category_id,
                                                                int64_t limit) {
  auto stmt = db.cached(
      NEWEST_WITH_EITHER_OF("SELECT id AS tool_id FROM tools WHERE category_id = :category"));
  stmt.bind(":category", category_id).bind(":limit", limit);
  return rows_of(stmt, summary_from_row);
}

} // namespace verdict

namespace verdict {

std::vector<ComparisonSummary> StoreReads::comparisons_in_category(std::string_view category_slug,
                                                                   int64_t limit) {
  return read([&](sql::Db &db) {
    auto category = db.cached("SELECT id FROM categories WHERE slug = :slug");
    category.bind(":slug", category_slug);
    if (!category.step()) return std::vector<ComparisonSummary>{};
    return queries::comparisons_in_category(db, category.int64(0), limit);
  });
}

SideBySideLookup StoreReads::side_by_side(std::string_view address) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the tallies of one moment
    SideBySideLookup lookup;
    for (size_t parts = 3; parts <= kMostSideBySide && !lookup.found; ++parts)
      for (const auto &slugs : slug_splits(address, parts)) {
        std::vector<Tool> tools;
        for (const auto &slug : slugs)
          if (auto tool = queries::tool_by_slug(db, slug)) tools.push_back(std::move(*tool));
        if (tools.size() < slugs.size()) continue;
        SideBySide found{std::move(tools), {}};
        for (size_t a = 0; a < found.tools.size(); ++a)
          for (size_t b = a + 1; b < found.tools.size(); ++b) {
            const auto &x = found.tools[a], &y = found.tools[b];
            const auto record = queries::comparison_of_pair(db, x.id, y.id);
            found.pairs.push_back({a, b, queries::pair_tally(db, x.id, y.id),
                                   record && record->readers_see,
                                   queries::named_first(record, x.id, x.slug, y.slug)});
          }
        lookup.found = std::move(found);
        break;
      }
    if (lookup.found) {
      const auto &tools = lookup.found->tools;
      for (size_t i = 0; i < tools.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (tools[i].id == tools[j].id) lookup.repeated.push_back(tools[i].slug);
      if (!lookup.repeated.empty()) lookup.found.reset();
      return lookup;
    }
    // Named no tools: said slug by slug, as the plainest reading (at every "-vs-") splits it.
    size_t parts = 1;
    for (auto at = address.find(kPairSeparator); at != std::string_view::npos;
         at = address.find(kPairSeparator, at + 1))
      ++parts;
    if (parts >= 3 && parts <= kMostSideBySide)
      for (const auto &slugs : slug_splits(address, parts, 1))
        for (const auto &slug : slugs)
          if (!queries::tool_by_slug(db, slug)) lookup.unknown.push_back(slug);
    return lookup;
  });
}

std::optional<Comparison> StoreReads::resolve_pair(std::string_view pair_slug,
                                                   bool &canonical_order) {
  return read([&](sql::Db &db) -> std::optional<Comparison> {
    auto pair = queries::resolve_pair(db, pair_slug);
    if (!pair) return std::nullopt;
    canonical_order = pair->canonical_order;
    return std::move(pair->comparison);
  });
}

namespace {

// Up to kMostRelated other published comparisons: of either of the pair's tools first, newest
// first, then of either tool's category.
std::vector<ComparisonSummary> related_comparisons(sql::Db &db, const Comparison &pair) {
  constexpr size_t kMostRelated = 5;
  std::vector<ComparisonSummary> related;
  const auto add = [&](std::vector<ComparisonSummary> found) {
    for (auto &c : found) {
      const bool same = (c.a_slug == pair.a.slug && c.b_slug == pair.b.slug) ||
                        (c.a_slug == pair.b.slug && c.b_slug == pair.a.slug);
      const bool seen =
          std::any_of(related.begin(), related.end(), [&](const auto &r) { return r.id == c.id; });
      if (!same && !seen && related.size() < kMostRelated) related.push_back(std::move(c));
    }
  };
  const auto asked = static_cast<int64_t>(kMostRelated + 1); // the pair itself may be among them
  for (const auto *tool : {&pair.a, &pair.b})
    add(queries::comparisons_with_tool(db, tool->id, {1, static_cast<int>(asked)}).items);
  // A category's list may repeat all those already found and the pair itself: asked for past
  // them. Two tools of one category read it once.
  for (const auto *tool : {&pair.a, &pair.b}) {
    if (related.size() >= kMostRelated) break;
    if (tool == &pair.b && pair.b.category.slug == pair.a.category.slug) break;
    auto category = db.cached("SELECT category_id FROM tools WHERE id = :tool");
    category.bind(":tool", tool->id);
    if (category.step())
      add(queries::comparisons_in_category(db, category.int64(0), asked + kMostRelated));
  }
  return related;
}

} // namespace

std::optional<ComparisonDetail> StoreReads::comparison_detail(std::string_view pair_slug,
                                                              PageSpan span, Drafts drafts) {
  // One connection for the whole page, so its parts come from the same moment.
  return read([&](sql::Db &db) -> std::optional<ComparisonDetail> {
    auto pair = queries::resolve_pair(db, pair_slug, drafts);
    if (!pair) return std::nullopt;
    ComparisonDetail detail;
    detail.comparison = std::move(pair->comparison);
    detail.canonical_order = pair->canonical_order;
    auto reviews_a = queries::reviews_of_tool(db, detail.comparison.a, span);
    auto reviews_b = queries::reviews_of_tool(db, detail.comparison.b, span);
    detail.reviews_a = std::move(reviews_a.items);
    detail.reviews_b = std::move(reviews_b.items);
    detail.page = span.number;
    detail.has_next = reviews_a.has_next || reviews_b.has_next;
    detail.vote_log_size = queries::vote_log_size(db);
    detail.related = related_comparisons(db, detail.comparison);
    return detail;
  });
}

std::optional<ContentComparison> StoreReads::comparison_content(std::string_view pair) {
  return read([&](sql::Db &db) { return comparison_named(db, pair); });
}

Paged<ContentComparison> StoreReads::comparisons_at_desk(PageSpan span, std::string_view words) {
  return read([&](sql::Db &db) {
    // Drafts first, then the published newest first: the desk's work is at the top.
    auto stmt = db.cached("SELECT ta.slug, tb.slug, ifnull(c.published_on, ''), c.intro, "
                          "c.bottom_line /* every row: the desk's list of comparisons */ "
                          "FROM comparisons c JOIN tools ta ON ta.id = c.tool_a_id "
                          "JOIN tools tb ON tb.id = c.tool_b_id "
                          "WHERE :words = '%%' OR ta.name LIKE :words ESCAPE '\\' "
                          "OR tb.name LIKE :words ESCAPE '\\' OR c.intro LIKE :words ESCAPE '\\' "
                          "OR ifnull(c.bottom_line, '') LIKE :words ESCAPE '\\' "
                          "ORDER BY c.published_on IS NOT NULL, c.published_on DESC, c.id DESC "
                          "LIMIT :limit OFFSET :offset");
    stmt.bind(":words", queries::holding(words));
    return queries::paged(stmt, span, record_from_row);
  });
}

namespace {

// The refusal of a second comparison of a pair, naming its tools as the editor knows them.
std::string already_compared(sql::Db &db, int64_t a, int64_t b) {
  return queries::tool_name(db, a) + " and " + queries::tool_name(db, b) + " are already compared";
}

// The ids of the comparison's tools; a refusal naming the one that is not there.
std::variant<PairIds, WriteResult> ids_of(sql::Db &db, const ContentComparison &comparison) {
  const auto a = queries::tool_id(db, comparison.a);
  if (!a) return queries::no_such("tool", comparison.a);
  const auto b = queries::tool_id(db, comparison.b);
  if (!b) return queries::no_such("tool", comparison.b);
  return PairIds{*a, *b};
}

} // namespace

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateComparison &write) {
  const auto &[comparison, editor] = write;
  const auto ids = ids_of(db, comparison);
  if (const auto *refused = std::get_if<WriteResult>(&ids)) return *refused;
  const auto [a, b] = std::get<PairIds>(ids);
  if (queries::comparison_of_pair(db, a, b))
    return WriteResult::already_exists(already_compared(db, a, b));
  auto stmt = db.cached("INSERT INTO comparisons (tool_a_id, tool_b_id, published_on, intro, "
                        "bottom_line) VALUES (:a, :b, :published, :intro, :bottom_line)");
  bind_comparison(stmt, {a, b}, comparison);
  stmt.run();
  const auto subject = pair_slug(comparison.a, comparison.b);
  queries::log_change<ContentComparison>(db, at, editor, "comparison", subject, std::nullopt,
                                         comparison);
  if (const auto action = publishing_action(std::nullopt, comparison))
    queries::log_edit(db, at, {0, "", std::string(editor), action, "comparison", subject, "", ""});
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateComparison &write) {
  const auto &[pair, comparison, editor] = write;
  const auto before = comparison_named(db, pair);
  if (!before) return WriteResult::not_found("there is no comparison " + std::string(pair));
  const auto ids = ids_of(db, comparison);
  if (const auto *refused = std::get_if<WriteResult>(&ids)) return *refused;
  const auto [a, b] = std::get<PairIds>(ids);
  // The comparison read joins its tools: both are there.
  const auto [old_a, old_b] = std::get<PairIds>(ids_of(db, *before));
  if (std::minmax(a, b) != std::minmax(old_a, old_b) && queries::comparison_of_pair(db, a, b))
    return WriteResult::already_exists(already_compared(db, a, b));
  auto stmt = db.cached("UPDATE comparisons SET tool_a_id = :a, tool_b_id = :b, "
                        "published_on = :published, intro = :intro, bottom_line = :bottom_line "
                        "WHERE tool_a_id = :old_a AND tool_b_id = :old_b");
  bind_comparison(stmt, {a, b}, comparison);
  stmt.bind(":old_a", old_a).bind(":old_b", old_b).run();
  const auto subject = pair_slug(comparison.a, comparison.b);
  queries::log_change<ContentComparison>(db, at, editor, "comparison", subject, before, comparison);
  if (const auto action = publishing_action(before, comparison))
    queries::log_edit(db, at, {0, "", std::string(editor), action, "comparison", subject, "", ""});
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteComparison &write) {
  const auto &[pair, editor] = write;
  const auto before = comparison_named(db, pair);
  if (!before) return WriteResult::not_found("there is no comparison " + std::string(pair));
  const auto [a, b] = std::get<PairIds>(ids_of(db, *before)); // joined to its tools: both there
  auto stmt = db.cached("DELETE FROM comparisons WHERE tool_a_id = :a AND tool_b_id = :b");
  stmt.bind(":a", a).bind(":b", b).run();
  queries::log_change<ContentComparison>(db, at, editor, "comparison",
                                         pair_slug(before->a, before->b), before, std::nullopt);
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
