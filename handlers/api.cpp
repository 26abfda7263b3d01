// The read-only JSON API (render/api.h). Kept and given again like the pages (transport's
// page cache, ETags and 304s), readable from any site (CORS), never a write.
#include "render/api.h"
#include "handlers/handlers.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"

namespace verdict::handlers {

namespace {

constexpr int kApiPageSize = 100;

void json_not_found(Response &res, const std::string &message) {
  send_json(res, api::error(message), 404);
}

} // namespace

// GET /api/tools — every tool by name, 100 a page.   page=N
void api_tools(App &, StoreReads &site, const Request &req, Response &res, const UrlCaptures &) {
  const auto number = requested_page(req);
  if (!number) return send_json(res, api::error("page must be a whole number from 1"), 400);
  const auto tools = site.tools_by_name({*number, kApiPageSize});
  if (*number > 1 && tools.items.empty()) return json_not_found(res, "there is no such page");
  send_json(res, api::tools(tools, site.vote_log_size()));
}

// GET /api/comparisons — the published comparisons, newest first, 100 a page.   page=N
void api_comparisons(App &, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &) {
  const auto number = requested_page(req);
  if (!number) return send_json(res, api::error("page must be a whole number from 1"), 400);
  const auto comparisons = site.published_comparisons({*number, kApiPageSize});
  if (*number > 1 && comparisons.items.empty()) return json_not_found(res, "there is no such page");
  send_json(res, api::comparisons(comparisons));
}

// GET /api/tools/:slug — one tool, its pricing read and its first page of reviews.
void api_tool(App &, StoreReads &site, const Request &, Response &res, const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto detail = site.tool_detail(slug, {1, kApiPageSize}, 0);
  if (!detail) {
    // Every address of a renamed tool follows it, the API's as its pages'.
    if (const auto renamed = site.renamed_slug("tool", slug))
      return moved_permanently(res, "/api/tools/" + *renamed);
    return json_not_found(res, "there is no tool with this address");
  }
  send_json(res, api::tool(*detail));
}

// GET /api/tools/:slug/alternatives — the alternatives page's ranking, as JSON.
void api_alternatives(App &, StoreReads &site, const Request &, Response &res,
                      const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto data = site.alternatives(slug, kMostAlternatives);
  if (!data) return json_not_found(res, "there is no tool with this address");
  send_json(res, api::alternatives(rank_alternatives(*data)));
}

// GET /api/compare/:pair — a pair, in the order its address names them.
void api_comparison(App &, StoreReads &site, const Request &, Response &res,
                    const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto detail = site.comparison_detail(pair, {1, kApiPageSize});
  if (!detail) {
    if (const auto renamed = site.pair_after_renames(pair))
      return moved_permanently(res, "/api/compare/" + *renamed);
    return json_not_found(res, "there is no comparison at this address");
  }
  send_json(res, api::comparison(*detail));
}

} // namespace verdict::handlers
