// Reader votes: ship/skip on a tool and head-to-head picks on a pair. Each vote is an upsert
// against a UNIQUE key in the writer's transaction (never check-then-insert); the triggers of
// migrations/0022-vote-batches.sql leave its log entry waiting, and the entry moves the
// tallies the pages read when its batch is appended (store/vote_log.cpp).
#include <algorithm>
#include <functional>

#include "auth/vote_tokens.h"
#include "domain/counting.h"
#include "domain/dates.h"
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/vote_log.h"
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

// Where one kind of vote is kept, and the counting rule's statements over it, made once from
// its table's names: a tool's ship or skip and a pair's pick are judged and written alike.
// Each statement names the target by `match` (its key's columns against their parameters) and
// the choice by :choice; a network's places are read from the counted votes themselves
// (migrations/0021-standing-places.sql: partial indexes that hold only those).
struct VoteTable {
  VoteTable(const std::string &table, const std::string &key_columns, const std::string &key_values,
            const std::string &match, const std::string &choice)
      : lookup("SELECT CASE WHEN set_aside IS NOT NULL THEN 0 WHEN " + choice +
               " = :choice THEN 2 ELSE 1 END FROM " + table + " WHERE voter = :voter AND " + match),
        keep("UPDATE " + table + " SET " + choice + " = :choice, cast_at = :at WHERE voter = " +
             ":voter AND " + match + " AND " + choice + " <> :choice"),
        places("SELECT place FROM " + table + " WHERE " + match +
               " AND network = :network AND set_aside IS NULL"),
        wider_held("SELECT count(*) FROM " + table + " WHERE " + match +
                   " AND wider = :wider AND set_aside IS NULL"),
        write("INSERT INTO " + table + " (voter, " + key_columns + ", " + choice +
              ", network, wider, set_aside, place, cast_at) VALUES (:voter, " + key_values +
              ", :choice, :network, :wider, :set_aside, :place, :at) ON CONFLICT (voter, " +
              key_columns + ") DO UPDATE SET " + choice + " = excluded." + choice +
              ", network = excluded.network, wider = excluded.wider, set_aside = "
              "excluded.set_aside, place = excluded.place, cast_at = CASE WHEN " +
              table + "." + choice + " = excluded." + choice +
              " AND excluded.set_aside IS NOT NULL THEN " + table +
              ".cast_at ELSE excluded.cast_at END"),
        held("SELECT network, wider FROM " + table + " WHERE voter = :voter AND " + match +
             " AND set_aside IS NULL AND network IS NOT NULL"),
        date("UPDATE " + table + " SET cast_at = :at WHERE voter = :voter AND " + match),
        remove("DELETE FROM " + table + " WHERE voter = :voter AND " + match),
        waiting_in_wider("SELECT voter, network FROM " + table + " WHERE " + match +
                         " AND wider = :wider AND set_aside = 'network' ORDER BY cast_at "
                         "LIMIT :most"),
        waiting_in_network("SELECT voter, network FROM " + table + " WHERE " + match +
                           " AND wider = '' AND network = :network AND set_aside = 'network' "
                           "ORDER BY cast_at LIMIT 1"),
        count_in("UPDATE " + table + " SET set_aside = NULL, place = :place, cast_at = :at " +
                 "WHERE voter = :voter AND " + match) {}

  const std::string lookup;     // the voter's vote: 0 set aside, 1 counted, 2 the same choice
                                // counted (no row: none)
  const std::string keep;       // a counted vote's change: it keeps its place
  const std::string places;     // the places its network holds on the target (NULL: unnumbered)
  const std::string wider_held; // how many its wider network holds
  // A judged vote, new or sent again; one still set aside, sent again unchanged, keeps its
  // time, and so its turn for a place.
  const std::string write;
  const std::string held; // the place a vote about to be withdrawn holds
  const std::string date; // a withdrawal's time, on the row (the log dates it by the row)
  const std::string remove;
  const std::string waiting_in_wider;   // votes set aside for their network, oldest first
  const std::string waiting_in_network; // the same, of the votes kept before wider networks
  const std::string count_in;           // a waiting vote takes a freed place
};

const VoteTable kToolVotes("tool_votes", "tool_id", ":tool", "tool_id = :tool", "verdict");
const VoteTable kPairVotes("pair_votes", "low_tool_id, high_tool_id", ":low, :high",
                           "low_tool_id = :low AND high_tool_id = :high", "pick_tool_id");

