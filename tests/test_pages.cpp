// What each page shows and in which order, and the HTTP caching every page promises.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <mutex>
#include <regex>

#include "domain/content.h"
#include "domain/content_hash.h"
#include "domain/numbers.h"
#include "render/mail.h"
#include "test_support.h"

using namespace verdict;

namespace {

// Applies `edit` to the bundled content and imports the result into the site.
void import_edited(test::SiteServer &site, const std::function<void(nlohmann::json &)> &edit) {
  auto content = nlohmann::json::parse(test::source_file("content/verdict.json"));
  edit(content);
  const auto parsed = parse_content(content.dump());
  REQUIRE(parsed.errors.empty());
  test::import_content(site.store(), parsed.content);
}

size_t position(const std::string &text, const std::string &what) {
  const auto at = text.find(what);
  INFO(what);
  REQUIRE(at != std::string::npos);
  return at;
}
} // namespace

TEST_CASE("pages: a bundled comparison answers its question first: the editor's bottom line, a "
          "line per tool, then what the panel and the readers say, with their counts") {
  test::SiteServer site;
  const auto page = site.client().Get(test::kBundledComparison);
  REQUIRE(page);
  const auto &body = page->body;
  const auto answer = body.find("The editor's bottom line");
  const auto statement = body.find("class=\"glance-statement\"");
  const auto question = body.find("id=\"community-title\"");
  REQUIRE(answer != std::string::npos);
  CHECK(answer < statement);
  CHECK(statement < question);
  CHECK(body.find("<li>Ship with Cursor Background Agent if ") != std::string::npos);
  CHECK(body.find("<li>Ship with Codestral 2.1 if ") != std::string::npos);
  CHECK(body.find("<li>Ship with", body.find("<li>Ship with Codestral 2.1 if ") + 1) ==
        std::string::npos); // one line per tool, no more
}

TEST_CASE("pages: every list of comparisons says who the panel favours and who readers pick, "
          "with counts, from counted votes only") {
  test::SiteServer site;
  auto client = site.client();
  const auto text_of = [&](const std::string &path) {
    const auto got = client.Get(path);
    REQUIRE(got);
    INFO(path);
    REQUIRE(got->status == 200);
    return test::visible_text(got->body);
  };
  const auto digest = [&] {
    const auto detail = site.store().comparison_detail(test::kBundledPair);
    REQUIRE(detail);
    return mail::digest(site.app().views, site.store().site_copy(),
                        {DigestItem{1, detail->comparison}}, 7, "https://verdict.example",
                        "https://verdict.example/unsubscribe/1-x");
  };
  const std::vector<std::string> lists = {"/",
                                          "/comparisons",
                                          "/categories/developer-tools",
                                          "/tools/codestral-2-1",
                                          "/search?q=cursor%20vs%20codestral",
                                          "/feed.xml"};
  const auto every_list_says = [&](const std::string &words) {
    for (const auto &path : lists) {
      INFO(path);
      const auto said = text_of(path);
      INFO(said.substr(0, 2000));
      CHECK(said.find(words) != std::string::npos);
    }
    const auto mail = digest();
    CHECK(mail.text.find(words) != std::string::npos);
    CHECK(mail.html.find(words) != std::string::npos);
  };
  // Both tools ship in every review: the panel is tied; no reader has voted.
  every_list_says("Panel: tied, 4 of 4 reviews ship each");
  every_list_says("Readers: no votes yet");
  CHECK(text_of("/comparisons")
            .find("Panel favours Cursor Background Agent: 4 of 4 reviews ship it, Mistral Small "
                  "3.1 3 of 4") != std::string::npos);

  // Five readers of their own networks pick Codestral; six of one network pick Cursor, of whom
  // the counting rule counts three (domain/counting.h). Counted: 5 to 3.
  const auto cursor = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto codestral = site.store().tool_by_slug("codestral-2-1")->id;
  const auto pick_codestral = [&](int reader) {
    test::cast_pair_vote(site.store(), test::ballot_of(std::string(31, 'c') + char('a' + reader)),
                         cursor, codestral, codestral);
  };
  for (int i = 0; i < 4; ++i)
    pick_codestral(i);
  every_list_says("Readers: too few votes yet, 4 counted"); // kMinVotesForInterval is 5
  pick_codestral(4);
  every_list_says("Readers favour Codestral 2.1: 5 of 5 head-to-head picks");
  for (int i = 0; i < 6; ++i)
    test::cast_pair_vote(
        site.store(), test::ballot_of(std::string(31, 'k') + char('a' + i), "one office network"),
        cursor, codestral, cursor);
  every_list_says("Readers favour Codestral 2.1: 5 of 8 head-to-head picks");
}

