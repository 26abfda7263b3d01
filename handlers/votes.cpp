// The votes a reader casts. Each answers 303 See Other back to the page (post/redirect/get)
// so a reload never re-submits, once the vote is on disk; the worker does not wait for that
// (middleware/guards.h vote_write: each handler returns the vote its answer waits for). A vote is
// taken only from the form of a page this site made (its token, auth/vote_tokens.h); every vote
// taken is stored, and the counting rule (domain/counting.h) decides, as it is written, whether the
// published numbers count it.
#include "auth/secrets.h"
#include "auth/vote_tokens.h"
#include "domain/counting.h"
#include "domain/numbers.h"
#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "middleware/sessions.h"

namespace verdict::handlers {

namespace {

// Answers 400 with what was wrong; no vote is taken.
std::nullopt_t bad_request(App &app, Response &res, const std::string &message) {
  send_error(app, res, 400, "That request could not be used", message);
  return std::nullopt;
}

// Answers 404 for an address no tool or comparison has; no vote is taken.
std::nullopt_t not_found(App &app, Response &res, const std::string &message) {
  send_error(app, res, 404, "Not found", message);
  return std::nullopt;
}

std::string return_path(const FormParse &form, const std::string &fallback) {
  const auto it = form.fields.find("back");
  return it != form.fields.end() && is_local_return_path(it->second) ? it->second : fallback;
}

// How long the vote's page has been open, from the token its form carried for `target`; empty
// when the vote did not come from a page of this site made for it recently, and then the
// answer is a 403 that says why and links back to `page`. Nothing is written.
std::optional<int64_t> seconds_on_page(App &app, Response &res, const FormParse &form,
                                       const std::string &target, const std::string &page) {
  const auto it = form.fields.find("token");
  const auto token = it == form.fields.end() ? std::string() : it->second;
  const auto check = auth::check_vote_token(app.votes.token_key, token, target, app.clock.now());
  if (!check.fault) return check.seconds_on_page;
  std::string message;
  switch (*check.fault) {
  case auth::VoteTokenFault::missing:
    message = "A vote is taken only from the form on its page, which carries a token this site "
              "made for it. This vote came without one: open the page and vote there.";
    break;
  case auth::VoteTokenFault::not_for_this:
  case auth::VoteTokenFault::from_future:
    message = "This vote's token was not made by this site for this vote, so it was not taken. "
              "Open the page and vote there.";
    break;
  case auth::VoteTokenFault::expired:
    message = "The page you voted from was loaded more than " +
              count_phrase(kVotePageLifetimeSeconds / 3600, "hour", "hours") +
              " ago, so the vote was not taken. Here is the page again: vote once more.";
    break;
  }
  send_error(app, res, 403, "Vote not taken", message, page, "Back to the page");
  return std::nullopt;
}

// The reader's ballot: their voter id (minting one, with its cookie, for a first vote), the
// network they vote from as a keyed hash, today's date and how long the page was open.
Ballot ballot_for(App &app, const Request &req, Response &res, const FormParse &form,
                  int64_t on_page) {
  const auto client = client_of(app, req);
  return {voter_for_write(app, req, res),
          auth::keyed_hash(app.votes.network_key, network_of(client)),
          app.today(),
          on_page,
          form.fields.at("token"),
          auth::keyed_hash(app.votes.network_key, wider_network_of(client))};
}

} // namespace

// POST /tools/:slug/vote — a reader's ship or skip on a tool, or its withdrawal.
//   verdict=ship|skip|withdraw   REQUIRED
//   token=…                      REQUIRED  the vote token of the page the form is on
//   back=/local/path             OPTIONAL  where to return (default: the tool's page)
std::optional<Write> vote_on_tool(App &app, StoreReads &site, const Request &req, Response &res,
                                  const UrlCaptures &url) {
  const std::string &slug = url[0];
  const auto form = parse_form(req.body, {"verdict", "token", "back"});
  if (!form.ok()) return bad_request(app, res, form.error);
  const auto verdict = form.fields.count("verdict") ? form.fields.at("verdict") : "";
  if (!verdict_from_word(verdict) && verdict != "withdraw")
    return bad_request(app, res, "The vote must be ship, skip or withdraw.");
  if (form.fields.count("back") && !is_local_return_path(form.fields.at("back")))
    return bad_request(app, res, "The form's return address is not a page of this site.");
  // A tool renamed since its page was read is the tool the reader voted on: the vote counts
  // for it under its new address (its token names the tool, not the address).
  const auto tool = site.tool_to_vote_on(slug);
  if (!tool) return not_found(app, res, "There is no tool with this address.");
  const auto page = return_path(form, "/tools/" + tool->slug);
  const auto on_page = seconds_on_page(app, res, form, auth::tool_vote_target(tool->id), page);
  if (!on_page) return std::nullopt;

  const auto ballot = ballot_for(app, req, res, form, *on_page);
  const auto choice = verdict_from_word(verdict); // none: withdraw
  app.recent_writers.note(ballot.voter);
  see_other(res, page + "#tool-" + tool->slug);
  return CastToolVote{ballot, tool->id, choice, app.votes.batched}; // the 303 leaves once durable
}

// POST /compare/:pair/vote — the reader's head-to-head pick between the pair's two tools.
//   pick=a|b|withdraw   REQUIRED   a and b in the order of the address
//   token=…             REQUIRED   the vote token of the comparison's page
std::optional<Write> vote_on_pair(App &app, StoreReads &site, const Request &req, Response &res,
                                  const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto form = parse_form(req.body, {"pick", "token"});
  if (!form.ok()) return bad_request(app, res, form.error);
  const auto pick = form.fields.count("pick") ? form.fields.at("pick") : "";
  if (pick != "a" && pick != "b" && pick != "withdraw")
    return bad_request(app, res, "The pick must be a, b or withdraw.");
  bool canonical_order = true;
  auto comparison = site.resolve_pair(pair, canonical_order);
  if (!comparison) // renamed since its page was read: the same pair under its new address
    if (const auto renamed = site.pair_after_renames(pair))
      comparison = site.resolve_pair(*renamed, canonical_order);
  if (!comparison) return not_found(app, res, "There is no comparison at this address.");

  const auto &c = *comparison;
  const auto canonical =
      canonical_order ? pair_slug(c.a.slug, c.b.slug) : pair_slug(c.b.slug, c.a.slug);
  const auto page = "/compare/" + canonical;
  const auto on_page =
      seconds_on_page(app, res, form, auth::pair_vote_target(c.a.id, c.b.id), page);
  if (!on_page) return std::nullopt;

  std::optional<int64_t> picked;
  if (pick != "withdraw") picked = pick == "a" ? c.a.id : c.b.id;
  const auto ballot = ballot_for(app, req, res, form, *on_page);
  app.recent_writers.note(ballot.voter);
  see_other(res, page + "#community");
  return CastPairVote{ballot, c.a.id, c.b.id, picked, app.votes.batched};
}

} // namespace verdict::handlers
