// The one route table: reading this file tells the whole HTTP surface of Verdict. What wraps
// every page and every write (caching, same-origin and rate-limit checks, error pages) lives
// in transport/guards.h.
#include "handlers/routes.h"

#include "handlers/handlers.h"
#include "transport/guards.h"

namespace verdict {

namespace {

struct Route {
  const char *method; // GET (HEAD follows it) or POST
  std::string pattern;
  httplib::Server::Handler handler;
};

std::vector<Route> route_table(App &app) {
  using namespace handlers;
  using namespace transport;
  const std::string slug = "([a-z0-9-]{1,260})";
  const auto plain = [&app](void (*handler)(App &, const httplib::Request &, httplib::Response &)) {
    return [&app, handler](const httplib::Request &req, httplib::Response &res) {
      handler(app, req, res);
    };
  };
  return {
      {"GET", "/", page(app, show_home)},
      {"GET", "/comparisons", page(app, show_comparisons)},
      {"GET", "/compare", plain(pick_comparison)},
      {"GET", "/compare/" + slug, voter_page(app, show_comparison)},
      {"POST", "/compare/" + slug + "/vote", slug_form_write(app, vote_on_pair)},
      {"GET", "/tools", page(app, show_tools)},
      {"GET", "/tools/" + slug, voter_page(app, show_tool)},
      {"POST", "/tools/" + slug + "/vote", slug_form_write(app, vote_on_tool)},
      {"GET", "/reviewers", page(app, show_reviewers)},
      {"GET", "/reviewers/" + slug, slug_page(app, show_reviewer)},
      {"POST", "/subscribe", form_write(app, subscribe)},
      {"GET", "/subscribed", page(app, show_subscribed)},
      {"GET", "/admin/login", plain(show_sign_in)},
      {"POST", "/admin/login", form_write(app, sign_in)},
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
      {"GET", "/healthz", plain(show_health)},
      {"GET", "/static/[^/]+", plain(show_static)},
  };
}

} // namespace

void install_routes(httplib::Server &server, App &app) {
  transport::RouteMethods methods;
  for (auto &route : route_table(app)) {
    methods.emplace_back(route.method, route.pattern);
    if (std::string_view(route.method) == "POST")
      server.Post(route.pattern, std::move(route.handler));
    else
      server.Get(route.pattern, std::move(route.handler));
  }
  transport::install_guards(server, app, methods);
}

} // namespace verdict