TEST_CASE("pages: a tool's alternatives are ranked by counted head-to-head picks, each with its "
          "interval, the panel's lower bound and a link to the pair, on the page and in the API") {
  test::SiteServer site;
  auto client = site.client();
  const auto id_of = [&](const char *slug) { return site.store().tool_by_slug(slug)->id; };
  const auto codestral = id_of("codestral-2-1"), cursor = id_of("cursor-background-agent"),
             mistral = id_of("mistral-small-3-1");
  // Eight readers pick Cursor over Codestral, eight pick Codestral over Mistral Small 3.1, and
  // six of one network pick Mistral Small 3.1, of whom three are counted.
  for (int i = 0; i < 8; ++i) {
    test::cast_pair_vote(site.store(), test::ballot_of(std::string(31, 'p') + char('a' + i)),
                         cursor, codestral, cursor);
    test::cast_pair_vote(site.store(), test::ballot_of(std::string(31, 'q') + char('a' + i)),
                         codestral, mistral, codestral);
  }
  for (int i = 0; i < 6; ++i)
    test::cast_pair_vote(
        site.store(), test::ballot_of(std::string(31, 'r') + char('a' + i), "one office network"),
        codestral, mistral, mistral);

  const auto got = client.Get("/tools/codestral-2-1/alternatives");
  REQUIRE(got);
  REQUIRE(got->status == 200);
  const auto text = test::visible_text(got->body);
  INFO(text.substr(0, 3000));
  const auto at = [&](const std::string &what) {
    const auto found = text.find(what);
    INFO(what);
    REQUIRE(found != std::string::npos);
    return found;
  };
  // Cursor beat it, the tools nobody picked against sit even, Mistral Small 3.1 lost.
  CHECK(at("Cursor Background Agent Async") < at("Code Llama 4"));
  CHECK(at("Code Llama 4") < at("Mistral Small 3.1 Lightweight"));
  CHECK(text.find("Codestral 2.1 0, Cursor Background Agent 8 (counted picks)") !=
        std::string::npos);
  CHECK(text.find("Codestral 2.1 8, Mistral Small 3.1 3 (counted picks)") != std::string::npos);
  CHECK(text.find("from 8 picks") != std::string::npos); // Cursor's, in the fit
  CHECK(text.find("95% interval") != std::string::npos);
  CHECK(text.find("At least 51% ship (95% lower bound; 4 of 4 reviews)") != std::string::npos);
  CHECK(text.find("Tier 1") != std::string::npos);
  // The published pair's page; where none is published, the two beside the ranking's leader.
  CHECK(got->body.find("href=\"/compare/cursor-background-agent-vs-codestral-2-1\"") !=
        std::string::npos);
  CHECK(got->body.find("href=\"/compare/"
                       "codestral-2-1-vs-cursor-background-agent-vs-mistral-small-3-1\"") !=
        std::string::npos);
  // The tool's page links to it; an unknown tool's is a 404.
  CHECK(
      client.Get("/tools/codestral-2-1")->body.find("href=\"/tools/codestral-2-1/alternatives\"") !=
      std::string::npos);
  CHECK(client.Get("/tools/no-such-tool/alternatives")->status == 404);

  const auto api = nlohmann::json::parse(client.Get("/api/tools/codestral-2-1/alternatives")->body);
  REQUIRE(api["alternatives"].size() >= 3);
  CHECK(api["alternatives"][0]["slug"] == "cursor-background-agent");
  CHECK(api["alternatives"][0]["head_to_head"]["codestral-2-1"] == 0);
  CHECK(api["alternatives"][0]["head_to_head"]["cursor-background-agent"] == 8);
  CHECK(api["alternatives"][0]["readers_strength"]["chance"].get<double>() > 0.5);
  CHECK(api["alternatives"].back()["slug"] == "mistral-small-3-1");
  CHECK(api["alternatives"].back()["head_to_head"]["mistral-small-3-1"] == 3);
  CHECK(api["readers_strength"]["picks"] == 19);
}

