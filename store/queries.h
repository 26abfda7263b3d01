// Queries shared by several store files, run on a connection the caller already holds so a
// page's reads share one connection. Internal to store/.
#pragma once

#include "domain/model.h"
#include "store/sqlite.h"

namespace verdict::queries {

// The editor's record of a pair, in the editor's order.
struct PairRecord {
  int64_t a_id = 0, b_id = 0;
  std::string published_on; // empty when not published
  std::string intro;
};

// A pair address resolved to its two tools, in the address's order.
struct ResolvedPair {
  Comparison comparison;
  bool canonical_order = true; // false when the address names the pair the other way round
};

std::optional<Tool> tool_by_slug(sql::Db &db, std::string_view slug);
// Columns: tool slug, tool name, reviewer slug, name, lens, verdict, quote.
Review review_from_row(const sql::Stmt &row);
std::vector<Review> reviews_of_tool(sql::Db &db, int64_t tool_id);
std::optional<PairRecord> comparison_of_pair(sql::Db &db, int64_t x, int64_t y);
std::optional<ResolvedPair> resolve_pair(sql::Db &db, std::string_view pair_slug);
PairTally pair_tally(sql::Db &db, int64_t a_id, int64_t b_id);
VoterChoices voter_choices(sql::Db &db, std::string_view voter, int64_t a_id, int64_t b_id);

} // namespace verdict::queries
