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