TEST_CASE("pages: three or four tools side by side, at one address in slug order, with each "
          "pair's counted picks and who leads it, never indexed") {
  test::SiteServer site;
  auto client = site.client();
  const auto cursor = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto codestral = site.store().tool_by_slug("codestral-2-1")->id;
  for (int i = 0; i < 3; ++i)
    test::cast_pair_vote(site.store(), test::ballot_of(std::string(31, 's') + char('a' + i)),
                         cursor, codestral, codestral);
  const std::string three =
      "/compare/codestral-2-1-vs-cursor-background-agent-vs-mistral-small-3-1";
  const auto page = client.Get(three);
  REQUIRE(page);
  REQUIRE(page->status == 200);
  CHECK(page->body.find("noindex") != std::string::npos);
  const auto text = test::visible_text(page->body);
  INFO(text.substr(0, 3000));
  CHECK(text.find("Codestral 2.1, Cursor Background Agent and Mistral Small 3.1") !=
        std::string::npos);
  // Each pair, in its own page's order (the editor's for the published one), with its picks.
  CHECK(text.find("Cursor Background Agent vs Codestral 2.1 Panel: tied, 4 of 4 reviews ship "
                  "each Readers: too few votes yet, 3 counted Counted picks: Cursor Background "
                  "Agent 0, Codestral 2.1 3") != std::string::npos);
  CHECK(
      text.find("Panel favours Codestral 2.1: 4 of 4 reviews ship it, Mistral Small 3.1 3 of 4") !=
      std::string::npos);
  CHECK(page->body.find("href=\"/compare/cursor-background-agent-vs-codestral-2-1\"") !=
        std::string::npos);
  CHECK(page->body.find("href=\"/compare/codestral-2-1-vs-mistral-small-3-1\"") !=
        std::string::npos);
  CHECK(text.find("Mistral Small 3.1 Lightweight multimodal") != std::string::npos);
  CHECK(text.find("Open weights under Apache 2.0") != std::string::npos); // pricing

  // Any other order is the same comparison, moved to its one address.
  const auto moved =
      client.Get("/compare/mistral-small-3-1-vs-codestral-2-1-vs-cursor-background-agent");
  CHECK(moved->status == 301);
  CHECK(moved->get_header_value("Location") == three);
  // Four.
  CHECK(client.Get(three + "-vs-code-llama-4")->status == 301);
  CHECK(client
            .Get("/compare/code-llama-4-vs-codestral-2-1-vs-cursor-background-agent-vs-mistral-"
                 "small-3-1")
            ->status == 200);
  // Unknown and repeated slugs: 404, saying which.
  const auto unknown = client.Get("/compare/codestral-2-1-vs-no-such-tool-vs-nor-this");
  CHECK(unknown->status == 404);
  CHECK(unknown->body.find("no-such-tool, nor-this") != std::string::npos);
  const auto twice = client.Get("/compare/codestral-2-1-vs-codestral-2-1-vs-mistral-small-3-1");
  CHECK(twice->status == 404);
  CHECK(twice->body.find("names codestral-2-1 more than once") != std::string::npos);

  // The tool page's picker offers a third and a fourth; its answer goes straight there.
  const auto tool = client.Get("/tools/codestral-2-1")->body;
  CHECK(tool.find("name=\"c\"") != std::string::npos);
  CHECK(tool.find("name=\"d\"") != std::string::npos);
  const auto picked = client.Get("/compare?a=mistral-small-3-1&b=codestral-2-1&c=cursor-"
                                 "background-agent&d=");
  CHECK(picked->status == 303);
  CHECK(picked->get_header_value("Location") == three);
  CHECK(client.Get("/compare?a=codestral-2-1&b=mistral-small-3-1&c=codestral-2-1")->status == 400);
}

