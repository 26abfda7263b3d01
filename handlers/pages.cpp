// The GET pages of the site.
#include "render/pages.h"

#include <algorithm>

#include "auth/log_signing.h"
#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "middleware/page_answers.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "middleware/sessions.h"
#include "render/feeds.h"
#include "transport/cache_policy.h"

namespace verdict::handlers {

namespace {

// How many items one page of a list shows: directories are tables of short rows; reviews and
// comparisons are longer items.
constexpr int kDirectoryPageSize = 20;
constexpr int kItemsPageSize = 20;
// The front page's share of each list, and the most tools a picker offers as a list.
constexpr int kFrontPageItems = 10;
constexpr int kPickerLimit = 100;
// The newest comparisons a category's first page shows above its tools.
constexpr int kCategoryComparisons = 10;

// A directory: one page of a list `read` from the store, rendered by `render`.
template <class Read, class Render>
void show_directory(App &app, const Request &req, Response &res, Read read, Render render) {
  const auto span = list_page(app, req, res, kDirectoryPageSize);
  if (!span) return;
  const auto list = read(*span);
  if (past_the_end(app, res, *span, list.items.empty())) return;
  send_html(res, render(list));
}

} // namespace

// GET / — latest published comparisons, the first tools, the panel and the newsletter form;
// each list links to its directory when it holds more.
void show_home(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  pages::HomeData data{site.site_copy(), site.published_comparisons({1, kFrontPageItems}),
                       site.tools_by_name({1, kFrontPageItems}),
                       site.reviewers({1, kFrontPageItems})};
  send_html(res, pages::home(app.views, data));
}

// GET /comparisons — every published comparison, newest first.
//   page=N   optional, from 1
void show_comparisons(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &) {
  show_directory(
      app, req, res, [&](PageSpan span) { return site.published_comparisons(span); },
      [&](const auto &list) { return pages::comparisons(app.views, list, site.site_copy()); });
}

namespace {

// Three or four tools an address names side by side (/compare/a-vs-b-vs-c[-vs-d]), in its
// canonical order (by slug; any other order is a 301 to it), or a 404 naming each slug that is
// no tool's, or that names one tool twice. False when the address names no three or four.
bool answer_side_by_side(App &app, StoreReads &site, Response &res, std::string_view address) {
  const auto lookup = site.side_by_side(address);
  const auto listed = [](const std::vector<std::string> &slugs) {
    std::string said;
    for (const auto &slug : slugs)
      said += (said.empty() ? "" : ", ") + slug;
    return said;
  };
  if (!lookup.repeated.empty()) {
    page_not_found(app, res,
                   "This address names " + listed(lookup.repeated) +
                       " more than once: name each tool once, three or four of them.");
    return true;
  }
  if (!lookup.unknown.empty()) {
    page_not_found(app, res,
                   "No tool of this site has the address " + listed(lookup.unknown) +
                       ": each part of /compare/a-vs-b-vs-c must be a tool's.");
    return true;
  }
  if (!lookup.found) return false;
  std::vector<std::string> slugs;
  for (const auto &tool : lookup.found->tools)
    slugs.push_back(tool.slug);
  auto canonical = slugs;
  std::sort(canonical.begin(), canonical.end());
  if (canonical != slugs) {
    moved_permanently(res, "/compare/" + joined_slugs(canonical));
    return true;
  }
  send_html(res, pages::side_by_side(app.views, *lookup.found, site.site_copy()));
  return true;
}

} // namespace

// GET /compare/:pair — the comparison page for "<a>-vs-<b>".
//   The reverse of a published pair, or of a never-published pair's alphabetical order,
//   answers 301 to the one canonical address.
//   page=N   optional: the scorecard's page when the tools have many reviews
std::optional<pages::PersonalPage> show_comparison(App &app, StoreReads &site, const Request &req,
                                                   Response &res, const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto span = list_page(app, req, res, kItemsPageSize);
  if (!span) return std::nullopt;
  const auto detail = site.comparison_detail(pair, *span);
  if (!detail) {
    if (!answer_side_by_side(app, site, res, pair)) answer_unknown_pair(app, res, pair);
    return std::nullopt;
  }
  if (past_the_end(app, res, *span, detail->reviews_a.empty() && detail->reviews_b.empty()))
    return std::nullopt;
  const auto &c = detail->comparison;
  if (!detail->canonical_order) {
    moved_permanently(res, "/compare/" + pair_slug(c.b.slug, c.a.slug));
    return std::nullopt;
  }
  return pages::comparison_page(app.views, *detail, site.site_copy(), app.today(),
                                vote_tokens_for(app, c));
}

// GET /compare?a=:slug&b=:slug[&c=:slug[&d=:slug]] — the "compare with…" form; redirects to
// the pair's page, or to the three or four side by side (an empty c or d is none).
void pick_comparison(App &app, StoreReads &, const Request &req, Response &res,
                     const UrlCaptures &) {
  std::vector<std::string> slugs;
  for (const auto *field : {"a", "b", "c", "d"}) {
    const auto slug = req.get_param_value(field);
    if (slug.empty() && slugs.size() >= 2) continue;
    if (!is_valid_slug(slug))
      return send_error(
          app, res, 400, "Pick two to four tools",
          std::string("The compare form needs tools a and b, and may take c and d; ") + field +
              " is not a tool's address.");
    if (std::find(slugs.begin(), slugs.end(), slug) != slugs.end())
      return send_error(app, res, 400, "Pick different tools",
                        "The compare form names " + slug + " twice: pick each tool once.");
    slugs.push_back(slug);
  }
  // Three or four in their page's own order, so the form's answer needs no second redirect.
  if (slugs.size() > 2) std::sort(slugs.begin(), slugs.end());
  see_other(res, "/compare/" + joined_slugs(slugs));
}

// GET /tools — the directory of every tool (domain/directory.h).
//   sort=name|panel|readers|newest                  optional, by name when absent
//   category=SLUG, pricing=Free|Paid|Freemium|Open weights   optional filters
//   page=N                                          optional, from 1
void show_tools(App &app, StoreReads &site, const Request &req, Response &res,
                const UrlCaptures &) {
  std::string problem;
  for (const auto *field : kDirectoryFields)
    if (req.get_param_value_count(field) > 1) problem = std::string(field) + " is given twice";
  const auto query = problem.empty() ? directory_query(req.get_param_value("sort"),
                                                       req.get_param_value("category"),
                                                       req.get_param_value("pricing"), problem)
                                     : std::nullopt;
  if (!query)
    return send_error(app, res, 400, "Not a way to list the tools",
                      "The tools directory cannot list them that way: " + problem + ".");
  const auto categories = site.categories_with_tool_counts();
  if (!query->category.empty() &&
      std::none_of(categories.begin(), categories.end(), [&](const CategoryListing &listing) {
        return listing.category.slug == query->category;
      }))
    return page_not_found(app, res, "There is no category " + query->category + " to list.");
  show_directory(
      app, req, res,
      [&](PageSpan span) {
        return query->is_default() ? site.tools_by_name(span) : site.tool_directory(*query, span);
      },
      [&](const auto &list) {
        return pages::tools(app.views, list, *query, categories, site.site_copy());
      });
}

// GET /tools/:slug — one tool: its card, pricing, its reviews and its comparisons.
//   page=N   optional: pages the reviews and the comparisons together
std::optional<pages::PersonalPage> show_tool(App &app, StoreReads &site, const Request &req,
                                             Response &res, const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto span = list_page(app, req, res, kItemsPageSize);
  if (!span) return std::nullopt;
  const auto detail = site.tool_detail(slug, *span, kPickerLimit);
  if (!detail) {
    answer_unknown_tool(app, res, slug);
    return std::nullopt;
  }
  if (past_the_end(app, res, *span,
                   detail->reviews.items.empty() && detail->comparisons.items.empty()))
    return std::nullopt;
  return pages::tool_page(app.views, *detail, site.site_copy(), app.today(),
                          vote_token_for(app, detail->tool));
}

// GET /tools/:slug/alternatives — the tools it has been compared with or shares a category
// with, ranked by readers' head-to-head picks (domain/alternatives.h).
void show_alternatives(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url) {
  const std::string &slug = url[0];
  if (refuse_other_pages(app, req, res)) return;
  const auto data = site.alternatives(slug, kMostAlternatives);
  if (!data) return answer_unknown_tool(app, res, slug, "/alternatives");
  send_html(res, pages::alternatives(app.views, rank_alternatives(*data), site.site_copy()));
}

// GET /methodology — how the numbers are made, each persona's ship rate, what the site never does.
void show_methodology(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  send_html(res, pages::methodology(app.views, site.reviewers(), site.site_copy()));
}

// GET /transparency — the vote log's latest checkpoint, its public key and how to check.
void show_transparency(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  send_html(res, pages::transparency(app.views, site.latest_checkpoint(), site.vote_log_size(),
                                     auth::public_key_of(app.log_signing_key), site.site_copy()));
}

// GET /receipts — the reader's own votes' receipts, from their voter cookie: private to them.
void show_receipts(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &) {
  const auto voter = voter_of(app, req);
  const auto receipts = voter.empty() ? std::vector<VoteReceipt>{} : site.vote_receipts(voter);
  send_html(res, pages::receipts(app.views, receipts, site.latest_checkpoint(), site.site_copy()));
  res.set_header("Vary", "Cookie");
  set_cache_policy(res, CachePolicy::personal_page);
}

// GET /categories — every category, with how many tools each holds.
void show_categories_page(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  send_html(res,
            pages::categories(app.views, site.categories_with_tool_counts(), site.site_copy()));
}

// GET /categories/:slug — the newest comparisons of its tools, then the tools, by name.
//   page=N   optional, from 1
void show_category(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto span = list_page(app, req, res, kDirectoryPageSize);
  if (!span) return;
  const auto category = site.category_by_slug(slug);
  if (!category)
    return answer_unknown_slug(app, res, "category", slug, "/categories/", "",
                               "There is no category with this address.");
  const auto tools = site.tools_in_category(slug, *span);
  if (past_the_end(app, res, *span, tools.items.empty())) return;
  // The newest comparisons of its tools head the first page; the later pages list tools only.
  const auto comparisons = span->number == 1
                               ? site.comparisons_in_category(slug, kCategoryComparisons)
                               : std::vector<ComparisonSummary>{};
  send_html(res, pages::category(app.views, *category, tools, comparisons, site.site_copy()));
}

// GET /reviewers — the panel, in panel order.
//   page=N   optional, from 1
void show_reviewers(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &) {
  show_directory(
      app, req, res, [&](PageSpan span) { return site.reviewers(span); },
      [&](const auto &list) { return pages::reviewers(app.views, list, site.site_copy()); });
}

// GET /reviewers/:slug — one reviewer persona, their ship rate and their reviews by tool name.
//   page=N   optional, from 1
void show_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto span = list_page(app, req, res, kItemsPageSize);
  if (!span) return;
  const auto reviewer = site.reviewer_by_slug(slug);
  if (!reviewer) return answer_unknown_reviewer(app, res, slug);
  const auto reviews = site.reviews_by_reviewer(reviewer->id, *span);
  if (past_the_end(app, res, *span, reviews.items.empty())) return;
  send_html(res, pages::reviewer(app.views, *reviewer, reviews, site.site_copy()));
}

