// The one route table: reading this file tells the whole HTTP surface of Verdict.
#include "handlers/routes.h"

#include <iostream>

#include "handlers/handlers.h"
#include "handlers/request_parsing.h"
#include "handlers/responses.h"
#include "transport/security_headers.h"

namespace verdict {

namespace {

using httplib::Request;
using httplib::Response;
using Page = void (*)(App &, const Request &, Response &);
using SlugPage = void (*)(App &, const Request &, Response &, std::string_view);

constexpr const char *kAnonymousCaching = "public, max-age=30, stale-while-revalidate=300";
constexpr const char *kPersonalCaching = "private, no-cache";

void answer_not_modified_if_matching(const Request &req, Response &res, const std::string &etag) {
  res.set_header("ETag", etag);
  const auto wanted = req.get_header_value("If-None-Match");
  if (!wanted.empty() &&
      (wanted == etag || wanted == "*" || wanted.find(etag) != std::string::npos)) {
    res.status = 304;
    res.body.clear();
  }
}

// Serves a GET page. Visitors without a voter cookie all get the same bytes, so those are
// rendered once per write generation and kept; visitors with one see their own votes.
void serve_page(App &app, const Request &req, Response &res,
                const std::function<void(Response &)> &render) {
  res.set_header("Vary", "Cookie");
  if (!voter_of(req).empty()) {
    render(res);
    res.set_header("Cache-Control", kPersonalCaching);
    if (res.status == 200) answer_not_modified_if_matching(req, res, etag_of(res.body));
    return;
  }
  const auto generation = app.store.generation();
  const auto day = app.today();
  auto page = app.cache.find(req.target, generation, day);
  if (!page) {
    Response rendered;
    rendered.status = 200;
    render(rendered);
    if (rendered.status != 200) {
      res = std::move(rendered);
      return;
    }
    auto fresh = std::make_shared<CachedPage>();
    fresh->status = rendered.status;
    fresh->body = std::move(rendered.body);
    fresh->etag = etag_of(fresh->body);
    fresh->content_type = rendered.get_header_value("Content-Type");
    page = fresh;
    app.cache.put(req.target, generation, day, page);
  }
  res.status = page->status;
  res.set_content(page->body, page->content_type.c_str());
  res.set_header("Cache-Control", kAnonymousCaching);
  answer_not_modified_if_matching(req, res, page->etag);
}

httplib::Server::Handler page(App &app, Page handler) {
  return [&app, handler](const Request &req, Response &res) {
    serve_page(app, req, res, [&](Response &out) { handler(app, req, out); });
  };
}

httplib::Server::Handler slug_page(App &app, SlugPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    const std::string slug = req.matches[1];
    serve_page(app, req, res, [&](Response &out) { handler(app, req, out, slug); });
  };
}

// Writes are refused unless they come from this site's own pages.
bool refuse_cross_site(App &app, const Request &req, Response &res) {
  if (is_same_origin_request(req.get_header_value("Sec-Fetch-Site"), req.get_header_value("Origin"),
                             req.get_header_value("Referer"), req.get_header_value("Host")))
    return false;
  send_error(app, res, 403, "Cross-site request refused",
             "This form can only be sent from a page of this site.");
  return true;
}

// Votes and sign-ups come from the site's own HTML forms; any other kind of body is refused.
bool refuse_unless_form(App &app, const Request &req, Response &res) {
  if (is_form_content_type(req.get_header_value("Content-Type"))) return false;
  send_error(app, res, 415, "Not a form",
             "This address takes an HTML form (application/x-www-form-urlencoded), nothing else.");
  return true;
}

// Each client may write a limited number of times a minute.
bool refuse_over_limit(App &app, const Request &req, Response &res) {
  const auto client =
      client_address(req.remote_addr, req.get_header_value("X-Forwarded-For"), app.trusted_proxy);
  const int wait = app.write_limit.take(client);
  if (wait == 0) return false;
  send_error(app, res, 429, "Slow down",
             "Too many votes from your address in a minute. Please wait " + std::to_string(wait) +
                 " seconds and try again.");
  res.set_header("Retry-After", std::to_string(wait));
  return true;
}

httplib::Server::Handler write(App &app, Page handler) {
  return [&app, handler](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res))
      return;
    handler(app, req, res);
  };
}

httplib::Server::Handler slug_write(App &app, SlugPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res))
      return;
    handler(app, req, res, std::string(req.matches[1]));
  };
}

} // namespace

void install_routes(httplib::Server &server, App &app) {
  using namespace handlers;
  constexpr const char *slug = "([a-z0-9-]{1,260})";

  server.Get("/", page(app, show_home));
  server.Get("/compare",
             [&app](const Request &req, Response &res) { pick_comparison(app, req, res); });
  server.Get(std::string("/compare/") + slug, slug_page(app, show_comparison));
  server.Post(std::string("/compare/") + slug + "/vote", slug_write(app, vote_on_pair));
  server.Get("/tools", page(app, show_tools));
  server.Get(std::string("/tools/") + slug, slug_page(app, show_tool));
  server.Post(std::string("/tools/") + slug + "/vote", slug_write(app, vote_on_tool));
  server.Get("/reviewers", page(app, show_reviewers));
  server.Get(std::string("/reviewers/") + slug, slug_page(app, show_reviewer));
  server.Post("/subscribe", write(app, subscribe));
  server.Get("/subscribed", page(app, show_subscribed));
  server.Get("/healthz", [&app](const Request &req, Response &res) { show_health(app, req, res); });
  server.Get("/static/[^/]+",
             [&app](const Request &req, Response &res) { show_static(app, req, res); });

  httplib::Headers headers;
  for (const auto &[name, value] : transport::security_headers())
    headers.emplace(name, value);
  server.set_default_headers(headers);

  // Unrouted addresses and httplib's own refusals (413 and the like) get a page of the site.
  server.set_error_handler([&app](const Request &req, Response &res) {
    if (!res.body.empty()) return;
    if (res.status == 404) return show_not_found(app, req, res);
    if (res.status == 413)
      return send_error(app, res, 413, "Too large",
                        "That request body is larger than any form of this site sends.");
    send_error(app, res, res.status, "That request could not be used",
               "The request was not understood.");
  });
  // Never show exception or SQLite text to a visitor; log it for the owner instead.
  server.set_exception_handler([&app](const Request &req, Response &res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception &e) {
      std::cerr << "error: " << req.method << " " << req.path << ": " << e.what() << "\n";
    } catch (...) {
      std::cerr << "error: " << req.method << " " << req.path << ": unknown exception\n";
    }
    res.headers.clear();
    res.status = 500;
    try {
      send_error(
          app, res, 500, "Something went wrong",
          "The server could not finish this request. Nothing was changed; please try again.");
    } catch (...) {
      res.set_content("Internal error\n", "text/plain; charset=utf-8");
    }
  });
}

} // namespace verdict
