// The read-only JSON API, as a script or another site reads it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "auth/secrets.h"
#include "test_support.h"

using namespace verdict;
using nlohmann::json;

TEST_CASE("api: /api/tools lists every tool with the page's numbers, readable from any site") {
  test::SiteServer site;
  auto client = site.client();
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  const auto res = client.Get("/api/tools");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->get_header_value("Content-Type") == "application/json; charset=utf-8");
  CHECK(res->get_header_value("Access-Control-Allow-Origin") == "*");
  const auto body = json::parse(res->body);
  const auto tools = site.store().tools_by_name();
  REQUIRE(body["tools"].size() == tools.size());
  CHECK(body["page"] == 1);
  CHECK(body["next"].is_null());
  for (const auto &tool : body["tools"]) {
    if (tool["slug"] != "codestral-2-1") continue;
    CHECK(tool["name"] == "Codestral 2.1");
    CHECK(tool["url"] == "/tools/codestral-2-1");
    CHECK(tool["community"]["votes"] == 1);
    CHECK(tool["community"]["percent"] == 100);
    CHECK(tool["panel"]["reviews"].get<int>() > 0);
  }
  // An ETag answers 304, as for a page.
  const auto again = client.Get("/api/tools", {{"If-None-Match", res->get_header_value("ETag")}});
  CHECK(again->status == 304);
  CHECK(client.Get("/api/tools?page=2")->status == 404);
  CHECK(client.Get("/api/tools?page=x")->status == 400);
}

TEST_CASE("api: one tool and one comparison, and JSON errors for addresses that name nothing") {
  test::SiteServer site;
  auto client = site.client();
  const auto tool = client.Get("/api/tools/codestral-2-1");
  REQUIRE(tool->status == 200);
  const auto t = json::parse(tool->body);
  CHECK(t["pricing"]["checked_on"].is_string());
  CHECK(!t["reviews"].empty());
  CHECK(t["reviews"][0]["verdict"].get<std::string>().size() == 4);

  const auto pair = client.Get("/api/compare/cursor-background-agent-vs-codestral-2-1");
  REQUIRE(pair->status == 200);
  CHECK(pair->get_header_value("Access-Control-Allow-Origin") == "*");
  const auto c = json::parse(pair->body);
  CHECK(c["a"]["slug"] == "cursor-background-agent");
  CHECK(c["b"]["slug"] == "codestral-2-1");
  CHECK(c["published"] == true);
  CHECK(c["published_on"] == "2026-11-03");
  CHECK(c["picks"]["total"] == 0);
  CHECK(c["verdict"].get<std::string>().find("Too few reader votes") != std::string::npos);

  const auto missing = client.Get("/api/tools/no-such-tool");
  CHECK(missing->status == 404);
  CHECK(json::parse(missing->body)["error"] == "there is no tool with this address");
  CHECK(client.Get("/api/compare/no-such-pair")->status == 404);
  // Reads only: a write to the API is not a route.
  CHECK(client.Post("/api/tools", "", "application/json")->status == 405);
}

