// Reader votes: ship/skip on a tool and head-to-head picks on a pair. Each vote is an upsert
// against a UNIQUE key in the writer's transaction (never check-then-insert), and triggers in
// migrations/ keep the tallies the pages read.
#include <algorithm>
#include <functional>

#include "auth/vote_tokens.h"
#include "domain/counting.h"
#include "domain/dates.h"
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/vote_targets.h"

namespace verdict {

namespace {
constexpr const char *kLoadToolVote =
    "INSERT INTO tool_votes (voter, tool_id, verdict, cast_at) "
    "VALUES (:voter, :tool, :verdict, strftime('%Y-%m-%dT%H:%M:%SZ', :at, 'unixepoch')) "
    "ON CONFLICT (voter, tool_id) DO UPDATE SET "
    "verdict = excluded.verdict, cast_at = excluded.cast_at";
constexpr const char *kLoadPairPick =
    "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id, cast_at) "
    "VALUES (:voter, :low, :high, :pick, strftime('%Y-%m-%dT%H:%M:%SZ', :at, 'unixepoch')) "
    "ON CONFLICT (voter, low_tool_id, high_tool_id) DO UPDATE SET "
    "pick_tool_id = excluded.pick_tool_id, cast_at = excluded.cast_at";

std::optional<Verdict> verdict_of(const sql::Stmt &row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return verdict_from_word(row.text(column)).value_or(Verdict::skip);
}

VoteStanding standing_of(const sql::Stmt &row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return reason_from_code(row.text(column));
}

// Binds a standing: NULL for a counted vote, else its reason's code.
void bind_standing(sql::Stmt &stmt, const VoteStanding &standing) {
  if (standing)
    stmt.bind(":set_aside", reason_code(*standing));
  else
    stmt.bind_null(":set_aside");
}

SetAside set_aside_of(const sql::Stmt &row, int network_column) {
  return {row.int64(network_column), row.int64(network_column + 1)};
}

// What the counting rule reads for one vote, found by one statement in the writer's
// transaction: whether the voter already has a vote on the target and whether it is counted,
// and the voters of their network counted on the target in the window (kept in
// counted_voters); its wider network's are asked for only when they could decide (judged()).
struct Standing {
  bool has_vote = false;
  bool counted = false;
  bool same_choice = false; // the vote sent is the one standing (sent again, not changed)
  CountedAround around;
};

// The counting rule's columns of a lookup, after the vote's own: its network's voters in the
// window (:since to :day) and whether the voter is one of them. A plain count: a voter joins
// their network's counted voters only when not among them in the window, so a window holds
// one row per voter at most (a DISTINCT count built a temporary b-tree each time, a third of
// the lookup's cost under `./dev bench cluster`).
#define COUNTED_IN_NETWORK                                                                         \
  "(SELECT count(*) FROM counted_voters WHERE network = :network "                                 \
  " AND target = :target AND day BETWEEN :since AND :day), "                                       \
  "EXISTS (SELECT 1 FROM counted_voters WHERE network = :network AND target = :target "            \
  " AND day BETWEEN :since AND :day AND voter = :voter)"

// How a lookup's first column reads the voter's vote on the target, in one read of its row:
// NULL when there is none, 0 set aside, 1 counted, 2 counted with the choice sent again.
#define VOTE_STANDING(choice_is_sent)                                                              \
  "CASE WHEN set_aside IS NOT NULL THEN 0 WHEN " choice_is_sent " THEN 2 ELSE 1 END"

Standing standing_from(sql::Stmt &lookup) {
  lookup.step();
  Standing found;
  found.has_vote = !lookup.is_null(0);
  found.counted = found.has_vote && lookup.int64(0) != 0;
  found.same_choice = found.has_vote && lookup.int64(0) == 2;
  found.around.network_voters = lookup.int64(1);
  found.around.voter_among_them = lookup.int64(2) != 0;
  lookup.step(); // done: nothing of it is left open while the vote is written
  return found;
}

// Binds the ballot's day, network and target, and its voter, to a lookup.
void bind_ballot(sql::Stmt &stmt, const Ballot &ballot, const std::string &target) {
  stmt.bind(":voter", ballot.voter).bind(":day", ballot.day);
  stmt.bind(":network", ballot.network).bind(":target", target);
}

// The voters of the ballot's wider network counted on `target` in the window (from `since`).
// DISTINCT: a voter who moved between two networks of one wider network may be counted under
// both.
int64_t wider_voters(sql::Db &db, const Ballot &ballot, const std::string &target,
                     const std::string &since) {
  auto count = db.cached("SELECT count(DISTINCT voter) FROM counted_voters WHERE wider = :wider "
                         "AND target = :target AND day BETWEEN :since AND :day");
  count.bind(":wider", ballot.wider).bind(":target", target).bind(":day", ballot.day);
  count.bind(":since", since);
  count.step();
  return count.int64(0);
}

// The counting rule (domain/counting.h) for a vote about to be written on `target`; a counted
// voter not yet among their network's counted voters in the window joins them today. Its wider
// network can only set aside a vote the rest would count, so it is counted only then.
VoteStanding judged(sql::Db &db, const Ballot &ballot, const std::string &target,
                    const std::string &since, Standing found) {
  auto standing = judge_vote(ballot.seconds_on_page, found.around);
  if (!standing && !found.around.voter_among_them && !ballot.wider.empty()) {
    found.around.wider_voters = wider_voters(db, ballot, target, since);
    standing = judge_vote(ballot.seconds_on_page, found.around);
  }
  if (!standing && !found.around.voter_among_them) {
    auto join = db.cached("INSERT INTO counted_voters (day, network, target, voter, wider) "
                          "VALUES (:day, :network, :target, :voter, :wider)");
    bind_ballot(join, ballot, target);
    join.bind(":wider", ballot.wider).run();
  }
  return standing;
}

} // namespace

std::optional<ToolKey> StoreReads::tool_to_vote_on(std::string_view slug) {
  // The catalogue's generation before the read: what is read is at least that new.
  const auto catalogue = catalogue_generation();
  if (auto kept = store_.vote_targets_->find(catalogue, slug)) return kept;
  auto tool = read([&](sql::Db &db) -> std::optional<ToolKey> {
    const auto key_of = [&db](std::string_view address) -> std::optional<ToolKey> {
      auto by_slug = db.cached("SELECT id, slug FROM tools WHERE slug = :slug");
      by_slug.bind(":slug", address);
      if (!by_slug.step()) return std::nullopt;
      return ToolKey{by_slug.int64(0), by_slug.text(1)};
    };
    if (auto key = key_of(slug)) return key;
    const auto renamed = queries::renamed_tool_slug(db, slug);
    return renamed ? key_of(*renamed) : std::nullopt;
  });
  if (tool) store_.vote_targets_->keep(catalogue, slug, *tool);
  return tool;
}

PairTally queries::pair_tally(sql::Db &db, int64_t a_id, int64_t b_id) {
  auto stmt = db.cached("SELECT low_picks, high_picks, set_aside_network, set_aside_too_fast "
                        "FROM pair_tallies WHERE low_tool_id = :low AND high_tool_id = :high");
  stmt.bind(":low", std::min(a_id, b_id)).bind(":high", std::max(a_id, b_id));
  if (!stmt.step()) return PairTally{};
  const auto low = stmt.int64(0), high = stmt.int64(1);
  const auto set_aside = set_aside_of(stmt, 2);
  return a_id < b_id ? PairTally{low, high, set_aside} : PairTally{high, low, set_aside};
}

PairNumbers queries::pair_numbers(sql::Db &db, int64_t a_id, int64_t b_id) {
  PairNumbers numbers;
  auto stmt = db.cached("SELECT id, panel_ships, panel_reviews, community_ships, community_votes "
                        "FROM tools WHERE id IN (:a, :b)");
  stmt.bind(":a", a_id).bind(":b", b_id);
  while (stmt.step()) {
    const bool is_a = stmt.int64(0) == a_id;
    (is_a ? numbers.panel_a : numbers.panel_b) = {stmt.int64(1), stmt.int64(2)};
    (is_a ? numbers.readers_a : numbers.readers_b) = {stmt.int64(3), stmt.int64(4)};
  }
  numbers.picks = pair_tally(db, a_id, b_id);
  return numbers;
}

VoterChoices queries::voter_choices(sql::Db &db, std::string_view voter, int64_t a_id,
                                    int64_t b_id) {
  auto stmt =
      db.cached("SELECT (SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :a), "
                "(SELECT set_aside FROM tool_votes WHERE voter = :voter AND tool_id = :a), "
                "(SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :b), "
                "(SELECT set_aside FROM tool_votes WHERE voter = :voter AND tool_id = :b), "
                "(SELECT pick_tool_id FROM pair_votes WHERE voter = :voter "
                " AND low_tool_id = min(:a, :b) AND high_tool_id = max(:a, :b)), "
                "(SELECT set_aside FROM pair_votes WHERE voter = :voter "
                " AND low_tool_id = min(:a, :b) AND high_tool_id = max(:a, :b))");
  stmt.bind(":voter", voter).bind(":a", a_id).bind(":b", b_id);
  stmt.step();
  VoterChoices choices{verdict_of(stmt, 0),  verdict_of(stmt, 2),  std::nullopt,
                       standing_of(stmt, 1), standing_of(stmt, 3), standing_of(stmt, 5)};
  if (!stmt.is_null(4)) choices.pick = stmt.int64(4);
  return choices;
}

VoterChoices StoreReads::voter_choices(std::string_view voter, int64_t a_id, int64_t b_id) {
  return read([&](sql::Db &db) { return queries::voter_choices(db, voter, a_id, b_id); });
}

VoterChoices queries::voter_choices_on_tool(sql::Db &db, std::string_view voter, int64_t tool_id) {
  auto stmt = db.cached(
      "SELECT verdict, set_aside FROM tool_votes WHERE voter = :voter AND tool_id = :tool");
  stmt.bind(":voter", voter).bind(":tool", tool_id);
  VoterChoices choices;
  if (stmt.step()) {
    choices.on_a = verdict_of(stmt, 0);
    choices.on_a_standing = standing_of(stmt, 1);
  }
  return choices;
}

VoterChoices StoreReads::voter_choices_on_tool(std::string_view voter, int64_t tool_id) {
  return read([&](sql::Db &db) { return queries::voter_choices_on_tool(db, voter, tool_id); });
}

namespace {

// A vote already counted keeps its place when its voter changes it while they hold their
// network's place (counted in the window); every other vote, a change after the place lapsed
// included, is judged by the counting rule as it is written. One lookup reads all the rule
// needs, so a new vote costs the writer two statements and an upsert.
VoteStanding write_tool_vote(sql::Db &db, const std::string &at, const Ballot &ballot,
                             int64_t tool_id, std::optional<Verdict> verdict) {
  if (!verdict) {
    // Dated first: the log's withdrawal is dated by the row (migrations/0018-times-bound.sql).
    auto dated = db.cached("UPDATE tool_votes SET cast_at = :at "
                           "WHERE voter = :voter AND tool_id = :tool");
    dated.bind(":at", at).bind(":voter", ballot.voter).bind(":tool", tool_id).run();
    auto stmt = db.cached("DELETE FROM tool_votes WHERE voter = :voter AND tool_id = :tool");
    stmt.bind(":voter", ballot.voter).bind(":tool", tool_id).run();
    return std::nullopt;
  }
  const auto target = auth::tool_vote_target(tool_id);
  auto lookup = db.cached("SELECT (SELECT " VOTE_STANDING(
      "verdict = :verdict") " FROM tool_votes "
                            " WHERE voter = :voter AND tool_id = :tool), " COUNTED_IN_NETWORK);
  bind_ballot(lookup, ballot, target);
  const auto since = counting_window_first_day(ballot.day);
  lookup.bind(":tool", tool_id).bind(":since", since);
  lookup.bind(":verdict", verdict_word(*verdict));
  const auto found = standing_from(lookup);
  // Sent again unchanged, or changed while the voter holds their network's place: kept.
  if (found.counted && (found.same_choice || found.around.voter_among_them)) {
    auto change = db.cached("UPDATE tool_votes SET verdict = :verdict, cast_at = :at "
                            "WHERE voter = :voter AND tool_id = :tool AND verdict <> :verdict");
    change.bind(":voter", ballot.voter).bind(":tool", tool_id).bind(":at", at);
    change.bind(":verdict", verdict_word(*verdict)).run();
    return std::nullopt;
  }
  const auto standing = judged(db, ballot, target, since, found);
  auto stmt = db.cached("INSERT INTO tool_votes (voter, tool_id, verdict, network, set_aside, "
                        "cast_at) VALUES (:voter, :tool, :verdict, :network, :set_aside, :at) "
                        "ON CONFLICT (voter, tool_id) DO UPDATE SET verdict = excluded.verdict, "
                        "network = excluded.network, set_aside = excluded.set_aside, "
                        "cast_at = excluded.cast_at");
  stmt.bind(":voter", ballot.voter).bind(":tool", tool_id).bind(":at", at);
  stmt.bind(":verdict", verdict_word(*verdict));
  stmt.bind(":network", ballot.network);
  bind_standing(stmt, standing);
  stmt.run();
  return standing;
}

VoteStanding write_pair_vote(sql::Db &db, const std::string &at, const Ballot &ballot, int64_t a_id,
                             int64_t b_id, std::optional<int64_t> pick) {
  const auto low = std::min(a_id, b_id), high = std::max(a_id, b_id);
  if (!pick) {
    auto dated = db.cached("UPDATE pair_votes SET cast_at = :at WHERE voter = :voter "
                           "AND low_tool_id = :low AND high_tool_id = :high");
    dated.bind(":at", at).bind(":voter", ballot.voter).bind(":low", low).bind(":high", high).run();
    auto stmt = db.cached("DELETE FROM pair_votes WHERE voter = :voter "
                          "AND low_tool_id = :low AND high_tool_id = :high");
    stmt.bind(":voter", ballot.voter).bind(":low", low).bind(":high", high).run();
    return std::nullopt;
  }
  const auto target = auth::pair_vote_target(a_id, b_id);
  auto lookup = db.cached("SELECT (SELECT " VOTE_STANDING(
      "pick_tool_id = :pick") " FROM pair_votes "
                              " WHERE voter = :voter AND low_tool_id = :low AND high_tool_id = "
                              ":high), " COUNTED_IN_NETWORK);
  bind_ballot(lookup, ballot, target);
  lookup.bind(":low", low).bind(":high", high);
  const auto since = counting_window_first_day(ballot.day);
  lookup.bind(":since", since);
  lookup.bind(":pick", *pick);
  const auto found = standing_from(lookup);
  if (found.counted && (found.same_choice || found.around.voter_among_them)) {
    auto change = db.cached("UPDATE pair_votes SET pick_tool_id = :pick, cast_at = :at "
                            "WHERE voter = :voter AND low_tool_id = :low AND high_tool_id = :high "
                            "AND pick_tool_id <> :pick");
    change.bind(":at", at).bind(":voter", ballot.voter).bind(":low", low).bind(":high", high);
    change.bind(":pick", *pick).run();
    return std::nullopt;
  }
  const auto standing = judged(db, ballot, target, since, found);
  auto stmt = db.cached(
      "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id, network, "
      "set_aside, cast_at) VALUES (:voter, :low, :high, :pick, :network, :set_aside, :at) "
      "ON CONFLICT (voter, low_tool_id, high_tool_id) DO UPDATE "
      "SET pick_tool_id = excluded.pick_tool_id, network = excluded.network, "
      "set_aside = excluded.set_aside, cast_at = excluded.cast_at");
  stmt.bind(":voter", ballot.voter).bind(":low", low).bind(":high", high).bind(":pick", *pick);
  stmt.bind(":network", ballot.network).bind(":at", at);
  bind_standing(stmt, standing);
  stmt.run();
  return standing;
}
} // namespace

void queries::forget_counted_voters_before_window(sql::Db &db, const std::string &day) {
  // The counting rule reads only the window's days (COUNTED_IN_NETWORK): older rows are
  // housekeeping, dropped once a day rather than looked for at every vote. A seek: the
  // table's key begins with the day.
  db.cached("DELETE FROM counted_voters WHERE day < :since")
      .bind(":since", counting_window_first_day(day))
      .run();
}

void queries::date_withdrawals_of_tool(sql::Db &db, const WriteContext &at, int64_t tool_id) {
  // Every row of the votes, as the deletion's cascade reads them too: a tool is deleted
  // rarely, and an index by tool would cost every vote.
  const auto when = rfc3339_utc(at.seconds());
  db.cached("UPDATE tool_votes SET cast_at = :at "
            "/* every row: a tool deleted, as its cascade */ WHERE tool_id = :tool")
      .bind(":at", when)
      .bind(":tool", tool_id)
      .run();
  db.cached("UPDATE pair_votes SET cast_at = :at "
            "/* every row: a tool deleted, as its cascade */ "
            "WHERE low_tool_id = :tool OR high_tool_id = :tool")
      .bind(":at", when)
      .bind(":tool", tool_id)
      .run();
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CastToolVote &write) {
  return WriteResult::written(
      write_tool_vote(db, rfc3339_utc(at.seconds()), write.ballot, write.tool, write.verdict));
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CastPairVote &write) {
  return WriteResult::written(
      write_pair_vote(db, rfc3339_utc(at.seconds()), write.ballot, write.a, write.b, write.pick));
}

} // namespace aggregates

