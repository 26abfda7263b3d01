// Share cards and badges as the sites that show them read them: a comparison's card as SVG
// and as the PNG its page names for og:image, kept until the comparison changes, and the
// badges a tool's page offers to embed.
#include <catch2/catch.hpp>

#include <cctype>
#include <regex>
#include <set>
#include <thread>

#include "domain/numbers.h"
#include "render/text_fit.h"
#include "test_support.h"

using namespace verdict;

namespace {

const std::string kPublished = "/compare/cursor-background-agent-vs-codestral-2-1";
const std::string kUnpublished = "/compare/code-llama-4-vs-codestral-2-1";
const std::string kHostileName = "A<&\"B";

// The first reason `xml` is not well-formed XML, or "" when it is: one root element, every
// tag closed in order, quoted attributes without '<', no attribute twice, every '&' a
// character or predefined entity reference, only characters XML allows.
std::string xml_fault(const std::string &xml) {
  const auto at_name = [&](size_t &i) {
    const auto start = i;
    while (i < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[i])) ||
                              std::string_view("-_:.").find(xml[i]) != std::string_view::npos))
      ++i;
    return xml.substr(start, i - start);
  };
  const auto is_reference = [&](size_t i) {
    const auto end = xml.find(';', i);
    if (end == std::string::npos) return false;
    static const std::regex reference("amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+");
    return std::regex_match(xml.substr(i + 1, end - i - 1), reference);
  };
  const auto skip_spaces = [&](size_t &i) {
    while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i])))
      ++i;
  };
  for (const char c : xml)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return "a control character";
  size_t i = 0;
  if (xml.starts_with("<?xml")) {
    i = xml.find("?>");
    if (i == std::string::npos) return "an unclosed declaration";
    i += 2;
  }
  std::vector<std::string> open;
  bool had_root = false;
  while (i < xml.size()) {
    if (xml[i] == '&' && !is_reference(i)) return "a bare & at " + std::to_string(i);
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i])))
        return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    if (xml.compare(i, 4, "<!--") == 0) {
      i = xml.find("-->", i);
      if (i == std::string::npos) return "an unclosed comment";
      i += 3;
      continue;
    }
    if (xml.compare(i, 2, "</") == 0) {
      i += 2;
      const auto name = at_name(i);
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
      skip_spaces(i);
      if (i >= xml.size() || xml[i] != '>') return "an unfinished </" + name + ">";
      ++i;
      continue;
    }
    ++i;
    const auto name = at_name(i);
    if (name.empty()) return "a '<' that starts no tag at " + std::to_string(i);
    if (open.empty() && had_root) return "a second root <" + name + ">";
    had_root = true;
    std::set<std::string> attributes;
    while (true) {
      skip_spaces(i);
      if (i >= xml.size()) return "an unfinished <" + name + ">";
      if (xml.compare(i, 2, "/>") == 0) {
        i += 2;
        break;
      }
      if (xml[i] == '>') {
        ++i;
        open.push_back(name);
        break;
      }
      const auto attribute = at_name(i);
      if (attribute.empty() || !attributes.insert(attribute).second)
        return "a bad or repeated attribute in <" + name + ">";
      skip_spaces(i);
      if (i >= xml.size() || xml[i] != '=') return "an attribute without a value";
      ++i;
      skip_spaces(i);
      const char quote = i < xml.size() ? xml[i] : '\0';
      if (quote != '"' && quote != '\'') return "an unquoted attribute value";
      for (++i; i < xml.size() && xml[i] != quote; ++i) {
        if (xml[i] == '<') return "a '<' in an attribute value";
        if (xml[i] == '&' && !is_reference(i)) return "a bare & in an attribute value";
      }
      if (i >= xml.size()) return "an unclosed attribute value";
      ++i;
    }
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return had_root ? "" : "no root element";
}

uint32_t big_endian(const std::string &bytes, size_t at) {
  uint32_t value = 0;
  for (size_t k = 0; k < 4; ++k)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
  return value;
}