// The votes on one target: their table, its code (auth/vote_tokens.h) and how its key is bound.
struct VotesOn {
  const VoteTable &table;
  std::string code;
  std::function<void(sql::Stmt &)> bind_key;

  sql::Stmt prepared(sql::Db &db, const std::string &sql) const {
    auto stmt = db.cached(sql.c_str());
    bind_key(stmt);
    return stmt;
  }
};

// The voter's own vote on the target, as the counting rule reads it.
struct Standing {
  bool counted = false;
  bool same_choice = false; // the vote sent is the one standing (sent again, not changed)
};

// A network's places on a target, read once from its counted votes: how many it holds (a vote
// counted before places were numbered holds one too), and the lowest that none holds.
struct NetworkPlaces {
  int64_t held = 0;
  int64_t lowest_free = 1;
};

NetworkPlaces places_of(sql::Db &db, const VotesOn &target, const std::string &network) {
  auto rows = target.prepared(db, target.table.places);
  rows.bind(":network", network);
  NetworkPlaces places;
  std::vector<int64_t> numbered;
  while (rows.step()) {
    ++places.held;
    if (!rows.is_null(0)) numbered.push_back(rows.int64(0));
  }
  std::sort(numbered.begin(), numbered.end());
  for (const auto taken : numbered)
    if (taken == places.lowest_free) ++places.lowest_free;
  return places;
}

// How many places the wider network holds on the target; none is counted for a vote kept
// before wider networks were (its quota is not applied).
int64_t wider_places(sql::Db &db, const VotesOn &target, const std::string &wider) {
  if (wider.empty()) return 0;
  auto count = target.prepared(db, target.table.wider_held);
  count.bind(":wider", wider).step();
  return count.int64(0);
}

// The counting rule (domain/counting.h) for a vote about to be written: counted when its
// network and its wider network have room. Its wider network can only set aside a vote the
// rest would count, so it is read only then.
VoteStanding judged(sql::Db &db, const VotesOn &target, const Ballot &ballot,
                    const NetworkPlaces &places) {
  CountedAround around{places.held, 0, false};
  auto standing = judge_vote(ballot.seconds_on_page, around);
  if (!standing && !ballot.wider.empty()) {
    around.wider_voters = wider_places(db, target, ballot.wider);
    standing = judge_vote(ballot.seconds_on_page, around);
  }
  return standing;
}

// A place has freed on the target (a counted vote withdrawn): the oldest vote set aside for
// its network that now fits — its network under its places, its wider network under its —
// takes it, counted from `at`. Votes waiting in the wider network are read a bounded number
// at a time: a freed place is offered to the oldest of them that fit.
void offer_freed_place(sql::Db &db, const VotesOn &target, const std::string &at,
                       const std::string &network, const std::string &wider) {
  constexpr int64_t kWaitingRead = 64;
  std::vector<std::pair<std::string, std::string>> waiting; // voter, network
  if (wider.empty()) {
    auto oldest = target.prepared(db, target.table.waiting_in_network);
    oldest.bind(":network", network);
    while (oldest.step())
      waiting.emplace_back(oldest.text(0), oldest.text(1));
  } else {
    if (wider_places(db, target, wider) >= kCountedVotersPerWiderNetwork) return;
    auto oldest = target.prepared(db, target.table.waiting_in_wider);
    oldest.bind(":wider", wider).bind(":most", kWaitingRead);
    while (oldest.step())
      waiting.emplace_back(oldest.text(0), oldest.text(1));
  }
  for (const auto &[voter, its_network] : waiting) {
    const auto places = places_of(db, target, its_network);
    if (places.held >= kCountedVotersPerNetwork) continue;
    auto counted = target.prepared(db, target.table.count_in);
    counted.bind(":place", places.lowest_free);
    counted.bind(":at", at).bind(":voter", voter).run();
    return;
  }
}