TEST_CASE("pages: a comparison shows related comparisons: those of either tool first, then of "
          "their category, never itself, with who leads each") {
  test::SiteServer site;
  const auto body = site.client().Get(test::kBundledComparison)->body;
  const auto start = body.find("id=\"related-title\"");
  REQUIRE(start != std::string::npos);
  const auto section = body.substr(start, body.find("</section>", start) - start);
  std::vector<std::string> linked;
  const std::regex link(R"re(href="/compare/([a-z0-9-]+)")re");
  for (std::sregex_iterator it(section.begin(), section.end(), link), end; it != end; ++it)
    linked.push_back((*it)[1].str());
  // Cursor Background Agent's other comparison, then the category's, newest first.
  CHECK(linked == std::vector<std::string>{"cursor-background-agent-vs-mistral-small-3-1",
                                           "cursor-v0-50-background-agent-vs-code-llama-4-70b",
                                           "cursor-background-agents-vs-code-llama-4",
                                           "cursor-background-agents-vs-mistral-3-small"});
  CHECK(section.find("Panel favours Cursor Background Agent: 4 of 4 reviews ship it") !=
        std::string::npos);
}

TEST_CASE("pages: the front page lists published comparisons newest first, drafts never") {
  test::SiteServer site;
  import_edited(site, [](nlohmann::json &c) {
    c["comparisons"][0]["published_on"] = "2026-11-20"; // the oldest becomes the newest
    c["comparisons"][4]["published_on"] = "";           // the newest goes back to draft
  });
  const auto home = test::visible_text(site.client().Get("/")->body);
  const auto newest = position(home, "Cursor Background Agent vs Codestral 2.1");
  const auto next = position(home, "Cursor Background Agents vs Code Llama 4");
  CHECK(newest < next);
  CHECK(home.find("Cursor v0.50 – Background Agent & Codebase Refactoring vs Code Llama 4") ==
        std::string::npos);
  // Nor does a tool page list a draft among its comparisons.
  const auto tool = site.client().Get("/tools/code-llama-4-70b")->body;
  CHECK(tool.find("href=\"/compare/cursor-v0-50-background-agent-vs-code-llama-4-70b\"") ==
        std::string::npos);
}

TEST_CASE("pages: reviews follow the panel order, and a re-ordered panel reorders them") {
  test::SiteServer site;
  auto client = site.client();
  const auto reviews = test::reviews_of_tool(site.store(), "codestral-2-1");
  REQUIRE(reviews.size() >= 2);
  const auto first = reviews.front().reviewer_name, last = reviews.back().reviewer_name;
  const auto before = test::visible_text(client.Get("/tools/codestral-2-1")->body);
  CHECK(position(before, first) < position(before, last));
  import_edited(
      site, [](nlohmann::json &c) { std::reverse(c["reviewers"].begin(), c["reviewers"].end()); });
  const auto after = test::visible_text(client.Get("/tools/codestral-2-1")->body);
  CHECK(position(after, last) < position(after, first));
  const auto panel = test::visible_text(client.Get("/reviewers")->body);
  CHECK(position(panel, last) < position(panel, first));
}