// GET /search — full-text search over tools and the panel's quotes, best match first; no
// text, or only spaces, is the form alone. Not kept in the shared page cache, which is keyed
// by path and page: there a key for every text anyone sends would push out every page.
//   q=TEXT    optional: the words to find, at most 200 characters
//   as=typed  optional: the words as typed, no typo forgiven (the link under "Showing
//             results for …")
//   page=N    optional, from 1
void show_search(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &) {
  const auto span = list_page(app, req, res, kItemsPageSize);
  if (!span) return;
  const auto search = parse_search_text(param_values(req, "q"));
  if (!search.ok()) return send_error(app, res, 400, "Search text refused", search.error);
  const auto as = parse_search_as(param_values(req, "as"));
  if (!as)
    return send_error(app, res, 400, "Search refused",
                      "The address's as= takes one value, typed (the words as typed, no typo "
                      "forgiven), or none.");
  // The same for every reader (no Vary: Cookie) and as fresh as the other pages.
  set_cache_policy(res, CachePolicy::anonymous_page);
  // Kept for the page epoch: asking again what anyone asked costs no search.
  const auto key =
      std::to_string(span->number) + (*as == SearchAs::typed ? " typed " : " ") + search.text;
  send_kept_html(app, app.search_pages, key, res, [&]() -> std::optional<std::string> {
    const auto results = site.search(search.text, *span, *as);
    if (past_the_end(app, res, *span, results.hits.items.empty())) return std::nullopt;
    return pages::search(app.views, search.text, *as, results, site.site_copy(), kItemsPageSize);
  });
}

