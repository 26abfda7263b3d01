// The read-only JSON API: the same numbers the pages show, for scripts and other sites.
// Shapes are documented in the README with curl examples; nlohmann_json writes them.
#pragma once

#include <string>

#include "domain/model.h"

namespace verdict::api {

// {"tools": [...], "page": N, "next": "/api/tools?page=N+1" or null}
std::string tools(const Paged<Tool> &tools);
// One tool with its pricing read and its reviews.
std::string tool(const ToolDetail &detail);
// A pair: both tools, the editor's record, the head-to-head picks and the verdict at a glance.
std::string comparison(const ComparisonDetail &detail);
// {"error": message}
std::string error(const std::string &message);

} // namespace verdict::api
