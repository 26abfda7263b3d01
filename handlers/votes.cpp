// The votes a reader casts. Each answers 303 See Other back to the page (post/redirect/get)
// so a reload never re-submits.
#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "handlers/request_parsing.h"
#include "handlers/responses.h"

namespace verdict::handlers {

namespace {

void bad_request(App &app, Response &res, const std::string &message) {
  send_error(app, res, 400, "That request could not be used", message);
}

std::string return_path(const FormParse &form, const std::string &fallback) {
  const auto it = form.fields.find("back");
  return it != form.fields.end() && is_local_return_path(it->second) ? it->second : fallback;
}

} // namespace

// POST /tools/:slug/vote — a reader's ship or skip on a tool, or its withdrawal.
//   verdict=ship|skip|withdraw   REQUIRED
//   back=/local/path             OPTIONAL  where to return (default: the tool's page)
void vote_on_tool(App &app, const Request &req, Response &res, std::string_view slug) {
  const auto form = parse_form(req.body, {"verdict", "back"});
  if (!form.ok()) return bad_request(app, res, form.error);
  const auto verdict = form.fields.count("verdict") ? form.fields.at("verdict") : "";
  if (verdict != "ship" && verdict != "skip" && verdict != "withdraw")
    return bad_request(app, res, "The vote must be ship, skip or withdraw.");
  if (form.fields.count("back") && !is_local_return_path(form.fields.at("back")))
    return bad_request(app, res, "The form's return address is not a page of this site.");
  const auto tool = app.store.tool_by_slug(slug);
  if (!tool) return send_error(app, res, 404, "Not found", "There is no tool with this address.");

  const auto voter = voter_for_write(req, res);
  std::optional<Verdict> choice;
  if (verdict != "withdraw") choice = verdict == "ship" ? Verdict::ship : Verdict::skip;
  app.store.cast_tool_vote(voter, tool->id, choice);
  app.recent_writers.note(voter);
  see_other(res, return_path(form, "/tools/" + tool->slug) + "#tool-" + tool->slug);
}

// POST /compare/:pair/vote — the reader's head-to-head pick between the pair's two tools.
//   pick=a|b|withdraw   REQUIRED   a and b in the order of the address
void vote_on_pair(App &app, const Request &req, Response &res, std::string_view pair) {
  const auto form = parse_form(req.body, {"pick"});
  if (!form.ok()) return bad_request(app, res, form.error);
  const auto pick = form.fields.count("pick") ? form.fields.at("pick") : "";
  if (pick != "a" && pick != "b" && pick != "withdraw")
    return bad_request(app, res, "The pick must be a, b or withdraw.");
  bool canonical_order = true;
  const auto comparison = app.store.resolve_pair(pair, canonical_order);
  if (!comparison)
    return send_error(app, res, 404, "Not found", "There is no comparison at this address.");

  const auto &c = *comparison;
  std::optional<int64_t> picked;
  if (pick != "withdraw") picked = pick == "a" ? c.a.id : c.b.id;
  const auto voter = voter_for_write(req, res);
  app.store.cast_pair_vote(voter, c.a.id, c.b.id, picked);
  app.recent_writers.note(voter);
  const auto canonical =
      canonical_order ? pair_slug(c.a.slug, c.b.slug) : pair_slug(c.b.slug, c.a.slug);
  see_other(res, "/compare/" + canonical + "#community");
}

} // namespace verdict::handlers