TEST_CASE("pages: a reviewer with no reviews yet says so") {
  test::SiteServer site;
  import_edited(site, [](nlohmann::json &c) {
    c["reviewers"].push_back({{"slug", "newcomer"},
                              {"name", "New Comer"},
                              {"lens", "Newcomer"},
                              {"bio", "Just joined."}});
    c["reviewers"].push_back(
        {{"slug", "once"}, {"name", "Only Once"}, {"lens", "Once"}, {"bio", "One review."}});
    c["reviews"].push_back(
        {{"tool", "codestral-2-1"}, {"reviewer", "once"}, {"verdict", "skip"}, {"quote", "No."}});
  });
  auto client = site.client();
  const auto page = client.Get("/reviewers/newcomer");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(test::visible_text(page->body).find("No reviews yet") != std::string::npos);
  CHECK(test::visible_text(client.Get("/reviewers")->body).find("No reviews yet") !=
        std::string::npos);
  const auto once = test::visible_text(client.Get("/reviewers/once")->body);
  CHECK(once.find("Ships in 0 of 1 review") != std::string::npos);
  CHECK(once.find("1 reviews") == std::string::npos);
}

TEST_CASE("pages: a tool page names its vendor and link, and offers every other tool to compare") {
  test::SiteServer site;
  const auto page = site.client().Get("/tools/codestral-2-1")->body;
  // As the content file says, not as the store reads it back.
  CHECK(test::visible_text(page).find("By Mistral AI") != std::string::npos);
  CHECK(page.find("<a href=\"https://mistral.ai\"") != std::string::npos);
  for (const auto &other : site.store().tools_by_name()) {
    const bool offered = page.find("<option value=\"" + other.slug + "\"") != std::string::npos;
    INFO(other.slug);
    CHECK(offered == (other.slug != "codestral-2-1"));
  }
  // Each offered by its name; the two Code Llama 4s by their taglines too, never an address.
  const auto html = test::decode_entities(page);
  CHECK(html.find("<option value=\"mistral-3-small\">Mistral 3 Small</option>") !=
        std::string::npos);
  CHECK(html.find("<option value=\"code-llama-4\">Code Llama 4 — Meta's open-weight coding model: "
                  "7B to 200B, free to download</option>") != std::string::npos);
  CHECK(html.find("(code-llama-4)") == std::string::npos);
}

TEST_CASE("pages: the community tally spells out ships and skips") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *verdict : {"verdict=ship", "verdict=ship", "verdict=skip"})
    REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", verdict)->status == 303);
  const auto text = test::visible_text(client.Get(test::kBundledComparison.c_str())->body);
  CHECK(text.find("Ship 2 · Skip 1 — 67% · 3 votes") != std::string::npos);
}

TEST_CASE("pages: each side of the head-to-head carries the interval of its own share") {
  test::SiteServer site;
  auto client = site.client();
  for (int i = 0; i < 4; ++i)
    REQUIRE(test::post_form(client, test::kBundledComparison + "/vote", "pick=b")->status == 303);
  REQUIRE(test::post_form(client, test::kBundledComparison + "/vote", "pick=a")->status == 303);
  const auto text = test::visible_text(client.Get(test::kBundledComparison.c_str())->body);
  const auto interval = [](int64_t part) {
    const auto share = wilson_interval(part, 5);
    return "95% interval " + std::to_string(share.low) + "–" + std::to_string(share.high) + "%";
  };
  CHECK(text.find("20% · 1 of 5 picks · " + interval(1)) != std::string::npos);
  CHECK(text.find("80% · 4 of 5 picks · " + interval(4)) != std::string::npos);
}

TEST_CASE("pages: a pick sent to the reverse address counts for the side it names") {
  test::SiteServer site;
  auto client = site.client();
  const auto res =
      test::post_form(client, "/compare/codestral-2-1-vs-cursor-background-agent/vote", "pick=a");
  REQUIRE(res);
  CHECK(res->status == 303);
  CHECK(res->get_header_value("Location") == test::kBundledComparison + "#community");
  const auto a = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto b = site.store().tool_by_slug("codestral-2-1")->id;
  CHECK(test::pair_tally(site.store(), a, b).b == 1); // "a" of the reverse address is Codestral
}

