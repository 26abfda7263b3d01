#include "middleware/responses.h"

#include <chrono>
#include <future>
#include <iostream>

#include "auth/secrets.h"
#include "auth/vote_tokens.h"
#include "domain/clock.h"
#include "domain/cookies.h"
#include "domain/counting.h"
#include "domain/text.h"
#include "middleware/rate_limit.h"
#include "middleware/request_parsing.h"
#include "render/pages.h"
#include "transport/answer_hold.h"
#include "transport/cache_policy.h"

namespace verdict {

App::App(Store &store_, const Views &views_, int writes_per_minute, std::string trusted_proxy_,
         SiteWrites *site_writes)
    : store(store_), writes(site_writes ? site_writes : &local_writes), views(views_),
      // The date, and the hour: pages with vote forms are made again at least that often, so
      // a kept page never hands out an old vote token (domain/counting.h).
      page_epoch(
          [this] { return store.generation(); },
          [this] { return today() + " " + std::to_string(clock() / kVotePageRenewalSeconds); },
          std::chrono::milliseconds(0)),
      write_limit(writes_per_minute), clock(unix_now), trusted_proxies(trusted_proxy_) {
  // The database's key, so links in mails sent by `verdict digest` work here too.
  newsletter.unsubscribe_key = writes->site_secret("unsubscribe", auth::random_secret());
  newsletter.marker_key = auth::random_secret();
  votes.token_key = writes->site_secret("vote_tokens", auth::random_secret());
  votes.network_key = writes->site_secret("voter_networks", auth::random_secret());
  known_device_key = writes->site_secret("known_devices", auth::random_secret());
  log_signing_key = writes->log_signing_key();
}

void send_html(httplib::Response &res, std::string html, int status) {
  res.status = status;
  res.set_content(std::move(html), "text/html; charset=utf-8");
}

void send_kept_html(App &app, PageCache &kept, const std::string &key, httplib::Response &res,
                    const std::function<std::optional<std::string>()> &render) {
  const auto epoch = app.page_epoch.current();
  if (const auto page = kept.find(key, epoch)) return send_html(res, page->body, page->status);
  auto html = render();
  if (!html) return;
  auto page = std::make_shared<CachedPage>();
  page->body = std::move(*html);
  send_html(res, page->body);
  kept.put(key, epoch, std::move(page));
}

void set_single_header(httplib::Response &res, const std::string &name, const std::string &value) {
  res.headers.erase(name);
  res.set_header(name, value);
}

void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message) {
  std::string eyebrow = "Error " + std::to_string(status);
  send_html(res, pages::message(app.views, app.store.site_copy(), eyebrow, heading, message),
            status);
  set_cache_policy(res, CachePolicy::never_kept);
}

void send_error_without_fail(const App &app, httplib::Response &res, int status,
                             const std::string &heading, const std::string &message) noexcept {
  try {
    send_error(app, res, status, heading, message);
  } catch (...) {
    try {
      res.status = status;
      res.set_content(heading + "\n\n" + message + "\n", "text/plain; charset=utf-8");
      set_cache_policy(res, CachePolicy::never_kept);
    } catch (...) {
      res.status = status; // out of memory: the status alone
    }
  }
}

void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message, const std::string &link,
                const std::string &link_label) {
  std::string eyebrow = "Error " + std::to_string(status);
  send_html(
      res,
      pages::message(app.views, app.store.site_copy(), eyebrow, heading, message, link, link_label),
      status);
  set_cache_policy(res, CachePolicy::never_kept);
}

pages::VoteTokens vote_tokens_for(const App &app, const Comparison &comparison) {
  const auto now = app.clock();
  const auto &key = app.votes.token_key;
  return {auth::vote_token(key, auth::tool_vote_target(comparison.a.id), now),
          auth::vote_token(key, auth::tool_vote_target(comparison.b.id), now),
          auth::vote_token(key, auth::pair_vote_target(comparison.a.id, comparison.b.id), now)};
}

std::string vote_token_for(const App &app, const Tool &tool) {
  return auth::vote_token(app.votes.token_key, auth::tool_vote_target(tool.id), app.clock());
}

namespace {
std::string refusal_page_in_layout(const App &app, int status, const std::string &reason);
}

std::string refusal_page(const App &app, int status, const std::string &reason) {
  try {
    return refusal_page_in_layout(app, status, reason);
  } catch (const std::exception &) {
    return reason + "\n"; // the site's name cannot be read: the reason alone
  }
}

namespace {
std::string refusal_page_in_layout(const App &app, int status, const std::string &reason) {
  const char *heading = status == 413   ? "Too large"
                        : status == 414 ? "Address too long"
                        : status == 431 ? "Headers too large"
                        : status == 503 ? "Nothing was saved"
                        : status >= 500 ? "Not supported"
                                        : "That request could not be used";
  return pages::message(app.views, app.store.site_copy(), "Error " + std::to_string(status),
                        heading, reason);
}
} // namespace

