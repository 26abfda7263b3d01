// Feeds: the newest published comparisons, each read whole enough for a feed entry (both
// tools with their tallies, the editor's words), all on one connection in one snapshot, so a
// feed shows one moment of the site.
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// The comparisons the summaries name, as feed entries.
std::vector<FeedEntry> entries_of(sql::Db &db, const std::vector<ComparisonSummary> &summaries) {
  std::vector<FeedEntry> entries;
  for (const auto &summary : summaries) {
    auto a = queries::tool_by_slug(db, summary.a_slug);
    auto b = queries::tool_by_slug(db, summary.b_slug);
    const auto record = a && b ? queries::comparison_of_pair(db, a->id, b->id) : std::nullopt;
    if (!record) continue;
    FeedEntry entry;
    auto &comparison = entry.comparison;
    comparison.a = std::move(*a);
    comparison.b = std::move(*b);
    comparison.published = true;
    comparison.published_on = record->published_on;
    comparison.intro = record->intro;
    comparison.bottom_line = record->bottom_line;
    comparison.picks = queries::pair_tally(db, comparison.a.id, comparison.b.id);
    entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace

std::vector<FeedEntry> StoreReads::latest_comparisons_feed(int limit) {
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db);
    return entries_of(db, queries::newest_published(db, limit));
  });
}

std::optional<ToolFeed> StoreReads::tool_feed(std::string_view slug, int limit) {
  return read([&](sql::Db &db) -> std::optional<ToolFeed> {
    sql::ReadSnapshot snapshot(db);
    auto tool = queries::tool_by_slug(db, slug);
    if (!tool) return std::nullopt;
    auto comparisons = queries::comparisons_with_tool(db, tool->id, {1, limit});
    return ToolFeed{std::move(*tool), entries_of(db, comparisons.items)};
  });
}

std::optional<ReviewerFeed> StoreReads::reviewer_feed(std::string_view slug, int limit) {
  return read([&](sql::Db &db) -> std::optional<ReviewerFeed> {
    sql::ReadSnapshot snapshot(db);
    auto reviewer = queries::reviewer_by_slug(db, slug);
    if (!reviewer) return std::nullopt;
    auto entries = entries_of(db, queries::comparisons_reviewed_by(db, reviewer->id, limit));
    for (auto &entry : entries) {
      if (auto on_a = queries::review_by(db, entry.comparison.a.id, reviewer->id))
        entry.reviews_a.push_back(std::move(*on_a));
      if (auto on_b = queries::review_by(db, entry.comparison.b.id, reviewer->id))
        entry.reviews_b.push_back(std::move(*on_b));
    }
    return ReviewerFeed{std::move(*reviewer), std::move(entries)};
  });
}

} // namespace verdict
