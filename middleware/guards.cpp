#include "middleware/guards.h"

#include <chrono>
#include <ctime>
#include <iostream>
#include <regex>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "middleware/request_parsing.h"
#include "middleware/responses.h"
#include "transport/negotiation.h"
#include "transport/security_headers.h"

namespace verdict::guards {

using namespace transport; // the socket layer's types: headers, answers, limits

using httplib::Request;
using httplib::Response;

namespace {

constexpr const char *kAnonymousCaching = "public, max-age=30, stale-while-revalidate=300";
constexpr const char *kPersonalCaching = "private, no-cache";

// The coding the answer in `res` will be sent in: the transport's choice for this request
// (the one Accept-Encoding httplib is handed names it), unless httplib never compresses the
// answer's type.
ContentCoding coding_of(const Request &req, const Response &res) {
  AcceptEncoding accepted;
  for (size_t i = 0, n = req.get_header_value_count("Accept-Encoding"); i < n; ++i)
    accepted.add(req.get_header_value("Accept-Encoding", i));
  return coding_of_answer(accepted.choice(), res.get_header_value("Content-Type"));
}

// Gives the answer in `res` the ETag of the representation this request gets (the body's
// `identity_etag` in its coding), and makes it a 304 when any If-None-Match names that one.
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

// The page cache's key for a request: its path, and its page number past the first page of a
// list (?page=N); no other query string counts. Empty when `page=` is not a page number: the
// handler refuses that, and nothing is kept.
std::string page_cache_key(const Request &req) {
  const auto number = requested_page(req);
  if (!number) return {};
  return *number == 1 ? req.path : req.path + "?page=" + std::to_string(*number);
}

// Renders a page into the response; for a page that shows a reader's own votes, also returns
// it with those places cut out.
using Render = std::function<std::shared_ptr<const pages::PersonalPage>(Response &)>;

// A voter's own votes on the tools a page is about.
VoterChoices choices_of(App &app, const std::string &voter, const pages::PersonalPage &page) {
  if (page.b_id != 0) return app.store.voter_choices(voter, page.a_id, page.b_id);
  return app.store.voter_choices_on_tool(voter, page.a_id);
}

// Which rendering each of a page's voter places shows for this voter; none for a page without
// such places. Read from the database the first time, then kept with the page.
std::vector<size_t> shown_to(App &app, const std::string &voter, const CachedPage &shared) {
  if (!shared.personal) return {};
  if (auto kept = shared.shown_to_voters.find(voter)) return std::move(*kept);
  auto shown = pages::renderings_for(*shared.personal, choices_of(app, voter, *shared.personal));
  shared.shown_to_voters.keep(voter, shown);
  return shown;
}

// The same, only when known without reading the database.
std::optional<std::vector<size_t>> kept_for(const std::string &voter, const CachedPage &shared) {
  if (!shared.personal) return std::vector<size_t>{};
  return shared.shown_to_voters.find(voter);
}

// A voter's page's ETag: the shared page's with the rendering each place shows ("…-v012"), so
// never the shared page's, and the same for two voters only when their pages are the same bytes.
std::string voter_etag(const CachedPage &shared, const std::vector<size_t> &shown) {
  std::string etag = shared.etag.substr(0, shared.etag.size() - 1) + "-v";
  for (const auto rendering : shown)
    etag += static_cast<char>('0' + rendering);
  etag += '"';
  return etag;
}

// A voter's page: the shared page, with their own votes in its voter places when it has any.
struct OwnPage {
  std::string body;
  std::string etag;
};

OwnPage own_page(App &app, const std::string &voter, const CachedPage &shared) {
  const auto shown = shown_to(app, voter, shared);
  return {shared.personal ? pages::page_for(*shared.personal, shown) : shared.body,
          voter_etag(shared, shown)};
}

// The headers of a voter's page but its length and ETag.
transport::Headers voter_headers(const CachedPage &shared) {
  transport::Headers headers = {{"Vary", vary_for("Cookie", shared.content_type)},
                                {"Content-Type", shared.content_type},
                                {"Cache-Control", kPersonalCaching}};
  for (const auto &[name, value] : security_headers())
    headers.emplace_back(name, value);
  return headers;
}

// A voter's page, private.
void send_own_page(App &app, const Request &req, Response &res, const std::string &voter,
                   const CachedPage &shared) {
  auto own = own_page(app, voter, shared);
  res.status = 200;
  res.set_content(std::move(own.body), shared.content_type.c_str());
  set_single_header(res, "Cache-Control", kPersonalCaching);
  answer_not_modified_if_matching(req, res, own.etag);
}

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
void serve_page(App &app, const Request &req, Response &res, const Render &render) {
  res.set_header("Vary", "Cookie");
  const auto key = page_cache_key(req);
  if (key.empty()) { // not a page number: the handler refuses it, and nothing is kept
    render(res);
    set_single_header(res, "Cache-Control", kPersonalCaching);
    return;
  }
  const auto voter = voter_of(req);
  if (!voter.empty() && app.recent_writers.wrote_within(voter, app.page_epoch.max_lag())) {
    // Just voted: their page is rendered now, so the tallies count their vote.
    const auto fresh = render_shared(render, res);
    if (fresh) send_own_page(app, req, res, voter, *fresh);
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
  if (!voter.empty()) return send_own_page(app, req, res, voter, *page);
  res.set_content(page->body, page->content_type.c_str());
  set_single_header(res, "Cache-Control", kAnonymousCaching);
  answer_not_modified_if_matching(req, res, page->etag);
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

// Each client network (domain/counting.h: an IPv4 /24, an IPv6 /48) may write a limited
// number of times a minute, all its forms together, so moving between the addresses of one
// network does not buy more; the refusal names what this form sends (`what`: "votes"…).
bool refuse_over_limit(App &app, const Request &req, Response &res, const char *what) {
  const int wait = app.write_limit.take(network_of(client_of(app, req)));
  if (wait == 0) return false;
  send_error(app, res, 429, "Slow down",
             std::string("Too many ") + what + " from your network in a minute. Please wait " +
                 std::to_string(wait) + " seconds and try again.");
  res.set_header("Retry-After", std::to_string(wait));
  return true;
}

// The methods some route takes at `path`, as an Allow header lists them; empty when none.
std::string allowed_methods(const std::vector<std::pair<std::regex, std::string>> &routes,
                            const std::string &path) {
  std::string allow;
  for (const auto &[pattern, method] : routes) {
    if (!std::regex_match(path, pattern)) continue;
    const auto methods = method == "GET" ? std::string("GET, HEAD") : method;
    if (allow.find(methods) == std::string::npos) allow += (allow.empty() ? "" : ", ") + methods;
  }
  return allow;
}

void method_not_allowed(App &app, Response &res, const std::string &allow) {
  send_error(app, res, 405, "Method not allowed",
             "This address takes " + allow + " requests only.");
  res.set_header("Allow", allow);
}

} // namespace

namespace {

// Serves a page whose addresses are absolute (absolute_page).
void serve_absolute(App &app, const Request &req, Response &res, const Render &render) {
  if (!app.views.base_url().empty()) return serve_page(app, req, res, render);
  res.status = 200;
  render(res);
  if (res.status != 200) return;
  set_single_header(res, "Cache-Control", "no-cache");
  answer_not_modified_if_matching(req, res, etag_of(res.body));
}

using Serve = void (*)(App &, const Request &, Response &, const Render &);

// A page that shows no reader's own votes, served by `serve`.
httplib::Server::Handler served_by(Serve serve, App &app, Page handler) {
  return [serve, &app, handler](const Request &req, Response &res) {
    serve(app, req, res, [&](Response &out) {
      handler(app, req, out);
      return nullptr;
    });
  };
}

httplib::Server::Handler slug_served_by(Serve serve, App &app, SlugPage handler) {
  return [serve, &app, handler](const Request &req, Response &res) {
    const std::string slug = req.matches[1];
    serve(app, req, res, [&](Response &out) {
      handler(app, req, out, slug);
      return nullptr;
    });
  };
}

} // namespace

httplib::Server::Handler page(App &app, Page handler) {
  return served_by(serve_page, app, handler);
}

httplib::Server::Handler slug_page(App &app, SlugPage handler) {
  return slug_served_by(serve_page, app, handler);
}

httplib::Server::Handler absolute_page(App &app, Page handler) {
  return served_by(serve_absolute, app, handler);
}

httplib::Server::Handler absolute_slug_page(App &app, SlugPage handler) {
  return slug_served_by(serve_absolute, app, handler);
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

httplib::Server::Handler api_slug_read(App &app, SlugPage handler) {
  return readable_anywhere(slug_page(app, handler));
}

httplib::Server::Handler voter_page(App &app, VoterSlugPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    const std::string slug = req.matches[1];
    serve_page(app, req, res, [&](Response &out) -> std::shared_ptr<const pages::PersonalPage> {
      auto personal = handler(app, req, out, slug);
      if (!personal) return nullptr;
      send_html(out, pages::page_for(*personal, VoterChoices{}));
      return std::make_shared<const pages::PersonalPage>(std::move(*personal));
    });
  };
}

CookieAnswers voter_answers(App &app, const TransportLimits &limits) {
  return [&app, keep_alive = keep_alive_value(limits)](std::string_view target,
                                                       std::string_view cookie, std::string &out) {
    const auto voter = voter_from_cookie(cookie);
    // Left to httplib: other cookies, addresses it would decode, and voters who just voted
    // (rendered afresh there).
    if (voter.empty() || target.find('%') != std::string_view::npos ||
        app.recent_writers.wrote_within(voter, app.page_epoch.max_lag()))
      return false;
    const auto page = app.cache.find(target, app.page_epoch.current());
    if (!page || page->status != 200) return false;
    // A voter new to this page goes to a worker, which reads their votes and keeps them with
    // the page: a reactor that waited on the database would hold up every connection it owns.
    const auto kept = kept_for(voter, *page);
    if (!kept) return false;
    const auto &shown = *kept;
    std::call_once(page->voter_head_made, [&] {
      page->voter_head = transport::HeadAround(voter_headers(*page), keep_alive);
    });
    // Written straight into the connection's buffer: the page's bytes are copied once.
    if (page->personal) {
      page->voter_head.write(out, pages::page_length(*page->personal, shown),
                             voter_etag(*page, shown));
      pages::append_page_for(*page->personal, shown, out);
    } else {
      page->voter_head.write(out, page->body.size(), voter_etag(*page, shown));
      out += page->body;
    }
    return true;
  };
}

namespace {

// What every desk answer says: for this browser only, never stored, never indexed.
void keep_private(Response &res) {
  set_single_header(res, "Cache-Control", "no-store");
  set_single_header(res, "X-Robots-Tag", "noindex");
}

} // namespace

httplib::Server::Handler admin_page(App &app, AdminPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    keep_private(res);
    const auto session = signed_in_editor(app, req);
    if (!session) return see_other(res, sign_in_path_back_to(req.path));
    handler(app, req, res, *session);
    keep_private(res); // whatever the handler set
  };
}

httplib::Server::Handler admin_write(App &app, AdminPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    keep_private(res);
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res)) return;
    const auto session = signed_in_editor(app, req);
    if (!session)
      return send_error(app, res, 403, "Signed out",
                        "Your session has ended, so nothing was saved. Sign in again at "
                        "/admin/login, then send the form again.");
    if (!auth::same_secret(form_field(req.body, "csrf"), session->csrf_token))
      return send_error(app, res, 403, "Form refused",
                        "This form did not come from your own desk (its security token is "
                        "missing or old), so nothing was saved. Reload the page and try again.");
    handler(app, req, res, *session);
    keep_private(res);
  };
}

