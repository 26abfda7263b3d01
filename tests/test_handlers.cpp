#include <catch2/catch.hpp>

#include "auth/vote_tokens.h"
#include "handlers/handlers.h"
#include "render/pages.h"
#include "test_support.h"

using namespace verdict;

namespace {
struct Fixture {
  std::unique_ptr<Store> store = test::seeded_store();
  Views views;
  App app{*store, views};
};

// "&token=…": the token a page made a minute ago carries for a vote on `target`
// (auth/vote_tokens.h tool_vote_target, pair_vote_target).
std::string token_field(const App &app, const std::string &target) {
  return "&token=" + auth::vote_token(app.votes.token_key, target, app.clock.now() - 60);
}

std::string tool_token(Fixture &f, const std::string &slug) {
  return token_field(f.app, auth::tool_vote_target(f.store->tool_by_slug(slug)->id));
}

// A vote handler's write submitted as the route's guard submits it (middleware/guards.h
// vote_write): none when the handler refused.
void cast(Fixture &f, const std::optional<Write> &write) {
  if (write) REQUIRE(f.app.writes->submit(*write).done());
}

httplib::Request form_post(std::string body, std::string cookie = "") {
  httplib::Request req;
  req.method = "POST";
  req.body = std::move(body);
  req.set_header("Content-Type", "application/x-www-form-urlencoded");
  if (!cookie.empty()) req.set_header("Cookie", "verdict_voter=" + cookie);
  return req;
}
} // namespace

TEST_CASE("handler: a first vote answers 303 back to the page and sets an HttpOnly Lax cookie") {
  Fixture f;
  httplib::Response res;
  cast(f, handlers::vote_on_tool(
              f.app, f.app.store,
              form_post("verdict=ship&back=/compare/cursor-background-agent-vs-codestral-2-1" +
                        tool_token(f, "codestral-2-1")),
              res, {"codestral-2-1"}));
  CHECK(res.status == 303);
  CHECK(res.get_header_value("Location") ==
        "/compare/cursor-background-agent-vs-codestral-2-1#tool-codestral-2-1");
  const auto cookie = res.get_header_value("Set-Cookie");
  CHECK(cookie.find("HttpOnly") != std::string::npos);
  CHECK(cookie.find("SameSite=Lax") != std::string::npos);
  CHECK(cookie.find("Path=/;") != std::string::npos);          // the same reader on every page
  CHECK(cookie.find("Max-Age=31536000") != std::string::npos); // and for a year
  CHECK(f.store->tool_by_slug("codestral-2-1")->community.ships == 1);
}

TEST_CASE("handler: a returning voter keeps their id and no new cookie is set") {
  Fixture f;
  httplib::Response res;
  cast(f, handlers::vote_on_tool(
              f.app, f.app.store,
              form_post("verdict=skip" + tool_token(f, "codestral-2-1"), std::string(32, 'a')), res,
              {"codestral-2-1"}));
  CHECK(res.status == 303);
  CHECK_FALSE(res.has_header("Set-Cookie"));
  CHECK(res.get_header_value("Location") == "/tools/codestral-2-1#tool-codestral-2-1");
  const auto id = f.store->tool_by_slug("codestral-2-1")->id;
  CHECK(f.store->voter_choices_on_tool(std::string(32, 'a'), id).on_a == Verdict::skip);
}

TEST_CASE("handler: bad votes get a 4xx page that says what was wrong, and nothing is written") {
  Fixture f;
  struct Case {
    std::string body;
    std::string slug;
    int status;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"verdict=maybe", "codestral-2-1", 400, "ship, skip or withdraw"},
      {"verdict=ship&admin=1", "codestral-2-1", 400, "unknown field"},
      {"verdict=ship&back=https://evil.example/", "codestral-2-1", 400, "return address"},
      {"verdict=%GG", "codestral-2-1", 400, "percent-encoding"},
      {"", "codestral-2-1", 400, "ship, skip or withdraw"},
      {"verdict=ship", "no-such-tool", 404, "no tool"},
  };
  for (const auto &c : cases) {
    httplib::Response res;
    cast(f, handlers::vote_on_tool(f.app, f.app.store, form_post(c.body), res, {c.slug}));
    INFO(c.body);
    CHECK(res.status == c.status);
    CHECK(test::visible_text(res.body).find(c.says) != std::string::npos);
    CHECK_FALSE(res.has_header("Set-Cookie"));
  }
  CHECK(f.store->tool_by_slug("codestral-2-1")->community.total == 0);
}