TEST_CASE("metrics: /metrics counts requests by route and status, their latency, votes, the "
          "reactors' own answers and the database's size, in Prometheus' text format") {
  test::TempDir dir;
  test::SiteServer site((dir.path / "site.db").string());
  auto client = site.client();
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  REQUIRE(client.Get("/tools/codestral-2-1?page=1")->status == 200);
  REQUIRE(client.Get("/tools/no-such-tool")->status == 404);
  REQUIRE(client.Get("/compare/cursor-background-agent-vs-codestral-2-1")->status == 200);
  REQUIRE(client.Get("/compare/cursor-background-agent-vs-codestral-2-1")->status == 200);
  const auto res = client.Get("/metrics");
  REQUIRE(res->status == 200);
  CHECK(res->get_header_value("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  const auto &text = res->body;
  CHECK(text.find("# TYPE verdict_requests_total counter\n") != std::string::npos);
  CHECK(text.find("verdict_requests_total{route=\"/tools/:param/vote\",status=\"303\"} 1\n") !=
        std::string::npos);
  CHECK(text.find("verdict_requests_total{route=\"/tools/:param\",status=\"404\"} 1\n") !=
        std::string::npos);
  CHECK(text.find("verdict_request_duration_seconds_bucket{le=\"+Inf\"}") != std::string::npos);
  CHECK(text.find("verdict_tool_votes 1\n") != std::string::npos);
  CHECK(text.find("verdict_pair_picks 0\n") != std::string::npos);
  // The second comparison request was the reactor's, from the shared cache.
  CHECK(text.find("verdict_shared_answers_total 0\n") == std::string::npos);
  const auto size_at = text.find("\nverdict_database_bytes ");
  REQUIRE(size_at != std::string::npos);
  CHECK(std::stod(text.substr(size_at + 24)) > 4096);
  CHECK(text.find("verdict_page_cache_bytes ") != std::string::npos);
  CHECK(text.find("verdict_card_images_bytes ") != std::string::npos);
}

namespace {

constexpr const char *kMetricsToken = "a-metrics-token-for-tests";

// Sign-ins that fail and one that works, a desk page and a reader's page: figures of both kinds.
void use_desk_and_site(test::SiteServer &site, httplib::Client &client) {
  test::add_editor(site.store(), "editor@example.com", auth::hash_password("a long desk password"));
  REQUIRE(test::post_form(client, "/admin/login", "email=editor%40example.com&password=wrong", "",
                          "203.0.113.9")
              ->status == 401);
  const auto session = test::sign_in_at_desk(client, "editor@example.com", "a long desk password");
  REQUIRE(test::get_at_desk(client, session, "/admin/subscribers.csv")->status == 200);
  REQUIRE(client.Get("/tools/codestral-2-1")->status == 200);
}

// The sum of every verdict_requests_total sample in a /metrics text.
uint64_t requests_counted(const std::string &text) {
  uint64_t sum = 0;
  for (size_t at = text.find("\nverdict_requests_total{"); at != std::string::npos;
       at = text.find("\nverdict_requests_total{", at + 1))
    sum += std::stoull(text.substr(text.find("} ", at) + 2));
  return sum;
}

uint64_t histogram_count(const std::string &text) {
  const auto at = text.find("\nverdict_request_duration_seconds_count ");
  REQUIRE(at != std::string::npos);
  return std::stoull(text.substr(at + 40));
}

} // namespace

TEST_CASE("metrics: a request through the proxy sees readers' figures only, none of the desk's, "
          "not even in the latency histogram's count") {
  test::SiteServer site; // trusts 127.0.0.1 as its proxy, as the tests' requests come from it
  auto client = site.client();
  use_desk_and_site(site, client);
  const auto res = client.Get("/metrics", {{"X-Forwarded-For", "203.0.113.9"}});
  REQUIRE(res->status == 200);
  const auto &text = res->body;
  CHECK(text.find("route=\"/tools/:param\",status=\"200\"") != std::string::npos);
  CHECK(text.find("/admin") == std::string::npos);
  CHECK(text.find("verdict_desk_") == std::string::npos);
  // The public histogram counts exactly the public requests: no sign-in hides in its total.
  CHECK(histogram_count(text) == requests_counted(text));
}

TEST_CASE("metrics: the desk's figures go to a request from this machine straight to the server, "
          "or with the metrics token, and a wrong token is refused") {
  test::SiteServer site([](App &app) { app.metrics_token = kMetricsToken; });
  auto client = site.client();
  use_desk_and_site(site, client);
  const auto desk_figures = [](const std::string &text) {
    return text.find("verdict_requests_total{route=\"/admin/login\",status=\"401\"} 1\n") !=
               std::string::npos &&
           text.find("verdict_requests_total{route=\"/admin/login\",status=\"303\"} 1\n") !=
               std::string::npos &&
           text.find("route=\"/admin/subscribers.csv\",status=\"200\"") != std::string::npos &&
           text.find("verdict_desk_request_duration_seconds_count ") != std::string::npos;
  };
  const auto local = client.Get("/metrics");
  REQUIRE(local->status == 200);
  CHECK(desk_figures(local->body));
  const auto with_token =
      client.Get("/metrics", {{"X-Forwarded-For", "203.0.113.9"},
                              {"Authorization", std::string("Bearer ") + kMetricsToken}});
  REQUIRE(with_token->status == 200);
  CHECK(desk_figures(with_token->body));
  for (const auto *wrong : {"Bearer a-metrics-token-for-test", "Bearer ", "Bearer x"}) {
    INFO(wrong);
    const auto refused =
        client.Get("/metrics", {{"X-Forwarded-For", "203.0.113.9"}, {"Authorization", wrong}});
    CHECK(refused->status == 401);
    CHECK(refused->get_header_value("WWW-Authenticate") == "Bearer");
    CHECK(refused->body.find("/admin") == std::string::npos);
    CHECK(refused->body.find("not this site's metrics token") != std::string::npos);
  }
  // A bearer token on a site that has none configured opens nothing either.
  test::SiteServer no_token;
  auto other = no_token.client();
  CHECK(
      other.Get("/metrics", {{"Authorization", std::string("Bearer ") + kMetricsToken}})->status ==
      401);
}