TEST_CASE("pages: an address two ways readable names the pair with the shortest first slug") {
  test::SiteServer site;
  import_edited(site, [](nlohmann::json &c) {
    for (const auto *slug : {"alpha", "beta-vs-gamma", "alpha-vs-beta", "gamma"})
      c["tools"].push_back({{"slug", slug},
                            {"name", std::string("Tool ") + slug},
                            {"category", c["categories"][0]["slug"]},
                            {"tagline", "t"},
                            {"description", "d"},
                            {"entry", "Free"}});
  });
  const auto page = site.client().Get("/compare/alpha-vs-beta-vs-gamma");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(test::visible_text(page->body).find("Tool alpha vs Tool beta-vs-gamma") !=
        std::string::npos);
}

TEST_CASE("caching: pages vary on the cookie and the accepted encoding, and every page answers "
          "If-None-Match with 304") {
  test::SiteServer site;
  auto client = site.client();
  const auto anonymous = client.Get(test::kBundledComparison.c_str());
  CHECK(anonymous->get_header_value("Vary") == "Cookie, Accept-Encoding");
  const auto etag = anonymous->get_header_value("ETag");
  REQUIRE_FALSE(etag.empty());
  // A list of validators, as caches send, matches when it holds the page's.
  CHECK(client.Get(test::kBundledComparison.c_str(), {{"If-None-Match", "\"other\", " + etag}})
            ->status == 304);
  CHECK(client.Get(test::kBundledComparison.c_str(), {{"If-None-Match", "\"other\""}})->status ==
        200);

  const auto voter =
      test::cookie_from(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship"));
  REQUIRE(voter.size() == 32);
  const httplib::Headers cookie{{"Cookie", "verdict_voter=" + voter}};
  const auto personal = client.Get(test::kBundledComparison.c_str(), cookie);
  CHECK(personal->get_header_value("Vary") == "Cookie, Accept-Encoding");
  CHECK(personal->get_header_value("Cache-Control") == "private, no-cache");
  const auto personal_etag = personal->get_header_value("ETag");
  REQUIRE_FALSE(personal_etag.empty());
  CHECK(personal_etag != client.Get(test::kBundledComparison.c_str())->get_header_value("ETag"));
  auto again = cookie;
  again.emplace("If-None-Match", personal_etag);
  const auto revalidated = client.Get(test::kBundledComparison.c_str(), again);
  CHECK(revalidated->status == 304);
  CHECK(revalidated->body.empty());
}

TEST_CASE("caching: redirects after a write and error pages are never stored") {
  test::SiteServer site;
  auto client = site.client();
  const auto vote = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship");
  CHECK(vote->status == 303);
  CHECK(vote->get_header_value("Cache-Control") == "no-store");
  for (const auto &res :
       {client.Get("/tools/nothing"), test::post_form(client, "/tools/codestral-2-1/vote", "x=1"),
        client.Post("/tools/codestral-2-1/vote", {{"Origin", "https://evil.example"}},
                    "verdict=ship", "application/x-www-form-urlencoded")}) {
    REQUIRE(res);
    INFO(res->status);
    CHECK(res->status >= 400);
    CHECK(res->get_header_value("Cache-Control") == "no-store");
  }
}

TEST_CASE("caching: a static file's address carries the hash of its bytes") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/")->body;
  for (const std::string name : {"/static/style.", "/static/favicon."}) {
    const auto start = page.find(name);
    REQUIRE(start != std::string::npos);
    const auto path = page.substr(start, page.find('"', start) - start);
    const auto file = client.Get(path.c_str());
    REQUIRE(file);
    CHECK(file->status == 200);
    const auto hash = path.substr(name.size(), path.rfind('.') - name.size());
    CHECK(hash == content_hash(file->body, 10));
  }
}

