// The read-only JSON API: the same numbers the pages show, for scripts and other sites.
// Shapes are documented in docs/PAGES.md ("The JSON API") with curl examples; nlohmann_json
// writes them.
#pragma once

#include <cstdint>
#include <string>

#include "domain/alternatives.h"
#include "domain/model.h"

namespace verdict::api {

// Answers with community numbers name, for each tool or pair, the vote log's target it is
// counted under ("log_target": "tool:12", "pair:3-7"), and say how many of the log's entries
// there were when they were read ("vote_log_size"): the numbers are exactly what replaying that
// many entries gives (domain/tallies.h), so `verdict verify` can check them while votes arrive.

// {"tools": [...], "page": N, "next": "/api/tools?page=N+1" or null, "vote_log_size": N}
std::string tools(const Paged<Tool> &tools, uint64_t vote_log_size);
// {"comparisons": [{"url", "api", "a", "b", "published_on"}...], "page": N, "next": ...}: the
// published comparisons, newest first.
std::string comparisons(const Paged<ComparisonSummary> &comparisons);
// One tool with its pricing read and its reviews.
std::string tool(const ToolDetail &detail);
// A tool's alternatives in their ranking: each tool's summary with its tier, its strength in
// readers' head-to-head picks ({"chance", "low", "high", "picks"}: the Bradley–Terry fit's
// chance of being picked over an average one, with its 95% interval), the panel's ship rate's
// Wilson lower bound, the picks between the two and the pair's address.
std::string alternatives(const RankedAlternatives &ranked);
// A pair: both tools, the editor's record, the head-to-head picks and the verdict at a glance.
std::string comparison(const ComparisonDetail &detail);
// {"error": message}
std::string error(const std::string &message);

} // namespace verdict::api