// What a reader is told of a write the site could not take, whichever way it failed.
constexpr auto kNothingSaved =
    "The site cannot save anything at the moment. Nothing was changed; please try again later.";

void write_not_taken(const App &app, httplib::Response &res, const std::string &why) {
  std::cerr << "refused: a write: " << why << "\n";
  res.headers.clear();
  send_error_without_fail(app, res, 503, "Not saved right now", kNothingSaved);
  res.set_header("Retry-After", "60");
}

namespace {
// What a reader is told of a write not written: the site's own words when it takes no writes
// now, else that nothing was saved (a refusal's or an error's words are the owner's).
std::string words_for_the_reader(const WriteResult &ended) {
  return ended.ended == WriteResult::Ended::unavailable ? ended.words : kNothingSaved;
}
} // namespace

void answer_once_written(SiteWrites &writes, const Write &write) {
  const bool held = transport::answer_after([&writes, write](transport::AnswerRelease release) {
    writes.submit_queued(write, [release = std::move(release)](const WriteResult &ended) {
      if (ended.done()) return release(std::nullopt);
      std::cerr << "refused: a write: " << ended.words << "\n";
      release(words_for_the_reader(ended));
    });
  });
  if (held) return;
  std::promise<WriteResult> told;
  writes.submit_queued(write, [&told](const WriteResult &ended) { told.set_value(ended); });
  if (const auto ended = told.get_future().get(); !ended.done())
    throw StoreUnavailable(words_for_the_reader(ended));
}

void see_other(httplib::Response &res, const std::string &location) {
  res.status = 303;
  res.set_header("Location", location);
  set_cache_policy(res, CachePolicy::never_kept);
}

void moved_permanently(httplib::Response &res, const std::string &location) {
  res.status = 301;
  res.set_header("Location", location);
  set_cache_policy(res, CachePolicy::moved_for_a_day);
}

std::string App::voter_as_kept(std::string cookie_voter) const {
  if (voter_key.empty() || cookie_voter.empty()) return cookie_voter;
  // The cookie's first 12 hex digits (when it was issued: ids issued together still sort
  // together, store/votes.cpp) and 80 bits of its keyed hash, the length a voter id has.
  return cookie_voter.substr(0, 12) + auth::keyed_hash(voter_key, cookie_voter).substr(0, 20);
}

std::string voter_of(const App &app, const httplib::Request &req) {
  return app.voter_as_kept(voter_from_cookie(req.get_header_value("Cookie")));
}

std::string voter_for_write(const App &app, const httplib::Request &req, httplib::Response &res) {
  auto voter = voter_of(app, req);
  if (!voter.empty()) return voter;
  voter = new_voter_id();
  res.set_header("Set-Cookie",
                 std::string(cookies::kVoter.name) + "=" + voter + "; Path=/; Max-Age=" +
                     std::to_string(cookies::kVoter.max_age_seconds) + "; HttpOnly; SameSite=Lax");
  return app.voter_as_kept(voter);
}

std::optional<EditorSession> signed_in_editor(App &app, const httplib::Request &req) {
  const auto secret = session_secret_from_cookie(req.get_header_value("Cookie"));
  if (secret.empty()) return std::nullopt;
  return app.store.session(auth::secret_hash(secret), app.clock());
}

WriteResult start_editor_session(App &app, const httplib::Request &req, httplib::Response &res,
                                 const Editor &editor) {
  const auto secret = auth::random_secret();
  const int64_t lifetime = int64_t{kSessionHours} * 3600;
  auto started = app.writes->submit(StartSession{auth::secret_hash(secret), editor.id,
                                                 auth::random_secret(16), app.clock() + lifetime});
  if (!started.done()) return started;
  res.set_header("Set-Cookie", std::string(cookies::kSession.name) + "=" + secret +
                                   "; Path=/admin; Max-Age=" + std::to_string(lifetime) +
                                   "; HttpOnly; SameSite=Strict" +
                                   (came_over_https(app, req) ? "; Secure" : ""));
  return started;
}

void remember_known_device(const App &app, const httplib::Request &req, httplib::Response &res,
                           const Editor &editor) {
  const auto token = auth::known_device_token(app.known_device_key, editor.email,
                                              app.clock() + auth::kKnownDeviceSeconds);
  res.set_header("Set-Cookie",
                 std::string(cookies::kKnownDevice.name) + "=" + token +
                     "; Path=/admin/login; Max-Age=" + std::to_string(auth::kKnownDeviceSeconds) +
                     "; HttpOnly; SameSite=Strict" + (came_over_https(app, req) ? "; Secure" : ""));
}

