// The few ways a handler answers: a page, a clear error page, or a redirect.
#pragma once

#include <httplib.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "middleware/app.h"

namespace verdict {

void send_html(httplib::Response &res, std::string html, int status = 200);
// An HTML page kept in `kept` under `key` for the page epoch: the kept one when there is, else
// the one `render` makes, which is kept; `render` gives nothing when it answered otherwise
// (a 404, say), and then nothing is kept.
void send_kept_html(App &app, PageCache &kept, const std::string &key, httplib::Response &res,
                    const std::function<std::optional<std::string>()> &render);
// Sets a header that an answer carries once (Cache-Control, X-Robots-Tag): a value set before,
// by a guard or a helper, is replaced, where httplib's set_header would add a second line.
void set_single_header(httplib::Response &res, const std::string &name, const std::string &value);
// send_error, or when even that fails (the site's name cannot be read) the same words as
// plain text: for the places where nothing may be thrown.
void send_error_without_fail(const App &app, httplib::Response &res, int status,
                             const std::string &heading, const std::string &message) noexcept;
// A 4xx/5xx page in the site's layout that says what was wrong.
void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message);
// The same, its one link going to `link` (labelled `link_label`) instead of the front page.
void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message, const std::string &link, const std::string &link_label);
// The page for a request the transport refused before routing (malformed, too large…).
std::string refusal_page(const App &app, int status, const std::string &reason);
// The 503 for a write the site could not take now (its file or its cluster's stream): nothing
// was changed, try again later; `why` goes to the owner's log. A POST whose write threw
// StoreUnavailable gets the same page (middleware/guards.cpp).
void write_not_taken(const App &app, httplib::Response &res, const std::string &why);
void see_other(httplib::Response &res, const std::string &location);         // 303
void moved_permanently(httplib::Response &res, const std::string &location); // 301
// Sends the answer the handler made once `write`, submitted queued (SiteWrites::submit_queued),
// is durable; the worker does not wait for it (transport/answer_hold.h). When it is not
// written, the reader gets instead a 503 page saying why (the site takes no writes now) or
// that nothing was saved, and the owner the reason in the log. Outside the connection server
// it waits for the write itself.
void answer_once_written(SiteWrites &writes, const Write &write);

// The tokens the vote forms of a page about this comparison or tool carry, made now.
pages::VoteTokens vote_tokens_for(const App &app, const Comparison &comparison);
std::string vote_token_for(const App &app, const Tool &tool);

// The voter id from the request's cookie as the site keeps it (App::voter_as_kept), or empty.
std::string voter_of(const App &app, const httplib::Request &req);
// The request's voter id as kept, minting one (and setting its cookie on `res`) for a first
// vote.
std::string voter_for_write(const App &app, const httplib::Request &req, httplib::Response &res);

// The editor signed in on this browser (the session cookie names a live session), if any.
std::optional<EditorSession> signed_in_editor(App &app, const httplib::Request &req);
// Signs `editor` in on this browser: a new session, its secret in an HttpOnly, SameSite=Strict
// cookie for /admin only (Secure when the request came over HTTPS), for kSessionHours. No
// cookie unless the session's write was done.
WriteResult start_editor_session(App &app, const httplib::Request &req, httplib::Response &res,
                                 const Editor &editor);
// Ends this browser's session, if any, and clears its cookie (once the session's end is
// written).
WriteResult end_editor_session(App &app, const httplib::Request &req, httplib::Response &res);
constexpr int kSessionHours = 12;
// Marks this browser as one `editor` signed in from (auth/sign_in_throttle.h): a cookie for the
// sign-in form only, HttpOnly, SameSite=Strict (Secure over HTTPS), for kKnownDeviceSeconds.
void remember_known_device(const App &app, const httplib::Request &req, httplib::Response &res,
                           const Editor &editor);
// The sign-in page's address that brings the editor back to `path` (a desk page) after.
std::string sign_in_path_back_to(const std::string &path);
// The address the request comes from (middleware/rate_limit.h's client_address).
std::string client_of(const App &app, const httplib::Request &req);
// Whether the request reached the site over HTTPS: only the trusted proxy can say so.
bool came_over_https(const App &app, const httplib::Request &req);
// Whose figures /metrics may show this request. The desk's go to a request from this machine
// straight to the server (its TCP peer is loopback and no proxy forwarded it: a request
// through the trusted proxy on loopback carries X-Forwarded-For, and is anyone's), or to one
// carrying `Authorization: Bearer <--metrics-token>`. Anyone else gets readers' figures; a
// bearer token that is not the site's gets none (empty), so a misconfigured scraper is told
// rather than quietly shown less.
std::optional<Audience> metrics_audience(const App &app, const httplib::Request &req);

// Every value the request's query gives parameter `name`, in order.
std::vector<std::string> param_values(const httplib::Request &req, const char *name);
// A JSON answer (the API's and the vote log's).
void send_json(httplib::Response &res, std::string json, int status = 200);

// The page of a list the request asks for with `?page=N` (1 when absent); empty when the
// parameter is not a page number.
std::optional<int> requested_page(const httplib::Request &req);

// The page of a list the address asks for, `size` items long; empty (and a 400 sent) when
// `?page=` is not a page number.
std::optional<PageSpan> list_page(const App &app, const httplib::Request &req,
                                  httplib::Response &res, int size);

// A 404 page that says what is not here.
void page_not_found(const App &app, httplib::Response &res, const std::string &what);
// The 404 of an address no route names.
void address_not_found(const App &app, httplib::Response &res);
// A page past the last one of its list is not found (a 404 is sent); the first page exists
// even when empty.
bool past_the_end(const App &app, httplib::Response &res, const PageSpan &span, bool nothing_on_it);
// Addresses that are not lists have only a first page: true (and a 400 or 404 sent) for any
// other `?page=`.
bool refuse_other_pages(const App &app, const httplib::Request &req, httplib::Response &res);
// For an address naming no pair of tools: 301 to where it leads since a tool was renamed,
// keeping `rest` (what follows the pair, e.g. "/card.svg"), else a 404 page.
void answer_unknown_pair(App &app, httplib::Response &res, std::string_view pair,
                         const std::string &rest = "");
// For an address naming no item of `kind` ("tool", "reviewer", "category") under `section`
// ("/tools/"): 301 to the same address under the item's slug since it was renamed, keeping
// `rest` (what follows the slug, e.g. "/feed.xml"), else a 404 page that says `what`.
void answer_unknown_slug(App &app, httplib::Response &res, std::string_view kind,
                         std::string_view slug, const std::string &section, const std::string &rest,
                         const std::string &what);
void answer_unknown_tool(App &app, httplib::Response &res, std::string_view slug,
                         const std::string &rest = "");
void answer_unknown_reviewer(App &app, httplib::Response &res, std::string_view slug,
                             const std::string &rest = "");

} // namespace verdict
