// The read-only JSON API, as a script or another site reads it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

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
