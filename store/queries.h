// Queries shared by several store files, run on a connection the caller already holds so a
// page's reads share one connection. Internal to store/.
#pragma once

#include <type_traits>
#include <vector>

#include "domain/content.h"
#include "domain/model.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict::queries {

// What makes a comparison one readers see: published on a date that has come. A later date
// schedules it; site_today() is the site's date (Store::set_today). Only the comparisons
// table has a published_on, so it needs no table's name before it in any query.
#define PUBLISHED_BY_TODAY "(published_on IS NOT NULL AND published_on <= site_today())"

// site_today() in SQL, on a connection: `store`'s today() (UTC today without one). Every
// connection a store opens has it.
void add_site_functions(sql::Db &db, const Store *store);

// A tool's address and name, by its id; empty when there is no such tool.
struct ToolNaming {
  std::string slug, name;
};
std::optional<ToolNaming> tool_naming(sql::Db &db, int64_t id);

// The editor's record of a pair, in the editor's order.
struct PairRecord {
  int64_t a_id = 0, b_id = 0;
  std::string published_on; // empty when not published
  std::string intro;
  std::string bottom_line;
  bool readers_see = false; // published on a date that has come (PUBLISHED_BY_TODAY)
};

// Whether a pair's address names the tool `x_id` (`x_slug`) before the other (`y_slug`): the
// editor's order when they wrote the pair up (`record`, draft or not), else the slugs'
// alphabetical order, so a pair nobody wrote up has one address.
bool named_first(const std::optional<PairRecord> &record, int64_t x_id, std::string_view x_slug,
                 std::string_view y_slug);

// A pair address resolved to its two tools, in the address's order.
struct ResolvedPair {
  Comparison comparison;
  bool canonical_order = true; // false when the address names the pair the other way round
};

// The desk's lists narrow to what an editor types (`words`): a LIKE pattern, used with
// ESCAPE '\', matching any text that holds the words as typed, ASCII letters in either case.
// Empty words match every text; % and _ in them are only characters.
inline std::string holding(std::string_view words) {
  std::string pattern = "%";
  for (const char c : words) {
    if (c == '%' || c == '_' || c == '\\') pattern += '\\';
    pattern += c;
  }
  return pattern + "%";
}

// Every row `stmt` reads, each made into an item by `from_row`.
template <class FromRow> auto rows_of(sql::Stmt &stmt, FromRow from_row) {
  std::vector<std::invoke_result_t<FromRow &, const sql::Stmt &>> rows;
  while (stmt.step())
    rows.push_back(from_row(stmt));
  return rows;
}

// One page of a list: every paged list is read through here. `read_rows(limit, offset)` reads
// at most `limit` rows from row `offset` on; it is asked for one row more than the page holds,
// and that extra row only says a next page exists.
template <class ReadRows> auto paged(PageSpan span, ReadRows read_rows) {
  auto rows = read_rows(int64_t{span.size} + 1, span.offset());
  Paged<typename decltype(rows)::value_type> page{std::move(rows), span.number, false};
  if (page.items.size() > static_cast<size_t>(span.size)) {
    page.has_next = true;
    page.items.resize(static_cast<size_t>(span.size));
  }
  return page;
}

// The same read by `stmt`, whose :limit and :offset are bound here (its other parameters are
// the caller's); `from_row` makes each row's item.
template <class FromRow> auto paged(sql::Stmt &stmt, PageSpan span, FromRow from_row) {
  return paged(span, [&](int64_t limit, int64_t offset) {
    stmt.bind(":limit", limit).bind(":offset", offset);
    return rows_of(stmt, from_row);
  });
}

std::optional<Tool> tool_by_slug(sql::Db &db, std::string_view slug);
std::optional<Tool> tool_by_id(sql::Db &db, int64_t id);
// The id `sql` (with one :slug) reads for `slug`, if it reads one.
inline std::optional<int64_t> id_with_slug(sql::Db &db, const char *sql, const std::string &slug) {
  auto stmt = db.cached(sql);
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return stmt.int64(0);
}
// The id of the item with this slug, each in its aggregate's file; none when none has.
std::optional<int64_t> category_id(sql::Db &db, const std::string &slug);
std::optional<int64_t> tool_id(sql::Db &db, const std::string &slug);
std::optional<int64_t> reviewer_id(sql::Db &db, const std::string &slug);
// A write refused for naming an item that is not there ("no tool has the address x").
inline WriteResult no_such(std::string_view noun, std::string_view slug) {
  return WriteResult::not_found("no " + std::string(noun) + " has the address " +
                                std::string(slug));
}
// The name of the tool or reviewer with this id, as a message to the editor says it.
std::string tool_name(sql::Db &db, int64_t id);
std::string reviewer_name(sql::Db &db, int64_t id);