// A tool of the bundled category, with its name and tagline as given.
ContentTool tool_with_tagline(const std::string &slug, const std::string &name,
                              const std::string &tagline) {
  return {slug, name, "developer-tools", tagline, "A tool.", "Free", "", "", "Free.", "", ""};
}

// Adds two tools named `a_name` and `b_name` and publishes their comparison; its address.
std::string publish_pair(Store &store, const std::string &a_name, const std::string &b_name) {
  test::create_tool(store, tool_with_tagline("tool-a", a_name, "The first <tagline> & \"quotes\""),
                    "test");
  test::create_tool(store, tool_with_tagline("tool-b", b_name, "The second one"), "test");
  test::create_comparison(store, {"tool-a", "tool-b", "2026-11-20", "", ""}, "test");
  return "/compare/tool-a-vs-tool-b";
}

// The value of the meta tag `property` (or name) in a page, entities decoded.
std::string meta_content(const std::string &html, const std::string &property) {
  const std::regex meta("<meta (?:property|name)=\"" + property + "\" content=\"([^\"]*)\">");
  std::smatch match;
  if (!std::regex_search(html, match, meta)) return {};
  return test::decode_entities(match[1].str());
}

// The text of the textarea `id`, entities decoded: what a reader copies.
std::string textarea(const std::string &html, const std::string &id) {
  const std::regex area("<textarea[^>]* id=\"" + id + "\"[^>]*>([^<]*)</textarea>");
  std::smatch match;
  if (!std::regex_search(html, match, area)) return {};
  return test::decode_entities(match[1].str());
}

} // namespace

TEST_CASE("cards: a published comparison's card is well-formed SVG naming both tools, every "
          "text escaped") {
  test::SiteServer site;
  const auto path = publish_pair(site.store(), kHostileName, "Beta");
  auto client = site.client();
  const auto card = client.Get((path + "/card.svg").c_str());
  REQUIRE(card);
  CHECK(card->status == 200);
  CHECK(card->get_header_value("Content-Type") == "image/svg+xml");
  CHECK(xml_fault(card->body) == "");
  CHECK(card->body.find("A&lt;&amp;&quot;B") != std::string::npos);
  CHECK(card->body.find(kHostileName) == std::string::npos);
  CHECK(card->body.find("&lt;tagline&gt;") != std::string::npos);
  CHECK(card->body.find("<tagline>") == std::string::npos);
  CHECK(card->body.find("Beta") != std::string::npos);
  CHECK(card->body.find("width=\"1200\" height=\"630\"") != std::string::npos);
  CHECK(card->body.find("font-family=\"DejaVu Sans") != std::string::npos);

  // The seed comparison: its numbers as the page's verdict at a glance gives them.
  const auto seed = client.Get((kPublished + "/card.svg").c_str());
  REQUIRE(seed->status == 200);
  CHECK(xml_fault(seed->body) == "");
  for (const auto *text :
       {"Cursor Background Agent", "Codestral 2.1", "PANEL SHIP", "100%", "4 of 4 reviews",
        "No votes yet", "THE EDITOR&apos;S BOTTOM LINE", "Ship with Cursor Background Agent if"})
    CHECK(seed->body.find(text) != std::string::npos);
}

TEST_CASE("cards: names too long for the card are cut with an ellipsis, never run off it") {
  test::SiteServer site;
  const std::string long_name =
      "An Extraordinarily Long Tool Name That Keeps Going Well Past Any Card Edge";
  const auto path = publish_pair(site.store(), long_name, long_name + " Two");
  auto client = site.client();
  const auto card = client.Get((path + "/card.svg").c_str());
  REQUIRE(card->status == 200);
  CHECK(xml_fault(card->body) == "");
  CHECK(card->body.find(">" + long_name + "<") == std::string::npos);
  CHECK(card->body.find("…</text>") != std::string::npos);
  // The whole names are still in the card's accessible title.
  CHECK(card->body.find("<title id=\"card-title\">" + long_name + " vs ") != std::string::npos);
}