void withdraw(sql::Db &db, const VotesOn &target, const std::string &at, const std::string &voter) {
  std::optional<std::pair<std::string, std::string>> freed; // its network and wider network
  auto held = target.prepared(db, target.table.held);
  held.bind(":voter", voter);
  if (held.step()) freed.emplace(held.text(0), held.text(1));
  held.step(); // done: nothing of it is left open while the vote is written
  // Dated first: the log's withdrawal is dated by the row (migrations/0018-times-bound.sql).
  auto dated = target.prepared(db, target.table.date);
  dated.bind(":at", at).bind(":voter", voter).run();
  auto removed = target.prepared(db, target.table.remove);
  removed.bind(":voter", voter).run();
  if (freed) offer_freed_place(db, target, at, freed->first, freed->second);
}

// A counted vote keeps its place for as long as it stands: sent again, or changed, it stays
// counted. Every other vote is judged by the counting rule as it is written, and a counted one
// takes its network's lowest free place. The voter's vote and their network's places are each
// read once, so a new vote costs the writer a few statements and an upsert.
VoteStanding write_vote(sql::Db &db, const VotesOn &target, const std::string &at,
                        const Ballot &ballot, const std::function<void(sql::Stmt &)> &bind_choice) {
  auto lookup = target.prepared(db, target.table.lookup);
  lookup.bind(":voter", ballot.voter);
  bind_choice(lookup);
  Standing found;
  if (lookup.step()) {
    found.counted = lookup.int64(0) != 0;
    found.same_choice = lookup.int64(0) == 2;
    lookup.step(); // done: nothing of it is left open while the vote is written
  }
  if (found.counted) {
    if (found.same_choice) return std::nullopt;
    auto change = target.prepared(db, target.table.keep);
    change.bind(":voter", ballot.voter).bind(":at", at);
    bind_choice(change);
    change.run();
    return std::nullopt;
  }
  const auto places = places_of(db, target, ballot.network);
  const auto standing = judged(db, target, ballot, places);
  auto stmt = target.prepared(db, target.table.write);
  stmt.bind(":voter", ballot.voter).bind(":at", at);
  stmt.bind(":network", ballot.network).bind(":wider", ballot.wider);
  bind_choice(stmt);
  bind_standing(stmt, standing);
  if (standing)
    stmt.bind_null(":place");
  else
    stmt.bind(":place", places.lowest_free);
  stmt.run();
  return standing;
}

VotesOn tool_target(int64_t tool_id) {
  return {kToolVotes, auth::tool_vote_target(tool_id),
          [tool_id](sql::Stmt &stmt) { stmt.bind(":tool", tool_id); }};
}

VotesOn pair_target(int64_t a_id, int64_t b_id) {
  const auto low = std::min(a_id, b_id), high = std::max(a_id, b_id);
  return {kPairVotes, auth::pair_vote_target(a_id, b_id),
          [low, high](sql::Stmt &stmt) { stmt.bind(":low", low).bind(":high", high); }};
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

VoteStanding write_tool_vote(sql::Db &db, const std::string &at, const Ballot &ballot,
                             int64_t tool_id, std::optional<Verdict> verdict) {
  const auto target = tool_target(tool_id);
  if (!verdict) {
    withdraw(db, target, at, ballot.voter);
    return std::nullopt;
  }
  return write_vote(db, target, at, ballot,
                    [&](sql::Stmt &stmt) { stmt.bind(":choice", verdict_word(*verdict)); });
}

VoteStanding write_pair_vote(sql::Db &db, const std::string &at, const Ballot &ballot, int64_t a_id,
                             int64_t b_id, std::optional<int64_t> pick) {
  const auto target = pair_target(a_id, b_id);
  if (!pick) {
    withdraw(db, target, at, ballot.voter);
    return std::nullopt;
  }
  return write_vote(db, target, at, ballot, [&](sql::Stmt &stmt) { stmt.bind(":choice", *pick); });
}

} // namespace

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
  const auto when = rfc3339_utc(at.seconds());
  const auto standing = write_tool_vote(db, when, write.ballot, write.tool, write.verdict);
  if (!write.batched) vote_log::publish_waiting(db, when);
  return WriteResult::written(standing);
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CastPairVote &write) {
  const auto when = rfc3339_utc(at.seconds());
  const auto standing = write_pair_vote(db, when, write.ballot, write.a, write.b, write.pick);
  if (!write.batched) vote_log::publish_waiting(db, when);
  return WriteResult::written(standing);
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
        // Past votes, each dated by its own time, so the tallies keep their days.
        vote_log::publish_waiting(db, rfc3339_utc(0), vote_log::Publishing::as_they_came);
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
