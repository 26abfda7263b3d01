// The one route table: reading this file tells the whole HTTP surface of Verdict. What wraps
// every page and every write (caching, same-origin and rate-limit checks, error pages) lives
// in middleware/guards.h.
#include "handlers/routes.h"

#include <algorithm>
#include <regex>

#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "middleware/guards.h"

namespace verdict {

namespace {

// Who runs a route's handler. A worker, unless the handler makes its answer at once, never
// waiting on the disk or the network: a vote reads what it needs from memory or one indexed
// row, queues its write and leaves its answer held until the write is durable
// (middleware/responses.h answer_once_written). The reactor that read such a request runs it
// itself (transport/connection_server.h answer_on_reactor), sparing two thread switches.
enum class RunBy { worker, reactor };

struct Route {
  const char *method; // GET (HEAD follows it) or POST
  std::string pattern;
  httplib::Server::Handler handler;
  RunBy run_by = RunBy::worker;
};

// A slug-shaped part of an address of at most `length` bytes, as one capture: the length is
// domain/slugs.h's, so a name longer than any slug (or pair of slugs) finds no route.
std::string slug_capture(size_t length) {
  return "([a-z0-9-]{1," + std::to_string(length) + "})";
}

std::vector<Route> route_table(App &app) {
  using namespace handlers;
  using namespace guards;
  const std::string slug = slug_capture(kMaxSlugLength);
  const std::string review = slug_capture(kMaxReviewKeyLength); // a review's tool--reviewer
  const std::string pair = slug_capture(kMaxPairSlugLength);    // a comparison's a-vs-b
  // A comparison's page may name three or four tools side by side: a-vs-b-vs-c[-vs-d].
  const std::string compared = slug_capture(kMaxSideBySideLength);
  // The weekly digest's links (auth/mail_tokens.h): a confirmation token, an unsubscribe one.
  const std::string confirm_token = "([0-9a-f]{64})";
  const std::string unsubscribe_token = "([1-9][0-9]{0,17}-[0-9a-f]{32})";
  // A route no guard wraps: the handler sees the request as it came, and reads one moment.
  const auto plain = [&app](Page handler) {
    return [&app, handler](const httplib::Request &req, httplib::Response &res) {
      StoreMoment site(app.store);
      handler(app, site, req, res, UrlCaptures(req));
    };
  };
  // A link that writes when followed (a digest's unsubscribe link): no guard either, and its
  // reads each fresh, never a moment held open while its write is made.
  const auto link_write = [&app](Page handler) {
    return [&app, handler](const httplib::Request &req, httplib::Response &res) {
      handler(app, app.store, req, res, UrlCaptures(req));
    };
  };
  return {
      {"GET", "/", page(app, show_home)},
      {"GET", "/feed\\.xml", absolute_page(app, show_feed)},
      {"GET", "/comparisons", page(app, show_comparisons)},
      {"GET", "/compare", plain(pick_comparison)},
      {"GET", "/compare/" + compared, voter_page(app, show_comparison)},
      {"POST", "/compare/" + pair + "/vote", vote_write(app, vote_on_pair, "votes"),
       RunBy::reactor},
      {"GET", "/compare/" + pair + "/card\\.svg", page(app, show_comparison_card)},
      {"GET", "/compare/" + pair + "/card\\.png",
       costly(app, page(app, show_comparison_card_png), "card images")},
      {"GET", "/compare/" + pair + "/badge\\.svg", page(app, show_pair_badge)},
      {"GET", "/tools", page(app, show_tools)},
      {"GET", "/tools/" + slug, voter_page(app, show_tool)},
      {"POST", "/tools/" + slug + "/vote", vote_write(app, vote_on_tool, "votes"), RunBy::reactor},
      {"GET", "/tools/" + slug + "/feed\\.xml", absolute_page(app, show_tool_feed)},
      {"GET", "/tools/" + slug + "/badge\\.svg", page(app, show_tool_badge)},
      {"GET", "/tools/" + slug + "/alternatives", page(app, show_alternatives)},
      {"GET", "/methodology", page(app, show_methodology)},
      {"GET", "/categories", page(app, show_categories_page)},
      {"GET", "/categories/" + slug, page(app, show_category)},
      {"GET", "/reviewers", page(app, show_reviewers)},
      {"GET", "/reviewers/" + slug, page(app, show_reviewer)},
      {"GET", "/reviewers/" + slug + "/feed\\.xml", absolute_page(app, show_reviewer_feed)},
      // Searches bypass the shared page cache (handlers/pages.cpp says why).
      {"GET", "/search", costly(app, plain(show_search), "searches")},
      {"GET", "/subscribe", page(app, show_subscribe_form)},
      {"POST", "/subscribe", form_write(app, subscribe, "sign-ups")},
      {"GET", "/subscribed", plain(show_subscribed)},
      {"GET", "/confirm/" + confirm_token, plain(show_confirmation)},
      {"POST", "/confirm/" + confirm_token, form_write(app, confirm_subscription, "confirmations")},
      {"GET", "/unsubscribe/" + unsubscribe_token, link_write(unsubscribe_by_link)},
      {"POST", "/unsubscribe/" + unsubscribe_token, one_click_write(app, unsubscribe_one_click)},
      {"POST", "/unsubscribe/" + unsubscribe_token + "/undo",
       form_write(app, undo_unsubscribe, "undo requests")},
      {"GET", "/admin/login", plain(show_sign_in)},
      {"POST", "/admin/login", form_write(app, sign_in, "sign-in attempts")},
      {"POST", "/admin/logout", admin_write(app, sign_out)},
      {"GET", "/admin", admin_page(app, show_desk)},
      {"GET", "/admin/log", admin_page(app, show_edit_log)},
      {"GET", "/admin/categories", admin_page(app, show_categories)},
      {"GET", "/admin/categories/new", admin_page(app, new_category)},
      {"POST", "/admin/categories", admin_write(app, save_category)},
      {"GET", "/admin/categories/" + slug, admin_page(app, edit_category)},
      {"POST", "/admin/categories/" + slug, admin_write(app, save_category)},
      {"GET", "/admin/categories/" + slug + "/delete", admin_page(app, confirm_category_deletion)},
      {"POST", "/admin/categories/" + slug + "/delete", admin_write(app, delete_category)},
      {"GET", "/admin/tools", admin_page(app, show_tools_at_desk)},
      {"GET", "/admin/tools/new", admin_page(app, new_tool)},
      {"POST", "/admin/tools", admin_write(app, save_tool)},
      {"GET", "/admin/tools/" + slug, admin_page(app, edit_tool)},
      {"POST", "/admin/tools/" + slug, admin_write(app, save_tool)},
      {"GET", "/admin/tools/" + slug + "/delete", admin_page(app, confirm_tool_deletion)},
      {"POST", "/admin/tools/" + slug + "/delete", admin_write(app, delete_tool)},
      {"GET", "/admin/reviewers", admin_page(app, show_reviewers_at_desk)},
      {"GET", "/admin/reviewers/new", admin_page(app, new_reviewer)},
      {"POST", "/admin/reviewers", admin_write(app, save_reviewer)},
      {"GET", "/admin/reviewers/" + slug, admin_page(app, edit_reviewer)},
      {"POST", "/admin/reviewers/" + slug, admin_write(app, save_reviewer)},
      {"GET", "/admin/reviewers/" + slug + "/delete", admin_page(app, confirm_reviewer_deletion)},
      {"POST", "/admin/reviewers/" + slug + "/delete", admin_write(app, delete_reviewer)},
      {"GET", "/admin/reviews", admin_page(app, show_reviews_at_desk)},
      {"GET", "/admin/reviews/new", admin_page(app, new_review)},
      {"POST", "/admin/reviews", admin_write(app, save_review)},
      {"GET", "/admin/reviews/" + review, admin_page(app, edit_review)},
      {"POST", "/admin/reviews/" + review, admin_write(app, save_review)},
      {"GET", "/admin/reviews/" + review + "/delete", admin_page(app, confirm_review_deletion)},
      {"POST", "/admin/reviews/" + review + "/delete", admin_write(app, delete_review)},
      {"GET", "/admin/comparisons", admin_page(app, show_comparisons_at_desk)},
      {"GET", "/admin/comparisons/new", admin_page(app, new_comparison)},
      {"POST", "/admin/comparisons", admin_write(app, save_comparison)},
      {"GET", "/admin/comparisons/" + pair, admin_page(app, edit_comparison)},
      {"POST", "/admin/comparisons/" + pair, admin_write(app, save_comparison)},
      {"GET", "/admin/comparisons/" + pair + "/preview", admin_page(app, preview_comparison)},
      {"POST", "/admin/preview/comparison", admin_write(app, preview_unsaved_comparison)},
      {"GET", "/admin/comparisons/" + pair + "/delete",
       admin_page(app, confirm_comparison_deletion)},
      {"POST", "/admin/comparisons/" + pair + "/delete", admin_write(app, delete_comparison)},
      {"GET", "/admin/subscribers", admin_page(app, show_subscribers)},
      {"GET", "/admin/subscribers\\.csv", admin_page(app, export_subscribers)},
      {"GET", "/admin/subscribers/([0-9]{1,18})/delete",
       admin_page(app, confirm_subscriber_erasure)},
      {"POST", "/admin/subscribers/([0-9]{1,18})/delete", admin_write(app, erase_subscriber)},
      {"GET", "/api/tools", api_read(app, api_tools)},
      {"GET", "/api/tools/" + slug, api_read(app, api_tool)},
      {"GET", "/api/tools/" + slug + "/alternatives", api_read(app, api_alternatives)},
      {"GET", "/api/comparisons", api_read(app, api_comparisons)},
      {"GET", "/api/compare/" + pair, api_read(app, api_comparison)},
      {"GET", "/transparency", page(app, show_transparency)},
      {"GET", "/transparency/feed\\.xml", absolute_page(app, show_checkpoint_feed)},
      {"GET", "/receipts", plain(show_receipts)},
      {"GET", "/transparency/checkpoint", api_read(app, transparency_checkpoint)},
      {"GET", "/transparency/log", api_query_read(app, transparency_log)},
      {"GET", "/transparency/proof", api_query_read(app, transparency_proof)},
      // Replayed from the whole vote log: kept per page epoch, and costly when it is not.
      {"GET", "/data/tallies\\.csv",
       costly(app, open_data_read(app, data_tallies_csv), "data downloads")},
      {"GET", "/data/tallies\\.json",
       costly(app, open_data_read(app, data_tallies_json), "data downloads")},
      {"GET", "/robots\\.txt", plain(show_robots)},
      {"GET", "/sitemap\\.xml", plain(show_sitemap)},
      {"GET", "/favicon\\.ico", plain(show_favicon)},
      {"GET", "/healthz", plain(show_health)},
      {"GET", "/metrics", plain(show_metrics)},
      {"GET", "/static/[^/]+", plain(show_static)},
  };
}

} // namespace

void install_routes(transport::ConnectionServer &server, App &app) {
  guards::RouteMethods methods;
  std::vector<std::pair<std::string, std::regex>> run_by_reactor;
  for (auto &route : route_table(app)) {
    methods.emplace_back(route.method, route.pattern);
    if (route.run_by == RunBy::reactor) run_by_reactor.emplace_back(route.method, route.pattern);
    // The desk's figures (sign-ins, saves, exports) are for the owner only (handlers/pages.cpp
    // show_metrics says who that is).
    const auto audience = route.pattern.starts_with("/admin") ? Audience::desk : Audience::everyone;
    auto handler = app.request_metrics.named(route.pattern, std::move(route.handler), audience);
    if (std::string_view(route.method) == "POST")
      server.Post(route.pattern, std::move(handler));
    else
      server.Get(route.pattern, std::move(handler));
  }
  guards::install_guards(server, app, methods);
  server.answer_on_reactor(
      [run_by_reactor = std::move(run_by_reactor)](std::string_view method, std::string_view path) {
        return std::any_of(run_by_reactor.begin(), run_by_reactor.end(), [&](const auto &route) {
          return method == route.first && std::regex_match(path.begin(), path.end(), route.second);
        });
      });
}

} // namespace verdict
