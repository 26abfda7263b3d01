// The GET pages of the site.
#include "render/pages.h"
#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "handlers/responses.h"

namespace verdict::handlers {

namespace {
void page_not_found(App &app, Response &res, const std::string &what) {
  send_error(app, res, 404, "Not found", what);
}
} // namespace

// GET / — latest published comparisons, the tools, the panel and the newsletter form.
void show_home(App &app, const Request &, Response &res) {
  pages::HomeData data{app.store.site_copy(), app.store.published_comparisons(20),
                       app.store.tools_by_name(), app.store.reviewers()};
  send_html(res, pages::home(app.views, data));
}

// GET /compare/:pair — the comparison page for "<a>-vs-<b>".
//   The reverse of a published pair, or of a never-published pair's alphabetical order,
//   answers 301 to the one canonical address.
void show_comparison(App &app, const Request &req, Response &res, std::string_view pair) {
  const auto detail = app.store.comparison_detail(pair, voter_of(req));
  if (!detail)
    return page_not_found(app, res,
                          "There is no comparison at this address: it does not name "
                          "two different tools of this site.");
  const auto &c = detail->comparison;
  if (!detail->canonical_order)
    return moved_permanently(res, "/compare/" + pair_slug(c.b.slug, c.a.slug));
  send_html(res, pages::comparison(app.views, *detail, app.store.site_copy(), app.today()));
}

// GET /compare?a=:slug&b=:slug — the "compare with…" form; redirects to the pair's page.
void pick_comparison(App &app, const Request &req, Response &res) {
  const auto a = req.get_param_value("a"), b = req.get_param_value("b");
  if (!is_valid_slug(a) || !is_valid_slug(b) || a == b)
    return send_error(app, res, 400, "Pick two different tools",
                      "The compare form needs two different tools, a and b.");
  see_other(res, "/compare/" + pair_slug(a, b));
}

// GET /tools — the directory of every tool.
void show_tools(App &app, const Request &, Response &res) {
  send_html(res, pages::tools(app.views, app.store.tools_by_name(), app.store.site_copy()));
}

// GET /tools/:slug — one tool: its card, pricing, every review and its comparisons.
void show_tool(App &app, const Request &req, Response &res, std::string_view slug) {
  const auto detail = app.store.tool_detail(slug, voter_of(req));
  if (!detail) return page_not_found(app, res, "There is no tool with this address.");
  send_html(res, pages::tool(app.views, *detail, app.store.site_copy(), app.today()));
}

// GET /reviewers — the panel.
void show_reviewers(App &app, const Request &, Response &res) {
  send_html(res, pages::reviewers(app.views, app.store.reviewers(), app.store.site_copy()));
}

// GET /reviewers/:slug — one reviewer persona, their ship rate and every review.
void show_reviewer(App &app, const Request &, Response &res, std::string_view slug) {
  const auto reviewer = app.store.reviewer_by_slug(slug);
  if (!reviewer) return page_not_found(app, res, "There is no reviewer with this address.");
  send_html(res, pages::reviewer(app.views, *reviewer, app.store.reviews_by_reviewer(reviewer->id),
                                 app.store.site_copy()));
}

// GET /subscribed — where the newsletter form lands.
void show_subscribed(App &app, const Request &, Response &res) {
  const auto site = app.store.site_copy();
  send_html(res, pages::message(app.views, site, site.newsletter_title, "You're on the list",
                                "The next comparison will reach your inbox. You can unsubscribe "
                                "from any issue with one click."));
}

// GET /healthz — 200 "ok" when the database answers and can take a write; otherwise 503 and
// what is wrong, for the owner's monitor.
void show_health(App &app, const Request &, Response &res) {
  res.set_header("Cache-Control", "no-store");
  app.store.schema_version();
  if (const auto problem = app.store.health_problem(); !problem.empty()) {
    res.status = 503;
    return res.set_content("unhealthy: " + problem + "\n", "text/plain; charset=utf-8");
  }
  res.set_content("ok\n", "text/plain; charset=utf-8");
}

// GET /static/:file — compiled-in files under content-hashed names, cacheable forever.
void show_static(App &app, const Request &req, Response &res) {
  const auto *asset = app.views.asset_at(req.path);
  if (!asset) return page_not_found(app, res, "There is no such file.");
  res.set_header("Cache-Control", "public, max-age=31536000, immutable");
  res.set_content(std::string(asset->bytes), asset->content_type.c_str());
}

// Any other address.
void show_not_found(App &app, const Request &, Response &res) {
  page_not_found(app, res,
                 "Nothing lives at this address. The comparisons, tools and reviewers "
                 "are linked from the front page.");
}

} // namespace verdict::handlers