TEST_CASE("cards: text is measured in the card's fonts and cut or wrapped to its box") {
  const std::string name = "Cursor v0.50 – Background Agent & Codebase Refactoring";
  CHECK(fit_line(name, Face::serif_bold, 34, 2000) == name);
  const auto cut = fit_line(name, Face::serif_bold, 34, 300);
  CHECK(cut.ends_with("…"));
  CHECK(text_width(cut, Face::serif_bold, 34) <= 300);
  CHECK(name.starts_with(cut.substr(0, cut.size() - std::string("…").size())));
  // Wider faces and sizes take more room; characters DejaVu lacks count as wide.
  CHECK(text_width("Codestral", Face::serif_bold, 20) > text_width("Codestral", Face::sans, 20));
  CHECK(text_width("代码", Face::sans, 20) >= 40);

  const auto lines = wrap_lines("one two three four five six seven eight nine ten eleven twelve",
                                Face::sans, 20, 120, 2);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "one two");
  CHECK(lines[1].ends_with("…"));
  for (const auto &line : lines)
    CHECK(text_width(line, Face::sans, 20) <= 120);
  // A word longer than a line is broken, not left to overflow.
  const auto broken = wrap_lines("Supercalifragilisticexpialidocious", Face::sans, 20, 100, 3);
  REQUIRE(broken.size() == 3);
  for (const auto &line : broken)
    CHECK(text_width(line, Face::sans, 20) <= 100);

  // Whatever bytes content holds, the text is XML's: no control characters, valid UTF-8.
  CHECK(plain_text("tab\there\x01\x7f\xff!") == "tab here\uFFFD!");
  CHECK(plain_text("caf\xc3\xa9 \xe2\x80\x94 ok") == "café — ok");
}

TEST_CASE("cards: the PNG card is the SVG drawn at 1200×630") {
  test::SiteServer site;
  auto client = site.client();
  const auto png = client.Get((kPublished + "/card.png").c_str());
  REQUIRE(png);
  CHECK(png->status == 200);
  CHECK(png->get_header_value("Content-Type") == "image/png");
  REQUIRE(png->body.size() > 1000);
  CHECK(png->body.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(png->body.substr(12, 4) == "IHDR");
  CHECK(big_endian(png->body, 16) == 1200);
  CHECK(big_endian(png->body, 20) == 630);
}

TEST_CASE("cards: readers asking for cards at once all get the same pictures") {
  test::SiteServer site;
  const std::vector<std::string> cards = {kPublished + "/card.png",
                                          "/compare/cursor-background-agent-vs-mistral-small-3-1/"
                                          "card.png"};
  std::vector<std::vector<std::string>> seen(6);
  std::vector<std::thread> readers;
  int readers_started = 0;
  for (auto &bodies : seen)
    readers.emplace_back(
        [&site, &cards, &bodies, address = "10.40." + std::to_string(++readers_started) + ".7"] {
          auto client = site.client();
          for (const auto &card : cards) {
            const auto res = client.Get(card.c_str(), {{"X-Forwarded-For", address}});
            bodies.push_back(res && res->status == 200 ? res->body : "");
          }
        });
  for (auto &reader : readers)
    reader.join();
  for (const auto &bodies : seen) {
    REQUIRE(bodies.size() == 2);
    CHECK(!bodies[0].empty());
    CHECK(bodies[0] != bodies[1]);
    CHECK(bodies == seen.front());
  }
}

TEST_CASE("cards: a published comparison names its PNG card as og:image, absolute under the "
          "site's address, and that address answers with the picture") {
  test::SiteServer site(test::SiteServer::BaseUrl{"https://verdict.example"});
  auto client = site.client();
  const auto page = client.Get(kPublished.c_str());
  REQUIRE(page->status == 200);
  const auto image = meta_content(page->body, "og:image");
  CHECK(image == "https://verdict.example" + kPublished + "/card.png");
  CHECK(meta_content(page->body, "twitter:image") == image);
  CHECK(meta_content(page->body, "twitter:card") == "summary_large_image");
  CHECK(meta_content(page->body, "og:image:width") == "1200");
  CHECK(meta_content(page->body, "og:image:height") == "630");
  CHECK(meta_content(page->body, "og:image:alt").starts_with("Cursor Background Agent vs "));
  const auto png = client.Get(image.substr(std::string("https://verdict.example").size()).c_str());
  REQUIRE(png);
  CHECK(png->status == 200);
  CHECK(png->get_header_value("Content-Type") == "image/png");

  // A pair nobody published has no card to name: a plain summary, and its card is not found.
  const auto unpublished = client.Get(kUnpublished.c_str());
  REQUIRE(unpublished->status == 200);
  CHECK(meta_content(unpublished->body, "og:image").empty());
  CHECK(meta_content(unpublished->body, "twitter:card") == "summary");
  CHECK(client.Get((kUnpublished + "/card.png").c_str())->status == 404);
  CHECK(client.Get((kUnpublished + "/card.svg").c_str())->status == 404);
}

TEST_CASE("cards: without a configured address the page names the card by its path, never by "
          "the Host a client sent") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get(kPublished.c_str(), {{"Host", "evil.example"}});
  REQUIRE(page->status == 200);
  CHECK(meta_content(page->body, "og:image") == kPublished + "/card.png");
  CHECK(page->body.find("evil.example") == std::string::npos);
}

