// A voter's own page (middleware/page_answers.h): the page every reader shares with the voter's
// own votes put in its voter places, private and with an ETag of its own; and the same page as
// a reactor gives it (voter_answers), without a worker, when the voter's votes on it are known.
#include "middleware/guards.h"

#include <mutex>
#include <optional>
#include <vector>

#include "middleware/page_answers.h"
#include "middleware/request_parsing.h"
#include "middleware/responses.h"
#include "transport/cache_policy.h"
#include "transport/security_headers.h"

namespace verdict::guards {

using namespace transport; // the socket layer's types: headers, answers, limits

using httplib::Request;
using httplib::Response;

namespace {

// A voter's own votes on the tools a page is about.
VoterChoices choices_of(StoreReads &site, const std::string &voter,
                        const pages::PersonalPage &page) {
  if (page.b_id != 0) return site.voter_choices(voter, page.a_id, page.b_id);
  return site.voter_choices_on_tool(voter, page.a_id);
}

// Which rendering each of a page's voter places shows for this voter; none for a page without
// such places. Read from the database the first time, then kept with the page.
std::vector<size_t> shown_to(StoreReads &site, const std::string &voter, const CachedPage &shared) {
  if (!shared.personal) return {};
  if (auto kept = shared.shown_to_voters.find(voter)) return std::move(*kept);
  auto shown = pages::renderings_for(*shared.personal, choices_of(site, voter, *shared.personal));
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

OwnPage own_page(StoreReads &site, const std::string &voter, const CachedPage &shared) {
  const auto shown = shown_to(site, voter, shared);
  return {shared.personal ? pages::page_for(*shared.personal, shown) : shared.body,
          voter_etag(shared, shown)};
}

// The headers of a voter's page but its length and ETag.
transport::Headers voter_headers(const CachedPage &shared) {
  transport::Headers headers = {
      {"Vary", vary_for("Cookie", shared.content_type)},
      {"Content-Type", shared.content_type},
      {"Cache-Control", std::string(cache_control_of(CachePolicy::personal_page))}};
  for (const auto &[name, value] : security_headers())
    headers.emplace_back(name, value);
  return headers;
}

} // namespace

void send_own_page(StoreReads &site, const Request &req, Response &res, const std::string &voter,
                   const CachedPage &shared) {
  auto own = own_page(site, voter, shared);
  res.status = 200;
  res.set_content(std::move(own.body), shared.content_type.c_str());
  set_cache_policy(res, CachePolicy::personal_page);
  answer_not_modified_if_matching(req, res, own.etag);
}

CookieAnswers voter_answers(App &app, const TransportLimits &limits) {
  return [&app, keep_alive = keep_alive_value(limits)](std::string_view target,
                                                       std::string_view cookie, std::string &out) {
    const auto voter = app.voter_as_kept(voter_from_cookie(cookie));
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

} // namespace verdict::guards