// Dates every vote on the tool (either side of a pair) at `at`, before the tool is deleted and
// its votes with it: the log's triggers date each withdrawal by its row (store/votes.cpp).
void date_withdrawals_of_tool(sql::Db &db, const WriteContext &at, int64_t tool_id);

// Adds `entry` (its id is the database's) to the edit log, dated when the write was taken,
// inside the caller's write (store/edit_log.cpp).
void log_edit(sql::Db &db, const WriteContext &at, const EditEntry &entry);
// Logs a change of one item from `before` to `after` (absent for a creation or a deletion),
// unless it changed nothing.
template <class Item>
void log_change(sql::Db &db, const WriteContext &at, std::string_view editor, const char *kind,
                const std::string &subject, const std::optional<Item> &before,
                const std::optional<Item> &after) {
  const auto was = before ? item_json(*before) : "";
  const auto is = after ? item_json(*after) : "";
  if (was == is) return;
  const char *action = !before ? "created" : !after ? "deleted" : "updated";
  log_edit(db, at, {0, "", std::string(editor), action, kind, subject, was, is});
}

// Old addresses of renamed items (store/renames.cpp); `kind` is "tool", "reviewer" or
// "category". A rename leaves the old slug leading to the new one.
void record_rename(sql::Db &db, const char *kind, const std::string &old_slug,
                   const std::string &new_slug);
// An address taken by an item is that item's alone: it no longer leads to another.
void address_taken(sql::Db &db, const char *kind, const std::string &slug);
// A deleted item's old addresses lead nowhere any more.
void forget_renames(sql::Db &db, const char *kind, const std::string &slug);
// The address now of the tool that had `slug` before a rename; empty when none did.
std::optional<std::string> renamed_tool_slug(sql::Db &db, std::string_view slug);
// Columns: tool slug, tool name, reviewer slug, name, lens, verdict, quote.
Review review_from_row(const sql::Stmt &row);
// A tool's reviews this many or fewer are sorted; more are read walking the panel in order.
constexpr int64_t kFewReviews = 100;
// A page of the tool's reviews, in panel order.
Paged<Review> reviews_of_tool(sql::Db &db, const Tool &tool, PageSpan span);
// One reviewer's review of one tool, if they wrote one.
std::optional<Review> review_by(sql::Db &db, int64_t tool_id, int64_t reviewer_id);
std::optional<Reviewer> reviewer_by_slug(sql::Db &db, std::string_view slug);
// By name then slug; `limit` -1 reads them all.
std::vector<Tool> tools_by_name(sql::Db &db, int64_t limit = -1, int64_t offset = 0);
// How many tools the site has, counting no further than `limit`.
int64_t tool_count_up_to(sql::Db &db, int64_t limit);
// A voter's vote on one tool, as on_a and on_a_standing.
VoterChoices voter_choices_on_tool(sql::Db &db, std::string_view voter, int64_t tool_id);
// The newest published comparisons, newest first (by date, then the row's order).
std::vector<ComparisonSummary> newest_published(sql::Db &db, int64_t limit, int64_t offset = 0);
// Published comparisons the tool is in, newest first.
Paged<ComparisonSummary> comparisons_with_tool(sql::Db &db, int64_t tool_id, PageSpan span);
// Published comparisons of a tool the reviewer reviewed, newest first.
std::vector<ComparisonSummary> comparisons_reviewed_by(sql::Db &db, int64_t reviewer_id,
                                                       int64_t limit);
// The newest published comparisons with a tool of the category on either side.
std::vector<ComparisonSummary> comparisons_in_category(sql::Db &db, int64_t category_id,
                                                       int64_t limit);
std::optional<PairRecord> comparison_of_pair(sql::Db &db, int64_t x, int64_t y);
// With Drafts::hidden (every reader's page) a comparison readers do not see yet — a draft or
// one scheduled — shows as a pair nobody wrote up: no date, intro or bottom line.
std::optional<ResolvedPair> resolve_pair(sql::Db &db, std::string_view pair_slug,
                                         Drafts drafts = Drafts::hidden);
PairTally pair_tally(sql::Db &db, int64_t a_id, int64_t b_id);
// Who leads the pair `a` then `b`: both tools' panel and counted reader tallies, and the
// pair's counted picks.
PairNumbers pair_numbers(sql::Db &db, int64_t a_id, int64_t b_id);
// How many entries the vote log holds: the numbers read beside it are what they replay to.
uint64_t vote_log_size(sql::Db &db);
// The newest `limit` signed checkpoints of the vote log, newest first.
std::vector<Checkpoint> latest_checkpoints(sql::Db &db, int limit);
// How many subscribers are pending, confirmed and unsubscribed.
SubscriberCounts subscriber_counts(sql::Db &db);
VoterChoices voter_choices(sql::Db &db, std::string_view voter, int64_t a_id, int64_t b_id);

} // namespace verdict::queries