TEST_CASE("handler: a head-to-head pick counts for the side named in the address") {
  Fixture f;
  httplib::Response res;
  const auto a = f.store->tool_by_slug("cursor-background-agent")->id;
  const auto b = f.store->tool_by_slug("codestral-2-1")->id;
  cast(f, handlers::vote_on_pair(
              f.app, f.app.store,
              form_post("pick=b" + token_field(f.app, auth::pair_vote_target(b, a))), res,
              {"cursor-background-agent-vs-codestral-2-1"}));
  CHECK(res.status == 303);
  CHECK(res.get_header_value("Location") ==
        "/compare/cursor-background-agent-vs-codestral-2-1#community");
  CHECK(test::pair_tally(*f.store, a, b).b == 1);
  CHECK(test::pair_tally(*f.store, a, b).a == 0);
}

TEST_CASE("handler: subscribing validates the address and a duplicate is not an error") {
  Fixture f;
  httplib::Response ok, again, bad;
  handlers::subscribe(f.app, f.app.store, form_post("email=reader%40example.com"), ok, {});
  handlers::subscribe(f.app, f.app.store, form_post("email=reader%40example.com"), again, {});
  handlers::subscribe(f.app, f.app.store, form_post("email=not-an-address"), bad, {});
  CHECK(ok.status == 303);
  CHECK(ok.get_header_value("Location").rfind("/subscribed?m=", 0) == 0);
  CHECK(again.status == 303);
  CHECK(bad.status == 400);
  CHECK(test::visible_text(bad.body).find("does not look right") != std::string::npos);
  CHECK(f.store->subscriber_counts().total() == 1);
}

TEST_CASE(
    "handler: the reverse of a published pair redirects permanently and an unknown pair is 404") {
  Fixture f;
  httplib::Request req;
  httplib::Response reverse, unknown;
  CHECK_FALSE(handlers::show_comparison(f.app, f.app.store, req, reverse,
                                        {"codestral-2-1-vs-cursor-background-agent"}));
  CHECK(reverse.status == 301);
  CHECK(reverse.get_header_value("Location") ==
        "/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK_FALSE(
      handlers::show_comparison(f.app, f.app.store, req, unknown, {"codestral-2-1-vs-nothing"}));
  CHECK(unknown.status == 404);
  CHECK(test::visible_text(unknown.body).find("Not found") != std::string::npos);
}

TEST_CASE("handler: an unpublished pair renders, marked as not an editor's pick") {
  Fixture f;
  httplib::Request req;
  httplib::Response res;
  const auto page =
      handlers::show_comparison(f.app, f.app.store, req, res, {"codestral-2-1-vs-mistral-3-small"});
  REQUIRE(page);
  const auto text = test::visible_text(pages::page_for(*page, VoterChoices{}));
  CHECK(text.find("Codestral 2.1 vs Mistral 3 Small") != std::string::npos);
  CHECK(text.find("Not an editor's pick") != std::string::npos);
}

TEST_CASE("handler: pricing checked more than 90 days ago is marked possibly out of date") {
  Fixture f;
  f.store->set_today([] { return std::string("2026-11-21"); });
  httplib::Request req;
  httplib::Response res;
  const auto stale =
      handlers::show_tool(f.app, f.app.store, req, res, {"code-llama-4"}); // checked 2026-07-15
  REQUIRE(stale);
  CHECK(test::visible_text(pages::page_for(*stale, VoterChoices{}))
            .find("Checked 2026-07-15 — possibly out of date") != std::string::npos);
  const auto fresh =
      handlers::show_tool(f.app, f.app.store, req, res, {"codestral-2-1"}); // checked 2026-10-30
  REQUIRE(fresh);
  CHECK(test::visible_text(pages::page_for(*fresh, VoterChoices{})).find("possibly out of date") ==
        std::string::npos);
}
