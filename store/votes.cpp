// Reader votes: ship/skip on a tool and head-to-head picks on a pair. Each vote is an upsert
// against a UNIQUE key in the writer's transaction (never check-then-insert), and triggers in
// schema.sql keep the tallies the pages read.
#include <algorithm>

#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {
const char *verdict_text(Verdict verdict) {
  return verdict == Verdict::ship ? "ship" : "skip";
}

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

std::optional<Verdict> Store::tool_vote_of(std::string_view voter, int64_t tool_id) {
  return read([&](sql::Db &db) {
    auto stmt =
        db.cached("SELECT verdict FROM tool_votes WHERE voter = :voter AND tool_id = :tool");
    stmt.bind(":voter", voter).bind(":tool", tool_id);
    return stmt.step() ? verdict_of(stmt, 0) : std::nullopt;
  });
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

} // namespace verdict