namespace {

uint64_t applied_in(sql::Db &db) {
  auto stmt = db.cached("SELECT sequence FROM cluster_applied WHERE only_row = 1");
  return stmt.step() ? static_cast<uint64_t>(stmt.int64(0)) : 0;
}

} // namespace

uint64_t StoreReads::applied_sequence() {
  return read([](sql::Db &db) { return applied_in(db); });
}

StoreReads::SkippedEntries StoreReads::skipped_entries() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("SELECT skipped, last_skipped FROM cluster_applied WHERE only_row = 1");
    if (!stmt.step()) return SkippedEntries{};
    return SkippedEntries{static_cast<uint64_t>(stmt.int64(0)),
                          static_cast<uint64_t>(stmt.int64(1))};
  });
}

void Store::load_votes(const VoteLoad &votes) {
  std::vector<int64_t> tool_ids(votes.tools.size());
  read([&](sql::Db &db) {
    for (size_t i = 0; i < votes.tools.size(); ++i) {
      const auto tool = queries::tool_by_slug(db, votes.tools[i]);
      if (!tool) throw NotFound("no such tool: " + votes.tools[i]);
      tool_ids[i] = tool->id;
    }
  });
  // Each transaction takes this many votes: large enough that commits cost nothing, small
  // enough that readers and other writes are not held up for long.
  constexpr size_t kBatch = 100'000;
  const auto in_batches = [this](size_t count,
                                 const std::function<void(sql::Db &, size_t)> &load_one) {
    for (size_t start = 0; start < count; start += kBatch)
      write([&](sql::Db &db) {
        for (size_t i = start; i < std::min(start + kBatch, count); ++i)
          load_one(db, i);
      });
  };
  in_batches(votes.tool_votes.size(), [&](sql::Db &db, size_t i) {
    const auto &vote = votes.tool_votes[i];
    auto stmt = db.cached(kLoadToolVote);
    stmt.bind(":voter", votes.voters.at(vote.voter)).bind(":tool", tool_ids.at(vote.tool));
    stmt.bind(":verdict", verdict_word(vote.ship ? Verdict::ship : Verdict::skip))
        .bind(":at", vote.cast_at)
        .run();
  });
  in_batches(votes.pair_picks.size(), [&](sql::Db &db, size_t i) {
    const auto &vote = votes.pair_picks[i];
    const auto a = tool_ids.at(vote.a), b = tool_ids.at(vote.b);
    auto stmt = db.cached(kLoadPairPick);
    stmt.bind(":voter", votes.voters.at(vote.voter)).bind(":low", std::min(a, b));
    stmt.bind(":high", std::max(a, b)).bind(":pick", tool_ids.at(vote.pick));
    stmt.bind(":at", vote.cast_at).run();
  });
}

} // namespace verdict