httplib::Server::Handler form_write(App &app, Page handler, const char *what) {
  return [&app, handler, what](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res, what))
      return;
    handler(app, req, res);
  };
}

httplib::Server::Handler slug_form_write(App &app, SlugPage handler, const char *what) {
  return [&app, handler, what](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res, what))
      return;
    handler(app, req, res, std::string(req.matches[1]));
  };
}

namespace {

// CPU time this thread has used: what an answer cost, whatever else the machine was doing.
std::chrono::nanoseconds thread_cpu_time() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

} // namespace

httplib::Server::Handler costly(App &app, httplib::Server::Handler inner, const char *what) {
  return [&app, inner = std::move(inner), what](const Request &req, Response &res) {
    const auto network = network_of(client_of(app, req));
    if (const auto refusal = app.cost_budget.begin(network)) {
      // Said in plain text: a refusal must cost next to nothing, or a flood of them would
      // take the time the budget saved (no layout, no read of the site's name).
      const auto wait = std::to_string(refusal->wait_seconds);
      res.status = refusal->whole_site ? 503 : 429;
      res.set_content(refusal->whole_site
                          ? std::string("The site is answering many ") + what +
                                " at the moment. Please try again in " + wait + " seconds.\n"
                          : std::string("Too many ") + what + " from your network. Please wait " +
                                wait + " seconds and try again.\n",
                      "text/plain; charset=utf-8");
      set_single_header(res, "Cache-Control", "no-store");
      res.set_header("Retry-After", wait);
      return;
    }
    // Charged however the answer ends, thrown exceptions included.
    struct Charge {
      App &app;
      const std::string &network;
      std::chrono::nanoseconds started = thread_cpu_time();
      ~Charge() { app.cost_budget.finish(network, thread_cpu_time() - started); }
    } charge{app, network};
    inner(req, res);
  };
}

