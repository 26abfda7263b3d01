// The guards of GET pages (middleware/guards.h): every reader gets the page rendered once per
// page epoch and kept in the page cache, a voter gets it with their own votes put in
// (middleware/voter_answers.cpp), and every page answers conditional GETs with its ETag.
// Pages with absolute addresses and the JSON API are served the same way.
#include "middleware/guards.h"

#include <functional>
#include <memory>

#include "domain/directory.h"
#include "domain/tallies.h"
#include "middleware/page_answers.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "middleware/sessions.h"
#include "transport/cache_policy.h"
#include "transport/negotiation.h"

namespace verdict::guards {

using namespace transport; // the socket layer's types: headers, answers, limits

using httplib::Request;
using httplib::Response;

namespace {

// The coding the answer in `res` will be sent in: the transport's choice for this request
// (the one Accept-Encoding httplib is handed names it), unless httplib never compresses the
// answer's type.
ContentCoding coding_of(const Request &req, const Response &res) {
  AcceptEncoding accepted;
  for (size_t i = 0, n = req.get_header_value_count("Accept-Encoding"); i < n; ++i)
    accepted.add(req.get_header_value("Accept-Encoding", i));
  return coding_of_answer(accepted.choice(), res.get_header_value("Content-Type"));
}

} // namespace

void answer_not_modified_if_matching(const Request &req, Response &res,
                                     const std::string &identity_etag) {
  const auto etag = etag_in_coding(identity_etag, coding_of(req, res));
  res.set_header("ETag", etag);
  for (size_t i = 0, n = req.get_header_value_count("If-None-Match"); i < n; ++i) {
    if (!none_match_names(req.get_header_value("If-None-Match", i), etag)) continue;
    res.status = 304;
    res.body.clear();
    return;
  }
}

namespace {

// The page cache's key for a request: its path, and its page number past the first page of a
// list (?page=N); no other query string counts. Empty when `page=` is not a page number: the
// handler refuses that, and nothing is kept.
std::string page_cache_key(const Request &req) {
  const auto number = requested_page(req);
  if (!number) return {};
  // The tools directory's order and filters are part of what its page is (domain/directory.h);
  // values its handler refuses are never kept, so only the choices it answers take places.
  // Every other page ignores them, and is kept under its path alone: a page that ignores a
  // value must not take a place for each value sent.
  std::string key = req.path;
  if (req.path != "/tools") return *number == 1 ? key : key + "?page=" + std::to_string(*number);
  char joiner = '?';
  for (const auto *field : kDirectoryFields) {
    if (req.get_param_value_count(field) > 1) return {}; // refused by the handler, never kept
    if (req.has_param(field)) {
      key += joiner + std::string(field) + "=" + req.get_param_value(field);
      joiner = '&';
    }
  }
  return *number == 1 ? key : key + joiner + "page=" + std::to_string(*number);
}

// Renders a page into the response; for a page that shows a reader's own votes, also returns
// it with those places cut out.
using Render = std::function<std::shared_ptr<const pages::PersonalPage>(Response &)>;

// Renders the page as everyone sees it, ready to keep; null when the handler answered
// something else (an error, a redirect), which is then in `res`.
std::shared_ptr<const CachedPage> render_shared(const Render &render, Response &res) {
  Response rendered;
  rendered.status = 200;
  auto personal = render(rendered);
  if (rendered.status != 200) {
    res = std::move(rendered);
    return nullptr;
  }
  auto page = std::make_shared<CachedPage>();
  page->status = rendered.status;
  page->body = std::move(rendered.body);
  page->etag = etag_of(page->body);
  page->content_type = rendered.get_header_value("Content-Type");
  page->personal = std::move(personal);
  return page;
}

// Serves a GET page. Every reader gets the page rendered once per page epoch and kept; a
// voter gets it with their own votes put in its voter places, read fresh for each request,
// and a voter who has just voted gets it rendered now.
// A voter's page is private and its ETag differs from the shared page's, so no cache in
// front can give one reader's page to another.
void serve_page(App &app, StoreReads &site, const Request &req, Response &res,
                const Render &render) {
  res.set_header("Vary", "Cookie");
  const auto key = page_cache_key(req);
  if (key.empty()) { // not a page number: the handler refuses it, and nothing is kept
    render(res);
    set_cache_policy(res, CachePolicy::personal_page);
    return;
  }
  const auto voter = voter_of(app, req);
  if (!voter.empty() && app.recent_writers.wrote_within(voter, app.page_epoch.max_lag())) {
    // Just voted: their page is rendered now, so the tallies count their vote.
    const auto fresh = render_shared(render, res);
    if (fresh) send_own_page(site, req, res, voter, *fresh);
    return;
  }
  const auto epoch = app.page_epoch.current();
  auto page = app.cache.find(key, epoch);
  if (!page) {
    try {
      page = render_shared(render, res);
      if (!page) return;
      app.cache.put(key, epoch, page);
    } catch (const StoreUnavailable &) {
      // The database cannot be read (its file deleted or replaced under the site): the page
      // as last read beats no page. Not kept under this epoch, so it is read again as soon
      // as the database can be.
      page = app.cache.last_kept(key);
      if (!page) throw;
      res = Response{};
      res.set_header("Vary", "Cookie");
    }
  }
  res.status = page->status;
  if (!voter.empty()) return send_own_page(site, req, res, voter, *page);
  res.set_content(page->body, page->content_type.c_str());
  // A page that says its figures may be behind is kept by no cache as the current one.
  set_cache_policy(res,
                   app.views.has_notice() ? CachePolicy::never_kept : CachePolicy::anonymous_page);
  answer_not_modified_if_matching(req, res, page->etag);
}

// Serves a page whose addresses are absolute (absolute_page).
void serve_absolute(App &app, StoreReads &site, const Request &req, Response &res,
                    const Render &render) {
  if (!app.views.base_url().empty()) return serve_page(app, site, req, res, render);
  res.status = 200;
  render(res);
  if (res.status != 200) return;
  set_cache_policy(res, CachePolicy::revalidated);
  answer_not_modified_if_matching(req, res, etag_of(res.body));
}

using Serve = void (*)(App &, StoreReads &, const Request &, Response &, const Render &);

// A page that shows no reader's own votes, served by `serve`.
httplib::Server::Handler served_by(Serve serve, App &app, Page handler) {
  return [serve, &app, handler](const Request &req, Response &res) {
    StoreMoment site(app.store); // the page's every read, one moment (none for a kept page)
    serve(app, site, req, res, [&](Response &out) {
      handler(app, site, req, out, UrlCaptures(req));
      return nullptr;
    });
  };
}

} // namespace

httplib::Server::Handler page(App &app, Page handler) {
  return served_by(serve_page, app, handler);
}

httplib::Server::Handler absolute_page(App &app, Page handler) {
  return served_by(serve_absolute, app, handler);
}

namespace {

// A page any site's scripts may read (reads only: no credentials are allowed).
httplib::Server::Handler readable_anywhere(httplib::Server::Handler serve) {
  return [serve = std::move(serve)](const Request &req, Response &res) {
    serve(req, res);
    res.set_header("Access-Control-Allow-Origin", "*");
  };
}

} // namespace

httplib::Server::Handler api_read(App &app, Page handler) {
  return readable_anywhere(page(app, handler));
}

httplib::Server::Handler api_query_read(App &app, Page handler) {
  return readable_anywhere([&app, handler](const Request &req, Response &res) {
    StoreMoment site(app.store);
    handler(app, site, req, res, UrlCaptures(req));
    if (res.status != 200) return;
    // Any cache may keep the answer and ask again with its ETag, unless the handler said the
    // answer can never change (a full page of the log, a proof).
    if (!res.has_header("Cache-Control")) set_cache_policy(res, CachePolicy::shared_revalidated);
    answer_not_modified_if_matching(req, res, etag_of(res.body));
  });
}

httplib::Server::Handler open_data_read(App &app, Page handler) {
  return [serve = api_read(app, handler)](const Request &req, Response &res) {
    serve(req, res);
    res.set_header("Link", std::string("<") + kTalliesLicenceUrl + ">; rel=\"license\"");
  };
}

httplib::Server::Handler voter_page(App &app, VoterPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    StoreMoment site(app.store); // the page and the voter's own votes, one moment
    serve_page(app, site, req, res,
               [&](Response &out) -> std::shared_ptr<const pages::PersonalPage> {
                 auto personal = handler(app, site, req, out, UrlCaptures(req));
                 if (!personal) return nullptr;
                 send_html(out, pages::page_for(*personal, VoterChoices{}));
                 return std::make_shared<const pages::PersonalPage>(std::move(*personal));
               });
  };
}

} // namespace verdict::guards
