// The guards of writes (middleware/guards.h): forms refused unless they come from this site, as
// a form, within the client network's writes per minute; the editor's desk (signed in, its
// session's CSRF token, never cached); the CPU budget of costly answers; and RFC 8058's
// one-click unsubscribe.
#include "middleware/guards.h"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "middleware/sessions.h"
#include "transport/cache_policy.h"

namespace verdict::guards {

using httplib::Request;
using httplib::Response;

namespace {

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

// What every desk answer says: for this browser only, never stored, never indexed.
void keep_private(Response &res) {
  set_cache_policy(res, CachePolicy::never_kept);
  set_single_header(res, "X-Robots-Tag", "noindex");
}

} // namespace

httplib::Server::Handler admin_page(App &app, AdminPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    keep_private(res);
    StoreMoment site(app.store); // the session and the page, one read
    const auto session = signed_in_editor(app, site, req);
    if (!session) return see_other(res, sign_in_path_back_to(req.path));
    handler(app, site, req, res, UrlCaptures(req), *session);
    keep_private(res); // whatever the handler set
  };
}

httplib::Server::Handler admin_write(App &app, AdminPage handler) {
  return [&app, handler](const Request &req, Response &res) {
    keep_private(res);
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res)) return;
    const auto session = signed_in_editor(app, app.store, req);
    if (!session)
      return send_error(app, res, 403, "Signed out",
                        "Your session has ended, so nothing was saved. Sign in again at "
                        "/admin/login, then send the form again.");
    if (!auth::same_secret(form_field(req.body, "csrf"), session->csrf_token))
      return send_error(app, res, 403, "Form refused",
                        "This form did not come from your own desk (its security token is "
                        "missing or old), so nothing was saved. Reload the page and try again.");
    handler(app, app.store, req, res, UrlCaptures(req), *session); // each read fresh
    keep_private(res);
  };
}

httplib::Server::Handler form_write(App &app, Page handler, const char *what) {
  return [&app, handler, what](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res, what))
      return;
    handler(app, app.store, req, res, UrlCaptures(req)); // a write's reads, each fresh
  };
}

httplib::Server::Handler vote_write(App &app, HeldWrite handler, const char *what) {
  return [&app, handler, what](const Request &req, Response &res) {
    if (refuse_cross_site(app, req, res) || refuse_unless_form(app, req, res) ||
        refuse_over_limit(app, req, res, what))
      return;
    if (const auto write = handler(app, app.store, req, res, UrlCaptures(req)))
      answer_once_written(req, *app.writes, *write);
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
      set_cache_policy(res, CachePolicy::never_kept);
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
    // What it cost, said to whoever asks (a browser's developer tools, bench/search_cost.py):
    // the CPU time of making this answer, in milliseconds (Server-Timing, W3C).
    const auto spent =
        std::chrono::duration<double, std::milli>(thread_cpu_time() - charge.started);
    char timing[48];
    std::snprintf(timing, sizeof timing, "cpu;dur=%.3f", spent.count());
    res.set_header("Server-Timing", timing);
  };
}

httplib::Server::Handler one_click_write(App &app, Page handler) {
  return [&app, handler](const Request &req, Response &res) {
    set_cache_policy(res, CachePolicy::never_kept);
    if (!is_multipart_form_content_type(req.get_header_value("Content-Type")) &&
        refuse_unless_form(app, req, res))
      return;
    handler(app, app.store, req, res, UrlCaptures(req)); // a write's reads, each fresh
  };
}

} // namespace verdict::guards