TEST_CASE("cards: a card is kept: the same bytes twice, 304 for its ETag, drawn again only "
          "when a vote or an edit changes it") {
  test::SiteServer site;
  auto client = site.client();
  const auto first = client.Get((kPublished + "/card.png").c_str());
  const auto second = client.Get((kPublished + "/card.png").c_str());
  REQUIRE(first->status == 200);
  REQUIRE(second->status == 200);
  CHECK(first->body == second->body);
  const auto etag = first->get_header_value("ETag");
  CHECK(!etag.empty());
  CHECK(second->get_header_value("ETag") == etag);
  CHECK(first->get_header_value("Cache-Control").find("public") == 0);
  const auto unchanged = client.Get((kPublished + "/card.png").c_str(), {{"If-None-Match", etag}});
  CHECK(unchanged->status == 304);
  CHECK(unchanged->body.empty());

  // A vote on a tool the card does not show moves the site on, but the card is the same
  // picture, and it is not drawn again.
  const auto kept = site.app().card_images.bytes();
  CHECK(kept > 0);
  REQUIRE(test::post_form(client, "/tools/code-llama-4/vote", "verdict=ship")->status == 303);
  const auto after_other_vote = client.Get((kPublished + "/card.png").c_str());
  CHECK(after_other_vote->get_header_value("ETag") == etag);
  CHECK(site.app().card_images.bytes() == kept);

  // A vote on one of its tools changes the card.
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  const auto after_vote = client.Get((kPublished + "/card.png").c_str());
  REQUIRE(after_vote->status == 200);
  CHECK(after_vote->get_header_value("ETag") != etag);
  CHECK(after_vote->body != first->body);
  const auto svg = client.Get((kPublished + "/card.svg").c_str());
  CHECK(svg->body.find(">1 vote<") != std::string::npos);

  // So does the editor's bottom line, which the card shows in place of the computed statement.
  auto comparison = *site.store().comparison_content("cursor-background-agent-vs-codestral-2-1");
  comparison.bottom_line = "Ship Codestral for pipelines.";
  test::update_comparison(site.store(), "cursor-background-agent-vs-codestral-2-1", comparison,
                          "test");
  const auto edited = client.Get((kPublished + "/card.svg").c_str());
  CHECK(edited->get_header_value("ETag") != svg->get_header_value("ETag"));
  CHECK(edited->body.find("THE EDITOR&apos;S BOTTOM LINE") != std::string::npos);
  CHECK(edited->body.find("Ship Codestral for pipelines.") != std::string::npos);
  const auto edited_png = client.Get((kPublished + "/card.png").c_str());
  CHECK(edited_png->get_header_value("ETag") != after_vote->get_header_value("ETag"));
}