// GET /subscribe — the weekly digest's sign-up form on a page of its own (handlers/newsletter.cpp
// takes what it sends).
void show_subscribe_form(App &app, StoreReads &site, const Request &req, Response &res,
                         const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  send_html(res, pages::subscribe(app.views, site.site_copy()));
}

// GET /healthz — 200 "ok" when the database answers and can take a write (and, on a node of a
// cluster, the stream takes writes and the node keeps up with it); otherwise 503 and what is
// wrong, for the owner's monitor and a balancer.
void show_health(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::never_kept);
  site.schema_version();
  auto problem = site.health_problem();
  if (problem.empty() && app.cluster_problem) problem = app.cluster_problem();
  if (!problem.empty()) {
    res.status = 503;
    return res.set_content("unhealthy: " + problem + "\n", "text/plain; charset=utf-8");
  }
  res.set_content("ok\n", "text/plain; charset=utf-8");
}

// GET /static/:file — compiled-in files under content-hashed names, cacheable forever.
void show_static(App &app, StoreReads &, const Request &req, Response &res, const UrlCaptures &) {
  const auto *asset = app.views.asset_at(req.path);
  if (!asset) return page_not_found(app, res, "There is no such file.");
  set_cache_policy(res, CachePolicy::immutable);
  res.set_content(std::string(asset->bytes), asset->content_type.c_str());
}