WriteResult end_editor_session(App &app, const httplib::Request &req, httplib::Response &res) {
  const auto secret = session_secret_from_cookie(req.get_header_value("Cookie"));
  if (!secret.empty())
    if (auto ended = app.writes->submit(EndSession{auth::secret_hash(secret)}); !ended.done())
      return ended;
  res.set_header("Set-Cookie", std::string(cookies::kSession.name) +
                                   "=; Path=/admin; Max-Age=0; HttpOnly; SameSite=Strict" +
                                   (came_over_https(app, req) ? "; Secure" : ""));
  return WriteResult::written();
}

std::string sign_in_path_back_to(const std::string &path) {
  return path == "/admin" ? "/admin/login" : "/admin/login?next=" + path;
}

std::string client_of(const App &app, const httplib::Request &req) {
  // The proxy appends the address it saw to the last X-Forwarded-For line; lines before it
  // are the client's own words.
  const auto lines = req.get_header_value_count("X-Forwarded-For");
  const auto forwarded =
      lines == 0 ? std::string() : req.get_header_value("X-Forwarded-For", lines - 1);
  return client_address(req.remote_addr, forwarded, app.trusted_proxies);
}

bool came_over_https(const App &app, const httplib::Request &req) {
  return app.trusted_proxies.contains(req.remote_addr) &&
         req.get_header_value("X-Forwarded-Proto") == "https";
}

std::optional<Audience> metrics_audience(const App &app, const httplib::Request &req) {
  // RFC 9110: the scheme is case-blind; "Bearer" with no token is a wrong token too.
  const auto authorization = req.get_header_value("Authorization");
  const auto space = authorization.find(' ');
  if (ascii_lowercase(authorization.substr(0, space)) == "bearer") {
    const auto token = space == std::string::npos ? "" : authorization.substr(space + 1);
    if (!auth::same_secret(token, app.metrics_token)) return std::nullopt;
    return Audience::desk;
  }
  const bool forwarded = req.has_header("X-Forwarded-For") || req.has_header("Forwarded");
  return is_loopback_address(req.remote_addr) && !forwarded ? Audience::desk : Audience::everyone;
}

std::vector<std::string> param_values(const httplib::Request &req, const char *name) {
  std::vector<std::string> values;
  for (size_t i = 0; i < req.get_param_value_count(name); ++i)
    values.push_back(req.get_param_value(name, i));
  return values;
}

void send_json(httplib::Response &res, std::string json, int status) {
  res.status = status;
  res.set_content(std::move(json), "application/json; charset=utf-8");
}

std::optional<int> requested_page(const httplib::Request &req) {
  return parse_page_number(param_values(req, "page"));
}

std::optional<PageSpan> list_page(const App &app, const httplib::Request &req,
                                  httplib::Response &res, int size) {
  const auto number = requested_page(req);
  if (!number) {
    send_error(app, res, 400, "Not a page number",
               "The page parameter must be a whole number from 1, like ?page=2.");
    return std::nullopt;
  }
  return PageSpan{*number, size};
}

void page_not_found(const App &app, httplib::Response &res, const std::string &what) {
  send_error(app, res, 404, "Not found", what);
}

void address_not_found(const App &app, httplib::Response &res) {
  page_not_found(app, res,
                 "Nothing lives at this address. The comparisons, tools and reviewers "
                 "are linked from the front page.");
}

bool past_the_end(const App &app, httplib::Response &res, const PageSpan &span,
                  bool nothing_on_it) {
  if (span.number == 1 || !nothing_on_it) return false;
  page_not_found(app, res,
                 "This list has fewer pages. Page 1 is at the same address without ?page=.");
  return true;
}

bool refuse_other_pages(const App &app, const httplib::Request &req, httplib::Response &res) {
  const auto span = list_page(app, req, res, 1);
  return !span || past_the_end(app, res, *span, true);
}

void answer_unknown_pair(App &app, httplib::Response &res, std::string_view pair,
                         const std::string &rest) {
  if (const auto renamed = app.store.pair_after_renames(pair))
    return moved_permanently(res, "/compare/" + *renamed + rest);
  page_not_found(app, res,
                 "There is no comparison at this address: it does not name two different tools "
                 "of this site.");
}

void answer_unknown_slug(App &app, httplib::Response &res, std::string_view kind,
                         std::string_view slug, const std::string &section, const std::string &rest,
                         const std::string &what) {
  if (const auto renamed = app.store.renamed_slug(kind, slug))
    return moved_permanently(res, section + *renamed + rest);
  page_not_found(app, res, what);
}

void answer_unknown_tool(App &app, httplib::Response &res, std::string_view slug,
                         const std::string &rest) {
  answer_unknown_slug(app, res, "tool", slug, "/tools/", rest,
                      "There is no tool with this address.");
}

void answer_unknown_reviewer(App &app, httplib::Response &res, std::string_view slug,
                             const std::string &rest) {
  answer_unknown_slug(app, res, "reviewer", slug, "/reviewers/", rest,
                      "There is no reviewer with this address.");
}

} // namespace verdict