TEST_CASE("cards: addresses that name no card: 404 for no such pair or tool, 301 for the other "
          "order and for renamed tools") {
  test::SiteServer site;
  auto client = site.client();
  CHECK(client.Get("/compare/no-such-tool-vs-codestral-2-1/card.svg")->status == 404);
  CHECK(client.Get("/compare/no-such-tool-vs-codestral-2-1/card.png")->status == 404);
  CHECK(client.Get("/compare/no-such-tool-vs-codestral-2-1/badge.svg")->status == 404);
  CHECK(client.Get("/tools/no-such-tool/badge.svg")->status == 404);
  CHECK(client.Get((kPublished + "/card.svg?page=2").c_str())->status == 404);

  const auto reversed = client.Get("/compare/codestral-2-1-vs-cursor-background-agent/card.png");
  CHECK(reversed->status == 301);
  CHECK(reversed->get_header_value("Location") == kPublished + "/card.png");

  auto tool = *site.store().tool_content("codestral-2-1");
  tool.slug = "codestral-2-2";
  test::update_tool(site.store(), "codestral-2-1", tool, "test");
  const auto renamed = client.Get("/compare/cursor-background-agent-vs-codestral-2-1/card.svg");
  CHECK(renamed->status == 301);
  CHECK(renamed->get_header_value("Location") ==
        "/compare/cursor-background-agent-vs-codestral-2-2/card.svg");
  const auto renamed_badge = client.Get("/tools/codestral-2-1/badge.svg");
  CHECK(renamed_badge->status == 301);
  CHECK(renamed_badge->get_header_value("Location") == "/tools/codestral-2-2/badge.svg");
}

TEST_CASE("cards: a tool's badge gives its panel ship rate with its count, or says there is "
          "none yet") {
  test::SiteServer site;
  auto client = site.client();
  REQUIRE(test::post_form(client, "/tools/mistral-3-small/vote", "verdict=ship")->status == 303);
  const auto badge = client.Get("/tools/mistral-3-small/badge.svg");
  REQUIRE(badge->status == 200);
  CHECK(badge->get_header_value("Content-Type") == "image/svg+xml");
  CHECK(xml_fault(badge->body) == "");
  CHECK(badge->body.find(">Verdict</text>") != std::string::npos);
  CHECK(badge->body.find(">panel ship 75% · 3 of 4 reviews</text>") != std::string::npos);
  CHECK(badge->body.find("<title>Mistral 3 Small on Verdict: panel ship 75%, 3 of 4 reviews; "
                         "readers 100% ship, 1 vote.</title>") != std::string::npos);
  CHECK(badge->body.find("height=\"20\"") != std::string::npos);
  const auto again = client.Get("/tools/mistral-3-small/badge.svg",
                                {{"If-None-Match", badge->get_header_value("ETag")}});
  CHECK(again->status == 304);

  test::create_tool(site.store(), tool_with_tagline("fresh-tool", kHostileName, "New"), "test");
  const auto empty = client.Get("/tools/fresh-tool/badge.svg");
  REQUIRE(empty->status == 200);
  CHECK(xml_fault(empty->body) == "");
  CHECK(empty->body.find(">no panel reviews yet</text>") != std::string::npos);
  CHECK(empty->body.find("A&lt;&amp;&quot;B on Verdict: the panel has not reviewed it yet; no "
                         "reader votes yet.") != std::string::npos);
  CHECK(empty->body.find(kHostileName) == std::string::npos);
}