httplib::Server::Handler one_click_write(App &app, SlugPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    set_single_header(res, "Cache-Control", "no-store");
    if (!is_multipart_form_content_type(req.get_header_value("Content-Type")) &&
        refuse_unless_form(app, req, res))
      return;
    handler(app, req, res, std::string(req.matches[1]));
  };
}

void install_guards(httplib::Server &server, App &app, const RouteMethods &routes) {
  server.set_logger([&app](const Request &req, const Response &res) {
    app.request_metrics.observe_unrouted(res.status);
    if (!app.access_log) return;
    std::string path = req.path;
    for (auto &c : path)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?'; // no forged log lines
    std::cerr << req.remote_addr << " " << req.method << " " << path << " " << res.status << "\n";
  });
  auto patterns = std::make_shared<std::vector<std::pair<std::regex, std::string>>>();
  for (const auto &[method, pattern] : routes)
    patterns->emplace_back(std::regex(pattern), method);

  httplib::Headers headers;
  for (const auto &[name, value] : transport::security_headers())
    headers.emplace(name, value);
  server.set_default_headers(headers);
  server.set_post_routing_handler([](const Request &, Response &res) {
    const auto vary = vary_for(res.get_header_value("Vary"), res.get_header_value("Content-Type"));
    res.headers.erase("Vary"); // set_header adds a second line rather than replacing
    if (!vary.empty()) res.set_header("Vary", vary);
  });

  // Only GET, HEAD and POST mean anything here; an address that exists answers any other
  // method with 405 and what it allows.
  server.set_pre_routing_handler([&app, patterns](const Request &req, Response &res) {
    RequestMetrics::begin_request();
    if (req.method == "GET" || req.method == "HEAD" || req.method == "POST")
      return httplib::Server::HandlerResponse::Unhandled;
    const auto allow = allowed_methods(*patterns, req.path);
    if (allow.empty())
      address_not_found(app, res);
    else
      method_not_allowed(app, res, allow);
    return httplib::Server::HandlerResponse::Handled;
  });

  // Unrouted addresses and httplib's own refusals (413 and the like) get a page of the site.
  // httplib calls it outside its own try, so nothing may escape it: a failure here would end
  // the process.
  server.set_error_handler([&app, patterns](const Request &req, Response &res) {
    if (!res.body.empty()) return;
    try {
      if (res.status == 404) {
        const auto allow = allowed_methods(*patterns, req.path);
        if (!allow.empty()) return method_not_allowed(app, res, allow);
        return address_not_found(app, res);
      }
      if (res.status == 413)
        return send_error(app, res, 413, "Too large",
                          "That request body is larger than any form of this site sends.");
      send_error(app, res, res.status, "That request could not be used",
                 "The request was not understood.");
    } catch (const std::exception &e) {
      std::cerr << "error page: " << req.method << " " << req.path << ": " << e.what() << "\n";
      send_error_without_fail(app, res, 503, "Cannot show this page right now",
                              "The site cannot read its data at the moment. Please try again "
                              "in a minute.");
    }
  });
  // Never show exception or SQLite text to a visitor; log it for the owner instead.
  server.set_exception_handler([&app](const Request &req, Response &res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const StoreUnavailable &e) {
      std::cerr << "refused: " << req.method << " " << req.path << ": " << e.what() << "\n";
      res.headers.clear();
      if (req.method == "POST")
        send_error_without_fail(app, res, 503, "Not taking votes right now",
                                "The site cannot save anything at the moment. Nothing was "
                                "changed; please try again later.");
      else
        send_error_without_fail(app, res, 503, "Cannot show this page right now",
                                "The site cannot read its data at the moment. Please try again "
                                "in a minute.");
      res.set_header("Retry-After", "60");
      return;
    } catch (const std::exception &e) {
      std::cerr << "error: " << req.method << " " << req.path << ": " << e.what() << "\n";
    } catch (...) {
      std::cerr << "error: " << req.method << " " << req.path << ": unknown exception\n";
    }
    res.headers.clear();
    send_error_without_fail(
        app, res, 500, "Something went wrong",
        "The server could not finish this request. Nothing was changed; please try again.");
  });
}

} // namespace verdict::guards
