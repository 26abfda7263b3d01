// The guards every request of the site passes through, kept beside the route table rather
// than in it (STYLE.md): the shared page cache and conditional GETs for pages; same-origin,
// form-only and rate-limit checks for writes; the security headers, 405 with Allow, and error
// pages that never show what went wrong inside. Made in middleware/page_guards.cpp (pages),
// voter_answers.cpp (a voter's own page), write_guards.cpp (forms, the desk, costly answers)
// and guards.cpp (what wraps the whole site).
#pragma once

#include <httplib.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "middleware/app.h"
#include "middleware/url_captures.h"
#include "transport/connection_server.h"

namespace verdict::guards {

// A handler: given the site's data to read (a page's: one moment of it, StoreMoment; a
// write's: each read fresh), the request, the answer to make, and what its address captured
// (a slug, a pair, a token: middleware/url_captures.h). It reads only: it writes by
// submitting a Write to app.writes.
using Page = void (*)(App &, StoreReads &site, const httplib::Request &, httplib::Response &,
                      const UrlCaptures &);

// A GET page. Visitors without a voter cookie all get the same bytes, rendered once per write
// generation and day and kept; visitors with one see their own votes. Both get ETags and 304s.
httplib::Server::Handler page(App &app, Page handler);
// A page whose addresses are absolute, as a feed's must be. Under the site's configured
// address (--base-url) it is kept and shared like any page. Without one its addresses name the
// host the request was sent to, so it is rendered for each request (still with an ETag and
// 304s) and no shared cache keeps it: a cache keyed by path alone would hand one host's
// addresses to readers of another.
httplib::Server::Handler absolute_page(App &app, Page handler);
// A page that shows a reader's own votes (a comparison, a tool): the handler returns it with
// those places cut out, or nothing when it answered otherwise. Every reader gets the shared
// page; a voter gets it with their own votes put in.
using VoterPage = std::optional<pages::PersonalPage> (*)(App &, StoreReads &site,
                                                         const httplib::Request &,
                                                         httplib::Response &, const UrlCaptures &);
httplib::Server::Handler voter_page(App &app, VoterPage handler);
// Voters' pages as the reactor gives them (transport/connection_server.h): the page kept for
// this epoch with the voter's own votes put in, the same bytes httplib would send.
transport::CookieAnswers voter_answers(App &app, const transport::TransportLimits &limits);
// The editor's desk. A page for a signed-in editor only: anyone else is sent to sign in and
// brought back. Never cached, never indexed.
using AdminPage = void (*)(App &, StoreReads &site, const httplib::Request &, httplib::Response &,
                           const UrlCaptures &, const EditorSession &);
httplib::Server::Handler admin_page(App &app, AdminPage handler);
// A desk form: refused unless it comes from this site, as a form, from a signed-in editor,
// carrying that editor's session's CSRF token.
httplib::Server::Handler admin_write(App &app, AdminPage handler);
// The JSON API: kept and answered like a page (ETags, 304s, the shared cache), readable from
// any site (Access-Control-Allow-Origin: *, reads only).
httplib::Server::Handler api_read(App &app, Page handler);
// The same for an answer that depends on its whole query string (the vote log's entries and
// proofs): readable from any site, rendered for each request, never kept in the page cache,
// whose key is a path and a page number; answered with an ETag (and 304) and `public,
// no-cache` unless the handler set its own Cache-Control.
httplib::Server::Handler api_query_read(App &app, Page handler);
// Open data (/data/…): read as the API is, with its licence named in a Link header
// (rel="license", domain/tallies.h) on every answer, the kept ones included.
httplib::Server::Handler open_data_read(App &app, Page handler);
// A form POST, refused unless it comes from this site, is an HTML form and is within the
// client's writes per minute; `what` names what the form sends, for the refusal ("Too many
// votes from your address in a minute").
httplib::Server::Handler form_write(App &app, Page handler, const char *what);
// The same for a form whose answer waits for a write (a reader's vote): the handler makes its
// answer (a 303) and returns the write, and the answer is sent once that write is durable, a
// 503 saying why in its place when it was not written (middleware/responses.h
// answer_once_written). A handler that refused returns none, its answer sent as it made it.
using HeldWrite = std::optional<Write> (*)(App &, StoreReads &site, const httplib::Request &,
                                           httplib::Response &, const UrlCaptures &);
httplib::Server::Handler vote_write(App &app, HeldWrite handler, const char *what);

// An answer that can cost a core real time (a search over a large site, a share card drawn):
// refused with 429 (or 503 when the whole site's budget is spent) once the client's network
// has spent its share of CPU time on such answers (middleware/cost_budget.h); what `inner`
// spends is charged to it. `what` names them in the refusal ("searches").
httplib::Server::Handler costly(App &app, httplib::Server::Handler inner, const char *what);

// RFC 8058's one-click unsubscribe: a POST the reader's mail program (or its provider's
// servers) sends from no page of this site, so neither a same-origin check nor a CSRF token
// can apply; the secret token in the address is what authorizes it. Refused unless it is a
// form (urlencoded or multipart/form-data, as RFC 8058 allows). Not rate-limited per client:
// a mail provider sends every reader's unsubscribe from a few addresses of its own.
httplib::Server::Handler one_click_write(App &app, Page handler);

// (method, path pattern) of every route, for 405 answers that say what is allowed.
using RouteMethods = std::vector<std::pair<std::string, std::string>>;

// The security headers, the error pages (404, 405 with Allow, httplib's own refusals) and the
// exception page, which logs the error for the owner and shows the visitor none of it.
void install_guards(httplib::Server &server, App &app, const RouteMethods &routes);

} // namespace verdict::guards
