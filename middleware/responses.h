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
void answer_once_written(const httplib::Request &req, SiteWrites &writes, const Write &write);

// A JSON answer (the API's and the vote log's).
void send_json(httplib::Response &res, std::string json, int status = 200);

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