TEST_CASE("pages: a draft's and a scheduled comparison's words are nowhere a reader looks "
          "until its day, and then everywhere") {
  test::SiteServer site;
  auto &store = site.store();
  store.set_today([] { return std::string("2026-11-24"); });
  const std::string page = "/compare/codestral-2-1-vs-mistral-3-small";
  const std::string intro = "An intro nobody outside the desk has read.";
  const std::string bottom_line = "A bottom line still under embargo.";
  test::create_comparison(store, {"codestral-2-1", "mistral-3-small", "", intro, bottom_line},
                          "editor@example.com");
  auto client = site.client();
  // Every list a reader (or a crawler, a feed reader, a script) may meet a comparison in.
  const auto lists = [&] {
    std::string all;
    for (const auto *path : {"/", "/comparisons", "/feed.xml", "/sitemap.xml", "/api/comparisons",
                             "/tools/codestral-2-1", "/tools/mistral-3-small"})
      all += client.Get(path)->body;
    return all;
  };
  // And the pair's own page and API answer, which exist for any two tools.
  const auto everywhere = [&] {
    return lists() + client.Get(page.c_str())->body +
           client.Get("/api/compare/codestral-2-1-vs-mistral-3-small")->body;
  };
  const auto shows_words = [&](const std::string &all) {
    return all.find(intro) != std::string::npos || all.find(bottom_line) != std::string::npos;
  };
  const auto listed = [&](const std::string &all) {
    return all.find("Codestral 2.1 vs Mistral 3 Small") != std::string::npos ||
           all.find("<loc>" + page) != std::string::npos;
  };
  CHECK_FALSE(shows_words(everywhere()));
  CHECK_FALSE(listed(lists()));
  CHECK(test::visible_text(client.Get(page.c_str())->body).find("Not an editor's pick") !=
        std::string::npos);
  CHECK(client.Get((page + "/card.png").c_str())->status == 404);
  // A browser keeps the draft's page only to ask again each time (no max-age of its own, no
  // stale-while-revalidate); only a shared cache may keep it, for seconds.
  const auto seen = client.Get(page.c_str());
  const auto caching = seen->get_header_value("Cache-Control");
  CHECK(caching.find("max-age=0") != std::string::npos);
  CHECK(caching.find("must-revalidate") != std::string::npos);
  CHECK(caching.find("stale-while-revalidate") == std::string::npos);
  const auto seen_etag = seen->get_header_value("ETag");

  // Dated tomorrow: scheduled, still nowhere.
  test::update_comparison(store, "codestral-2-1-vs-mistral-3-small",
                          {"codestral-2-1", "mistral-3-small", "2026-11-25", intro, bottom_line},
                          "editor@example.com");
  CHECK_FALSE(shows_words(everywhere()));
  CHECK_FALSE(listed(lists()));
  CHECK(client.Get((page + "/card.png").c_str())->status == 404);

  // Its day: everywhere at once, the pages kept from yesterday included.
  store.set_today([] { return std::string("2026-11-25"); });
  CHECK(shows_words(everywhere()));
  CHECK(listed(lists()));
  CHECK(client.Get("/sitemap.xml")->body.find(page) != std::string::npos);
  CHECK(client.Get("/feed.xml")->body.find(bottom_line) != std::string::npos);
  CHECK(test::visible_text(client.Get("/")->body).find("Codestral 2.1 vs Mistral 3 Small") !=
        std::string::npos);
  CHECK(client.Get((page + "/card.png").c_str())->status == 200);
  // The browser that saw the draft asks again and gets the comparison, not a 304.
  const auto again = client.Get(page.c_str(), {{"If-None-Match", seen_etag}});
  CHECK(again->status == 200);
  CHECK(again->body.find(bottom_line) != std::string::npos);
}