namespace {

// The site's public address: the configured one, else the one this request was sent to.
std::string public_base(App &app, StoreReads &, const Request &req) {
  if (!app.views.base_url().empty()) return app.views.base_url();
  const auto host = req.get_header_value("Host");
  return std::string(came_over_https(app, req) ? "https://" : "http://") +
         (is_plain_host(host) ? host : "127.0.0.1");
}

} // namespace

// GET /robots.txt — everything but the desk may be crawled; where the sitemap is.
void show_robots(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::revalidated);
  res.set_content("User-agent: *\nDisallow: /admin\n\nSitemap: " + public_base(app, site, req) +
                      "/sitemap.xml\n",
                  "text/plain; charset=utf-8");
}

// GET /sitemap.xml — every published comparison, tool and reviewer, and the lists.
void show_sitemap(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::revalidated);
  res.set_content(pages::sitemap(app.views, public_base(app, site, req), site.sitemap_entries()),
                  "application/xml; charset=utf-8");
}

namespace {

// How many entries a feed holds: the newest. A feed reader keeps what it has already seen.
constexpr int kFeedEntries = 20;

void send_feed(Response &res, std::string xml) {
  res.set_content(std::move(xml), "application/atom+xml; charset=utf-8");
}

} // namespace

// GET /feed.xml — the newest published comparisons, as an Atom feed.
void show_feed(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &) {
  if (refuse_other_pages(app, req, res)) return;
  send_feed(res, feeds::site_feed(app.views, public_base(app, site, req),
                                  site.latest_comparisons_feed(kFeedEntries), site.site_copy()));
}