TEST_CASE("cards: a pair's badge says whom the panel and the readers favour, as the verdict at a "
          "glance does") {
  test::SiteServer site;
  auto client = site.client();
  const std::string pair = "/compare/cursor-background-agent-vs-mistral-small-3-1";
  const auto panel_only = client.Get((pair + "/badge.svg").c_str());
  REQUIRE(panel_only->status == 200);
  CHECK(xml_fault(panel_only->body) == "");
  CHECK(panel_only->body.find(">Cursor Background Agent vs Mistral Small 3.1</text>") !=
        std::string::npos);
  CHECK(panel_only->body.find(">panel favours Cursor Background Agent</text>") !=
        std::string::npos);
  CHECK(panel_only->body.find("Too few reader votes") != std::string::npos); // in its title

  // Five readers each ship Mistral and skip Cursor: now readers disagree with the panel.
  for (int reader = 0; reader < 5; ++reader) {
    const auto voter =
        test::cookie_from(test::post_form(client, "/tools/mistral-small-3-1/vote", "verdict=ship"));
    REQUIRE(!voter.empty());
    REQUIRE(test::post_form(client, "/tools/cursor-background-agent/vote", "verdict=skip", voter)
                ->status == 303);
  }
  const auto split = client.Get((pair + "/badge.svg").c_str());
  CHECK(split->body.find(">panel favours Cursor Background Agent · readers favour Mistral Small "
                         "3.1</text>") != std::string::npos);
  CHECK(split->body.find("The panel and readers disagree") != std::string::npos);
  // An unpublished pair has a badge as it has a page.
  CHECK(client.Get((kUnpublished + "/badge.svg").c_str())->status == 200);
}

TEST_CASE("cards: a tool's page shows its badge and embed snippets with absolute addresses and "
          "the name escaped") {
  test::SiteServer site(test::SiteServer::BaseUrl{"https://verdict.example"});
  test::create_tool(site.store(), tool_with_tagline("hostile", kHostileName, "New"), "test");
  auto client = site.client();
  const auto page = client.Get("/tools/hostile");
  REQUIRE(page->status == 200);
  CHECK(page->body.find(kHostileName) == std::string::npos);
  CHECK(page->body.find("<h2 class=\"section-title\" id=\"embed-title\">Embed this badge</h2>") !=
        std::string::npos);
  CHECK(page->body.find("<img src=\"/tools/hostile/badge.svg\" alt=\"A&lt;&amp;&quot;B on "
                        "Verdict: the panel has not reviewed it yet; no reader votes yet.\"") !=
        std::string::npos);
  CHECK(page->body.find("<label class=\"embed-label\" for=\"embed-html\">") != std::string::npos);
  CHECK(textarea(page->body, "embed-html") ==
        "<a href=\"https://verdict.example/tools/hostile\"><img "
        "src=\"https://verdict.example/tools/hostile/badge.svg\" alt=\"A&lt;&amp;&quot;B on "
        "Verdict\"></a>");
  CHECK(textarea(page->body, "embed-markdown") ==
        "[![A\\<\\&\"B on Verdict](https://verdict.example/tools/hostile/badge.svg)]"
        "(https://verdict.example/tools/hostile)");
  CHECK(client.Get("/tools/hostile/badge.svg")->status == 200);
}

TEST_CASE("cards: a share on the card carries its 95% interval from the fifth vote on, as on "
          "the page") {
  test::SiteServer site;
  auto client = site.client();
  const auto card = [&] { return client.Get((kPublished + "/card.svg").c_str())->body; };
  for (int vote = 0; vote < 4; ++vote)
    REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  CHECK(card().find("4 votes") != std::string::npos);
  CHECK(card().find("95% interval") == std::string::npos);
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=skip")->status == 303);
  const auto interval = wilson_interval(4, 5);
  CHECK(card().find(">95% interval " + std::to_string(interval.low) + "–" +
                    std::to_string(interval.high) + "%<") != std::string::npos);
}
