// Queries shared by several store files, run on a connection the caller already holds so a
// page's reads share one connection. Internal to store/.
#pragma once

#include "domain/model.h"
#include "store/sqlite.h"

namespace verdict::queries {

std::optional<Tool> tool_by_slug(sql::Db &db, std::string_view slug);
std::vector<Review> reviews_of_tool(sql::Db &db, int64_t tool_id);

} // namespace verdict::queries
