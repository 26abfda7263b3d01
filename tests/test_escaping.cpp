// Content is data, never markup: every text field of the content format, filled with
// characters that mean something in HTML, comes out escaped on every page type.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <regex>
#include <set>

#include "assets/embedded.h"
#include "domain/content.h"
#include "test_support.h"

using namespace verdict;
using nlohmann::json;

namespace {

// Markup that must never reach a page as markup.
const std::string kHostile = "<x-hostile>&\"'";

// Fields whose values are identities or constrained words (slugs, kinds, dates): the format
// refuses markup in them, so they keep their bundled values.
const std::set<std::string> kConstrained = {"slug",         "category",          "entry", "tool",
                                            "reviewer",     "verdict",           "a",     "b",
                                            "published_on", "pricing_checked_on"};
const std::set<std::string> kAddresses = {"url", "pricing_source"};

// The bundled content with every free-text field (empty or not) replaced by a unique marker
// carrying kHostile; returns the markers so each can be looked for.
json hostile_content(std::vector<std::string> &markers) {
  auto content = json::parse(test::source_file("content/verdict.json"));
  const auto mark = [&](json &object, const std::string &where) {
    for (auto &[key, value] : object.items()) {
      if (kConstrained.count(key) || !value.is_string()) continue;
      std::string marker = where + "." + key + kHostile;
      if (kAddresses.count(key)) marker = "https://example.com/" + marker;
      value = marker;
      markers.push_back(marker);
    }
  };
  mark(content["site"], "site");
  for (auto &[section, items] : content.items()) {
    if (!items.is_array()) continue;
    for (size_t i = 0; i < items.size(); ++i)
      mark(items[i], section + "[" + std::to_string(i) + "]");
  }
  return content;
}

} // namespace

TEST_CASE("http: content full of HTML special characters is escaped on every page type") {
  std::vector<std::string> markers;
  const auto content = hostile_content(markers);
  const auto parsed = parse_content(content.dump());
  REQUIRE(parsed.errors.empty());
  REQUIRE(markers.size() > 40);

  test::SiteServer site;
  test::import_content(site.store(), parsed.content);
  auto client = site.client();

  std::vector<std::string> paths = {"/", "/tools", "/reviewers", "/subscribe", "/no/such/page",
                                    "/tools/no-such-tool", "/feed.xml",
                                    // an unpublished pair, in its canonical order
                                    "/compare/codestral-2-1-vs-mistral-3-small"};
  for (const auto &tool : content["tools"]) {
    paths.push_back("/tools/" + tool["slug"].get<std::string>());
    paths.push_back("/tools/" + tool["slug"].get<std::string>() + "/feed.xml");
    paths.push_back("/tools/" + tool["slug"].get<std::string>() + "/badge.svg");
  }
  for (const auto &reviewer : content["reviewers"]) {
    paths.push_back("/reviewers/" + reviewer["slug"].get<std::string>());
    paths.push_back("/reviewers/" + reviewer["slug"].get<std::string>() + "/feed.xml");
  }
  for (const auto &c : content["comparisons"]) {
    const auto pair = "/compare/" + c["a"].get<std::string>() + "-vs-" + c["b"].get<std::string>();
    paths.push_back(pair);
    // Its share card and badge: images are XML, where the same characters mean markup.
    for (const auto *image : {"/card.svg", "/badge.svg"})
      paths.push_back(pair + image);
  }
  // Search results show names, taglines, descriptions and quotes, the query echoed beside them.
  for (const auto *words :
       {"name", "tagline", "description", "quote", "x-hostile", "%3Cx-hostile%3E%26%22%27"})
    paths.push_back(std::string("/search?q=") + words);

  std::string everything; // every page, decoded, to find each marker somewhere
  for (const auto &path : paths) {
    const auto res = client.Get(path.c_str());
    REQUIRE(res);
    INFO(path);
    CHECK((res->status == 200 || res->status == 404));
    // A search marks the words it found, which could split the markup apart: the page
    // without its marks must not carry it either.
    const auto unmarked = std::regex_replace(res->body, std::regex("</?mark>"), "");
    CHECK(unmarked.find("<x-hostile>") == std::string::npos);
    CHECK(res->body.find("\"'") == std::string::npos);
    everything += test::decode_entities(res->body);
  }
  // Error pages made from what a visitor typed escape it too.
  const auto refused = test::post_form(client, "/tools/codestral-2-1/vote",
                                       "verdict=ship&%3Cx-hostile%3E%26%22%27=1");
  REQUIRE(refused);
  CHECK(refused->status == 400);
  CHECK(refused->body.find("<x-hostile>") == std::string::npos);
  CHECK(test::decode_entities(refused->body).find("<x-hostile>&\"'") != std::string::npos);

  for (const auto &marker : markers) {
    INFO(marker << " is on no page");
    CHECK(everything.find(marker) != std::string::npos);
  }
}

TEST_CASE("tool addresses must be http or https, so no page links to a script") {
  auto content = json::parse(test::source_file("content/verdict.json"));
  content["tools"][0]["url"] = "javascript:alert(1)";
  content["tools"][1]["pricing_source"] = "data:text/html,<script>alert(1)</script>";
  content["tools"][2]["url"] = "https://example.com/has space";
  const auto parsed = parse_content(content.dump());
  CHECK(test::has_error(parsed.errors,
                        "tools[0].url: must be an http:// or https:// address without spaces"));
  CHECK(test::has_error(
      parsed.errors,
      "tools[1].pricing_source: must be an http:// or https:// address without spaces"));
  CHECK(test::has_error(parsed.errors,
                        "tools[2].url: must be an http:// or https:// address without spaces"));
  CHECK(parsed.errors.size() == 3);
}

TEST_CASE("templates insert unescaped only the fragments Verdict renders itself") {
  // Every other value is {{escaped}}; a {{{value}}} or {{& value}} anywhere else would print
  // content as markup, whether or not today's content happens to hold any.
  const std::set<std::string> fragments = {
      "content", "card", "card_a", "card_b", "newsletter", "tool_table", "reviewer_list",
      "comparison_list", "related_list", "pagination", "vote_form", "pick_form", "bar", "readings",
      "pick_readings",
      "example_readings", // intervals in plain words (pages::parts::interval_readings)
      "structured_data",  // JSON written by nlohmann, < > & ' escaped
                          // (render/views.cpp)
      // Search results: escaped whole, then the matches marked (pages::marked_html)
      "marked_title", "marked_tagline", "marked_excerpt"};
  const std::regex unescaped(R"(\{\{\{\s*([^}\s]*)\s*\}\}\}|\{\{\s*&\s*([^}\s]*)\s*\}\})");
  size_t templates = 0;
  for (const auto &file : embedded_files()) {
    if (file.path.substr(0, 6) != "views/") continue;
    ++templates;
    const std::string text(file.bytes);
    INFO(file.path);
    CHECK(text.find("{{=") == std::string::npos); // no delimiter change to hide one behind
    for (std::sregex_iterator it(text.begin(), text.end(), unescaped), end; it != end; ++it) {
      const auto name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
      INFO(it->str());
      CHECK(fragments.count(name) == 1);
    }
  }
  CHECK(templates >= 10);
}
