// Reader votes: ship/skip on a tool and head-to-head picks on a pair. Each vote is an upsert
// against a UNIQUE key in the writer's transaction (never check-then-insert), and triggers in
// schema.sql keep the tallies the pages read.
#include <algorithm>
#include <functional>

#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {
const char *verdict_text(Verdict verdict) {
  return verdict == Verdict::ship ? "ship" : "skip";
}

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
  return row.text(column) == "ship" ? Verdict::ship : Verdict::skip;
}
} // namespace

PairTally queries::pair_tally(sql::Db &db, int64_t a_id, int64_t b_id) {
  auto stmt = db.cached("SELECT low_picks, high_picks FROM pair_tallies "
                        "WHERE low_tool_id = :low AND high_tool_id = :high");
  stmt.bind(":low", std::min(a_id, b_id)).bind(":high", std::max(a_id, b_id));
  if (!stmt.step()) return PairTally{};
  const auto low = stmt.int64(0), high = stmt.int64(1);
  return a_id < b_id ? PairTally{low, high} : PairTally{high, low};
}

VoterChoices queries::voter_choices(sql::Db &db, std::string_view voter, int64_t a_id,
                                    int64_t b_id) {
  auto stmt =
      db.cached("SELECT (SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :a), "
                "(SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :b), "
                "(SELECT pick_tool_id FROM pair_votes WHERE voter = :voter "
                " AND low_tool_id = min(:a, :b) AND high_tool_id = max(:a, :b))");
  stmt.bind(":voter", voter).bind(":a", a_id).bind(":b", b_id);
  stmt.step();
  VoterChoices choices{verdict_of(stmt, 0), verdict_of(stmt, 1), std::nullopt};
  if (!stmt.is_null(2)) choices.pick = stmt.int64(2);
  return choices;
}

PairTally Store::pair_tally(int64_t a_id, int64_t b_id) {
  return read([&](sql::Db &db) { return queries::pair_tally(db, a_id, b_id); });
}

VoterChoices Store::voter_choices(std::string_view voter, int64_t a_id, int64_t b_id) {
  return read([&](sql::Db &db) { return queries::voter_choices(db, voter, a_id, b_id); });
}

std::optional<Verdict> queries::tool_vote_of(sql::Db &db, std::string_view voter, int64_t tool_id) {
  auto stmt = db.cached("SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :tool");
  stmt.bind(":voter", voter).bind(":tool", tool_id);
  return stmt.step() ? verdict_of(stmt, 0) : std::nullopt;
}

std::optional<Verdict> Store::tool_vote_of(std::string_view voter, int64_t tool_id) {
  return read([&](sql::Db &db) { return queries::tool_vote_of(db, voter, tool_id); });
}

void Store::cast_tool_vote(std::string_view voter, int64_t tool_id,
                           std::optional<Verdict> verdict) {
  std::string voter_id(voter);
  write([=](sql::Db &db) {
    if (!verdict) {
      auto stmt = db.cached("DELETE FROM tool_votes WHERE voter = :voter AND tool_id = :tool");
      stmt.bind(":voter", voter_id).bind(":tool", tool_id).run();
      return;
    }
    auto stmt = db.cached("INSERT INTO tool_votes (voter, tool_id, verdict) "
                          "VALUES (:voter, :tool, :verdict) "
                          "ON CONFLICT (voter, tool_id) DO UPDATE SET verdict = excluded.verdict, "
                          "cast_at = excluded.cast_at WHERE verdict <> excluded.verdict");
    stmt.bind(":voter", voter_id).bind(":tool", tool_id).bind(":verdict", verdict_text(*verdict));
    stmt.run();
  });
}

void Store::cast_pair_vote(std::string_view voter, int64_t a_id, int64_t b_id,
                           std::optional<int64_t> pick) {
  std::string voter_id(voter);
  write([=](sql::Db &db) {
    const auto low = std::min(a_id, b_id), high = std::max(a_id, b_id);
    if (!pick) {
      auto stmt = db.cached("DELETE FROM pair_votes WHERE voter = :voter "
                            "AND low_tool_id = :low AND high_tool_id = :high");
      stmt.bind(":voter", voter_id).bind(":low", low).bind(":high", high).run();
      return;
    }
    auto stmt = db.cached("INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id) "
                          "VALUES (:voter, :low, :high, :pick) "
                          "ON CONFLICT (voter, low_tool_id, high_tool_id) DO UPDATE "
                          "SET pick_tool_id = excluded.pick_tool_id, cast_at = excluded.cast_at "
                          "WHERE pick_tool_id <> excluded.pick_tool_id");
    stmt.bind(":voter", voter_id).bind(":low", low).bind(":high", high).bind(":pick", *pick);
    stmt.run();
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
    stmt.bind(":verdict", vote.ship ? "ship" : "skip").bind(":at", vote.cast_at).run();
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