// GET /transparency/feed.xml — the vote log's latest checkpoints, as an Atom feed.
void show_checkpoint_feed(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &) {
  send_feed(res, feeds::checkpoint_feed(
                     app.views, public_base(app, site, req), site.latest_checkpoints(kFeedEntries),
                     auth::public_key_of(app.log_signing_key), site.site_copy()));
}

// GET /tools/:slug/feed.xml — the newest published comparisons the tool is in, as an Atom
// feed. Reviews carry no date, so they are not entries of their own.
void show_tool_feed(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &url) {
  const std::string &slug = url[0];
  if (refuse_other_pages(app, req, res)) return;
  const auto feed = site.tool_feed(slug, kFeedEntries);
  if (!feed) return answer_unknown_tool(app, res, slug, "/feed.xml");
  send_feed(res, feeds::tool_feed(app.views, public_base(app, site, req), *feed, site.site_copy()));
}

// GET /reviewers/:slug/feed.xml — the newest published comparisons of a tool the reviewer
// reviewed, each with what they said of its two tools, as an Atom feed.
void show_reviewer_feed(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url) {
  const std::string &slug = url[0];
  if (refuse_other_pages(app, req, res)) return;
  const auto feed = site.reviewer_feed(slug, kFeedEntries);
  if (!feed) return answer_unknown_reviewer(app, res, slug, "/feed.xml");
  send_feed(res,
            feeds::reviewer_feed(app.views, public_base(app, site, req), *feed, site.site_copy()));
}

// GET /favicon.ico — browsers ask for it by that name; the icon is the site's SVG.
void show_favicon(App &app, StoreReads &, const Request &, Response &res, const UrlCaptures &) {
  moved_permanently(res, app.views.public_path("favicon.svg"));
}

// GET /metrics — Prometheus' text format: requests by route and status and their latency,
// the reactors' own answers, votes standing, the page cache and the database's size. The
// desk's routes only for the owner (metrics_audience); a wrong bearer token is a 401.
//   Authorization: Bearer TOKEN   OPTIONAL
void show_metrics(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::never_kept);
  const auto audience = metrics_audience(app, req);
  if (!audience) {
    res.status = 401;
    res.set_header("WWW-Authenticate", "Bearer");
    return res.set_content("The bearer token is not this site's metrics token (--metrics-token); "
                           "without one, /metrics shows readers' figures only.\n",
                           "text/plain; charset=utf-8");
  }
  const auto figures = site.figures();
  auto text = app.request_metrics.prometheus_text(*audience);
  if (app.transport_figures) text += app.transport_figures();
  text += prometheus_sample("verdict_tool_votes", "gauge", "Ship or skip votes counted now.",
                            static_cast<double>(figures.tool_votes));
  text += prometheus_sample("verdict_pair_picks", "gauge", "Head-to-head picks counted now.",
                            static_cast<double>(figures.pair_picks));
  text += prometheus_sample("verdict_tool_votes_set_aside", "gauge",
                            "Ship or skip votes stored but set aside by the counting rule.",
                            static_cast<double>(figures.tool_votes_set_aside));
  text += prometheus_sample("verdict_pair_picks_set_aside", "gauge",
                            "Head-to-head picks stored but set aside by the counting rule.",
                            static_cast<double>(figures.pair_picks_set_aside));
  text += prometheus_sample("verdict_database_reads_total", "counter",
                            "Reads of the database: one per page rendered, none for a kept page.",
                            static_cast<double>(site.reads_taken()));
  text += prometheus_sample("verdict_page_cache_bytes", "gauge", "Rendered pages kept for readers.",
                            static_cast<double>(app.cache.bytes()));
  text += prometheus_sample("verdict_card_images_bytes", "gauge",
                            "Share cards drawn as PNG and kept until they change.",
                            static_cast<double>(app.card_images.bytes()));
  text += prometheus_sample("verdict_database_bytes", "gauge",
                            "The database file and its write-ahead log.",
                            static_cast<double>(figures.database_bytes));
  res.set_content(text, "text/plain; version=0.0.4; charset=utf-8");
}

} // namespace verdict::handlers