TEST_CASE("pages: a draft comparison is not an editor's pick, and a tool without one says so") {
  test::SiteServer site;
  import_edited(site, [](nlohmann::json &c) {
    c["comparisons"][4]["published_on"] = ""; // cursor-v0-50… vs code-llama-4-70b, a draft now
  });
  auto client = site.client();
  const auto draft = client.Get("/compare/cursor-v0-50-background-agent-vs-code-llama-4-70b");
  REQUIRE(draft);
  CHECK(draft->status == 200);
  CHECK(test::visible_text(draft->body).find("Not an editor's pick") != std::string::npos);
  const auto published = test::visible_text(client.Get(test::kBundledComparison.c_str())->body);
  CHECK(published.find("Not an editor's pick") == std::string::npos);
  const auto tool = test::visible_text(client.Get("/tools/code-llama-4-70b")->body);
  CHECK(tool.find("Not in a published comparison yet.") != std::string::npos);
  const auto in_one = test::visible_text(client.Get("/tools/codestral-2-1")->body);
  CHECK(in_one.find("Not in a published comparison yet.") == std::string::npos);
}

TEST_CASE("pages: a reviewer's page lists their reviews by tool name") {
  test::SiteServer site;
  const auto reviewer = site.store().reviewer_by_slug("investor");
  const auto reviews = site.store().reviews_by_reviewer(reviewer->id, {1, 100}).items;
  REQUIRE(reviews.size() >= 2);
  for (size_t i = 1; i < reviews.size(); ++i)
    CHECK(reviews[i - 1].tool_name <= reviews[i].tool_name);
  const auto text = test::visible_text(site.client().Get("/reviewers/investor")->body);
  CHECK(position(text, reviews.front().quote.substr(0, 60)) <
        position(text, reviews.back().quote.substr(0, 60)));
}

TEST_CASE("pages: pricing older than 90 days is marked from the day it turns 91, on every page") {
  std::mutex mutex;
  std::string today = "2026-10-13"; // code-llama-4's pricing was checked 2026-07-15: day 90
  test::SiteServer site;
  site.store().set_today([&] {
    std::lock_guard lock(mutex);
    return today;
  });
  auto client = site.client();
  const std::string comparison = "/compare/cursor-background-agents-vs-code-llama-4";
  for (const auto &path : {std::string("/tools/code-llama-4"), comparison}) {
    INFO(path);
    CHECK(client.Get(path.c_str())->body.find("possibly out of date") == std::string::npos);
  }
  {
    std::lock_guard lock(mutex);
    today = "2026-10-14"; // day 91, and the cached pages are from yesterday
  }
  for (const auto &path : {std::string("/tools/code-llama-4"), comparison}) {
    INFO(path);
    CHECK(client.Get(path.c_str())->body.find("possibly out of date") != std::string::npos);
  }
}

TEST_CASE("caching: ETags are strong, and a permanent redirect may be cached") {
  test::SiteServer site;
  auto client = site.client();
  const auto etag = client.Get(test::kBundledComparison.c_str())->get_header_value("ETag");
  CHECK(etag.size() > 2);
  CHECK(etag.front() == '"');
  CHECK(etag.back() == '"');
  const auto moved = client.Get("/compare/codestral-2-1-vs-cursor-background-agent");
  CHECK(moved->status == 301);
  CHECK(moved->get_header_value("Cache-Control").find("max-age=") != std::string::npos);
}

TEST_CASE("pages: a card shows the panel's basis, and only a reader who picked may withdraw") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/compare/cursor-background-agent-vs-mistral-small-3-1")->body;
  CHECK(
      page.find("75%<span class=\"stat-basis\"><span class=\"stat-sep\"> · </span>3 of 4</span>") !=
      std::string::npos);
  CHECK(page.find("Withdraw my pick") == std::string::npos);
  const auto voter =
      test::cookie_from(test::post_form(client, test::kBundledComparison + "/vote", "pick=a"));
  REQUIRE(voter.size() == 32);
  const auto own =
      client.Get(test::kBundledComparison.c_str(), {{"Cookie", "verdict_voter=" + voter}})->body;
  CHECK(own.find("Withdraw my pick") != std::string::npos);
  CHECK(client.Get(test::kBundledComparison.c_str())->body.find("Withdraw my pick") ==
        std::string::npos);
}
