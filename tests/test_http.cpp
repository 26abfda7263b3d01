// End to end: the real route table on an ephemeral port, spoken to over HTTP.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <tuple>

#include "domain/numbers.h"
#include "test_support.h"
#include "transport/cache_policy.h"

using namespace verdict;

namespace {

httplib::Headers same_origin(const std::string &cookie = "") {
  httplib::Headers headers{{"Sec-Fetch-Site", "same-origin"}};
  if (!cookie.empty()) headers.emplace("Cookie", "verdict_voter=" + cookie);
  return headers;
}

// The Community figure on a card: the text between the card's description and "Community".
std::string community_of(const std::string &html, const std::string &slug) {
  const auto start = html.find("data-community=\"" + slug + "\"");
  if (start == std::string::npos) return {};
  const auto text = html.find('>', start) + 1;
  const auto end = html.find("</p>", start);
  return test::visible_text(html.substr(text, end - text));
}
} // namespace

TEST_CASE("http: every seed page is served word for word, in order, at its address") {
  test::SiteServer site;
  auto client = site.client();
  const auto files = test::golden_files();
  REQUIRE(files.size() == 5);
  const std::vector<std::string> addresses = {
      "/compare/cursor-background-agent-vs-codestral-2-1",
      "/compare/cursor-background-agent-vs-mistral-small-3-1",
      "/compare/cursor-background-agents-vs-mistral-3-small",
      "/compare/cursor-background-agents-vs-code-llama-4",
      "/compare/cursor-v0-50-background-agent-vs-code-llama-4-70b"};
  for (size_t i = 0; i < files.size(); ++i) {
    const auto res = client.Get(addresses[i].c_str());
    REQUIRE(res);
    REQUIRE(res->status == 200);
    const auto text = test::visible_text(res->body);
    size_t at = 0;
    int quotes = 0;
    const auto lines = test::golden_lines(files[i]);
    REQUIRE(lines.size() >= 30);
    for (const auto &line : lines) {
      INFO(files[i] << ": " << line.substr(0, 80));
      const auto found = text.find(line, at);
      CHECK(found != std::string::npos);
      if (found != std::string::npos) at = found + line.size();
      if (line.rfind("“", 0) == 0) ++quotes;
    }
    CHECK(quotes == 8);
  }
}

TEST_CASE("http: the front page lists every published comparison by title, tools and reviewers") {
  test::SiteServer site;
  const auto res = site.client().Get("/");
  REQUIRE(res);
  CHECK(res->status == 200);
  const auto text = test::visible_text(res->body);
  for (const auto *title :
       {"Cursor Background Agent vs Codestral 2.1", "Cursor Background Agent vs Mistral Small 3.1",
        "Cursor Background Agents vs Mistral 3 Small", "Cursor Background Agents vs Code Llama 4",
        "Cursor v0.50 – Background Agent & Codebase Refactoring vs Code Llama 4"})
    CHECK(text.find(title) != std::string::npos);
  CHECK(text.find("Maya Chen") != std::string::npos);
  CHECK(text.find("Weekly AI Tool Verdicts") != std::string::npos);
  // The list's dashes are explained, and its column headings are headings, not links.
  CHECK(text.find("A dash (—) means no reviews or no reader votes yet.") != std::string::npos);
  CHECK(res->body.find("<th scope=\"col\">Community</th>") != std::string::npos);
}

TEST_CASE("http: a vote, a changed vote and a second visitor show on the page") {
  test::SiteServer site;
  auto client = site.client();
  CHECK(community_of(client.Get(test::kBundledComparison)->body, "codestral-2-1") == "—");

  const auto first = test::post_form(client, "/tools/codestral-2-1/vote",
                                     std::string("verdict=ship&back=") + test::kBundledComparison);
  REQUIRE(first);
  CHECK(first->status == 303);
  const auto voter = test::cookie_from(first);
  REQUIRE(voter.size() == 32);
  CHECK(community_of(client.Get(test::kBundledComparison)->body, "codestral-2-1") ==
        "100% · 1 vote");

  const auto changed = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=skip", voter);
  CHECK(changed->status == 303);
  CHECK(community_of(client.Get(test::kBundledComparison)->body, "codestral-2-1") == "0% · 1 vote");

  const auto second = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship");
  CHECK(test::cookie_from(second) != voter);
  CHECK(community_of(client.Get(test::kBundledComparison)->body, "codestral-2-1") ==
        "50% · 2 votes");

  const auto third = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship");
  const auto page = client.Get(test::kBundledComparison)->body;
  CHECK(community_of(page, "codestral-2-1") == "67% · 3 votes");
  // The same figures for `verdict verify`, in the vote log's terms, on the element that shows
  // them, and the log size they were read at.
  const auto id = std::to_string(site.store().tool_by_slug("codestral-2-1")->id);
  CHECK(page.find("data-community=\"codestral-2-1\" data-log-target=\"tool:" + id +
                  "\" data-first=\"2\" data-second=\"1\" data-set-aside-network=\"0\" "
                  "data-set-aside-too-fast=\"0\">") != std::string::npos);
  CHECK(page.find("<meta name=\"verdict:vote-log-size\" content=\"4\">") != std::string::npos);

  // The voter's own page shows their pressed button; the anonymous page does not.
  const auto own = client.Get(test::kBundledComparison, same_origin(voter));
  CHECK(own->body.find("value=\"skip\" aria-pressed=\"true\" aria-label=\"Skip Codestral 2.1\"") !=
        std::string::npos);
  CHECK(own->get_header_value("Cache-Control") == "private, no-cache");

  const auto withdrawn =
      test::post_form(client, "/tools/codestral-2-1/vote", "verdict=withdraw", voter);
  CHECK(withdrawn->status == 303);
  CHECK(community_of(client.Get(test::kBundledComparison)->body, "codestral-2-1") ==
        "100% · 2 votes");
}

TEST_CASE("http: the head-to-head pick moves the split bar") {
  test::SiteServer site;
  auto client = site.client();
  const auto res =
      test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=a");
  CHECK(res->status == 303);
  const auto page = client.Get(test::kBundledComparison)->body;
  // One pick is a count, not a 100%; the side nobody picked reads no 0%.
  CHECK(page.find("<strong data-picks=\"a\">1 of 1 pick</strong>") != std::string::npos);
  CHECK(page.find("<strong data-picks=\"b\">None of 1 pick</strong>") != std::string::npos);
  // The verdict at a glance counts the pick as a reader's vote, under the question it answers.
  CHECK(page.find("<td data-label=\"Readers' pick\">1 of 1 pick</td>") != std::string::npos);
  CHECK(page.find("value=\"100\" aria-label=\"Share of readers picking") != std::string::npos);
}

TEST_CASE("http: anonymous pages are identical bytes with an ETag that answers 304") {
  test::SiteServer site;
  auto client = site.client();
  const auto one = client.Get(test::kBundledComparison), two = client.Get(test::kBundledComparison);
  CHECK(one->body == two->body);
  const auto etag = one->get_header_value("ETag");
  REQUIRE_FALSE(etag.empty());
  CHECK(one->get_header_value("Cache-Control").find("public") != std::string::npos);
  const auto revalidated = client.Get(test::kBundledComparison, {{"If-None-Match", etag}});
  CHECK(revalidated->status == 304);
  CHECK(revalidated->body.empty());
}

TEST_CASE("http: addresses that name nothing get a real 404 page") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *path : {"/compare/nothing-vs-nowhere", "/tools/nope", "/reviewers/nobody",
                           "/no/such/page", "/compare/codestral-2-1-vs-codestral-2-1"}) {
    const auto res = client.Get(path);
    INFO(path);
    REQUIRE(res);
    CHECK(res->status == 404);
    CHECK(res->get_header_value("Content-Type").find("text/html") == 0);
    CHECK(test::visible_text(res->body).find("Not found") != std::string::npos);
  }
}

TEST_CASE("http: the reverse order of a published pair is a 301 to it") {
  test::SiteServer site;
  const auto res = site.client().Get("/compare/codestral-2-1-vs-cursor-background-agent");
  REQUIRE(res);
  CHECK(res->status == 301);
  CHECK(res->get_header_value("Location") == test::kBundledComparison);
}

TEST_CASE("http: a cross-site vote is refused with 403 and counts nothing") {
  test::SiteServer site;
  auto client = site.client();
  // With the page's own token, so only the origin can be what is refused.
  const auto vote =
      "verdict=ship&token=" + test::vote_token_for(client, "/tools/codestral-2-1/vote");
  const auto res = client.Post("/tools/codestral-2-1/vote", {{"Origin", "https://evil.example"}},
                               vote, "application/x-www-form-urlencoded");
  CHECK(res->status == 403);
  CHECK(test::visible_text(res->body).find("Cross-site request refused") != std::string::npos);
  const auto fetch = client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "cross-site"}},
                                 vote, "application/x-www-form-urlencoded");
  CHECK(fetch->status == 403);
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
}

TEST_CASE("http: an oversized body gets 413 and writes nothing") {
  test::SiteServer site;
  auto client = site.client();
  const std::string huge = "verdict=ship&back=" + std::string(2 * 1024 * 1024, 'a');
  const auto res = client.Post("/tools/codestral-2-1/vote", same_origin(), huge,
                               "application/x-www-form-urlencoded");
  REQUIRE(res);
  CHECK(res->status == 413);
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
}

TEST_CASE("http: every page carries the security headers") {
  test::SiteServer site;
  const auto res = site.client().Get("/");
  CHECK(res->get_header_value("Content-Security-Policy").find("frame-ancestors 'none'") !=
        std::string::npos);
  CHECK(res->get_header_value("X-Content-Type-Options") == "nosniff");
  CHECK(res->get_header_value("X-Frame-Options") == "DENY");
  CHECK_FALSE(res->get_header_value("Referrer-Policy").empty());
}

TEST_CASE("http: static files live at content-hashed paths and are immutable") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/")->body;
  const auto start = page.find("/static/style.");
  REQUIRE(start != std::string::npos);
  const auto path = page.substr(start, page.find('"', start) - start);
  const auto css = client.Get(path.c_str());
  CHECK(css->status == 200);
  CHECK(css->get_header_value("Content-Type").find("text/css") == 0);
  CHECK(css->get_header_value("Cache-Control").find("immutable") != std::string::npos);
  CHECK(client.Get("/static/style.0000000000.css")->status == 404);
}

TEST_CASE("http: the tool and reviewer pages and /healthz answer") {
  test::SiteServer site;
  auto client = site.client();
  const auto tool = client.Get("/tools/code-llama-4-70b");
  CHECK(tool->status == 200);
  CHECK(test::visible_text(tool->body).find("Skip as a standalone business bet") !=
        std::string::npos);
  const auto reviewer = client.Get("/reviewers/investor");
  CHECK(reviewer->status == 200);
  CHECK(test::visible_text(reviewer->body).find("Ships 60% · 3 of 5 reviews") != std::string::npos);
  const auto health = client.Get("/healthz");
  CHECK(health->status == 200);
  CHECK(health->body == "ok\n");
}

TEST_CASE("http: a handler that throws answers a 500 page that shows nothing of the error") {
  const std::string secret = "sqlite: no such table: secret_internal_detail";
  test::SiteServer site;
  site.store().set_today([secret]() -> std::string { throw std::runtime_error(secret); });
  auto client = site.client();
  for (const auto &path :
       {std::string("/"), test::kBundledComparison, std::string("/tools/codestral-2-1")}) {
    const auto res = client.Get(path);
    REQUIRE(res);
    INFO(path);
    CHECK(res->status == 500);
    CHECK(res->get_header_value("Content-Type").find("text/html") == 0);
    CHECK(test::visible_text(res->body).find("Something went wrong") != std::string::npos);
    CHECK(res->body.find("secret_internal_detail") == std::string::npos);
    CHECK(res->body.find("sqlite") == std::string::npos);
    for (const auto &[name, value] : res->headers)
      CHECK(value.find("secret_internal_detail") == std::string::npos);
  }
  CHECK(client.Get("/healthz")->status == 200); // the server goes on serving
}

TEST_CASE("http: a return address that leaves the site is refused and nothing is written") {
  test::SiteServer site;
  auto client = site.client();
  // Each is the value of `back` as the form sends it (percent-encoded where needed).
  for (const std::string back :
       {"//evil.example", "%2F%2Fevil.example", "/%5Cevil.example", "%5C%5Cevil.example",
        "/%5C/evil.example", "https://evil.example/", "https:evil.example", "http%3A//evil.example",
        "/%252F%252Fevil.example", "javascript:alert(1)", "/%09/evil.example",
        "/compare/x%0D%0ALocation:%20https://evil.example", "evil.example", "/tools/x?next=//evil",
        "/tools/x#//evil", "/%E2%80%8B/evil.example"}) {
    INFO(back);
    const auto res =
        test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship&back=" + back);
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK_FALSE(res->has_header("Location"));
    CHECK_FALSE(res->has_header("Set-Cookie"));
  }
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);

  // A page of the site is where the reader goes back to.
  const auto ok = test::post_form(client, "/tools/codestral-2-1/vote",
                                  std::string("verdict=ship&back=") + test::kBundledComparison);
  REQUIRE(ok);
  CHECK(ok->status == 303);
  CHECK(ok->get_header_value("Location") ==
        std::string(test::kBundledComparison) + "#tool-codestral-2-1");
}

TEST_CASE("http: a 2 MiB body of any content type gets 413 and writes nothing") {
  test::SiteServer site;
  auto client = site.client();
  const std::string huge =
      "verdict=ship&pick=a&email=a%40example.com&x=" + std::string(2 * 1024 * 1024, 'a');
  for (const std::string type :
       {"application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz",
        "application/json", "text/plain", "application/octet-stream", ""}) {
    for (const std::string &path :
         {std::string("/tools/codestral-2-1/vote"), std::string(test::kBundledComparison) + "/vote",
          std::string("/subscribe")}) {
      INFO(type << " to " << path);
      const auto res =
          client.Post(path.c_str(), {{"Sec-Fetch-Site", "same-origin"}}, huge, type.c_str());
      REQUIRE(res);
      CHECK(res->status == 413);
    }
  }
  // Chunked, with no length announced up front: refused before a byte of it is read.
  std::string chunked = "POST /subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: "
                        "same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
  for (int i = 0; i < 64; ++i)
    chunked += "8000\r\n" + std::string(0x8000, 'a') + "\r\n";
  chunked += "0\r\n\r\n";
  CHECK(test::raw_exchange(site.port(), chunked).rfind("HTTP/1.1 411", 0) == 0);

  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
  const auto a = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto b = site.store().tool_by_slug("codestral-2-1")->id;
  CHECK(test::pair_tally(site.store(), a, b).a == 0);
  CHECK(site.store().subscriber_counts().total() == 0);
}

TEST_CASE("http: a write that is not an HTML form gets 415 and writes nothing") {
  test::SiteServer site;
  auto client = site.client();
  const std::string multipart =
      "--x\r\nContent-Disposition: form-data; name=\"verdict\"\r\n\r\nship\r\n--x--\r\n";
  for (const auto &[type, body] : std::vector<std::pair<std::string, std::string>>{
           {"application/json", "verdict=ship"},
           {"text/plain", "verdict=ship"},
           {"multipart/form-data; boundary=x", multipart}}) {
    INFO(type);
    const auto res = client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "same-origin"}},
                                 body, type.c_str());
    REQUIRE(res);
    CHECK(res->status == 415);
    CHECK(test::visible_text(res->body).find("form") != std::string::npos);
  }
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
  const auto with_charset =
      client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "same-origin"}},
                  "verdict=ship&token=" + test::vote_token_for(client, "/tools/codestral-2-1/vote"),
                  "application/x-www-form-urlencoded; charset=UTF-8");
  REQUIRE(with_charset);
  CHECK(with_charset->status == 303);
}

// Every share on a page is written "NN% · n …", "NN% ship · k of n …" or "Ships NN% · k of n …".
// Returns each such share whose n is kMinVotesForInterval or more and that is not followed by
// its interval, so the check reaches every page's numbers without knowing where they are.
std::vector<std::string> shares_without_interval(const std::string &text) {
  static const std::regex share(
      R"((\d+)%(?: ship)? · (?:\d+ of )?(\d+)(?: (?:votes?|reviews?|picks?))?)");
  std::vector<std::string> missing;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), share);
       it != std::sregex_iterator(); ++it) {
    const auto n = std::stoll((*it)[2].str());
    const auto after = text.substr(it->position() + it->length(), 18);
    if (n >= kMinVotesForInterval && !after.starts_with(" · 95% interval "))
      missing.push_back(it->str());
  }
  return missing;
}

// A page's markup without its folds of intervals in plain words, and those folds' text.
constexpr std::string_view kReadingsFold = "<details class=\"fold readings\">";
std::string without_readings(std::string html) {
  for (auto at = html.find(kReadingsFold); at != std::string::npos; at = html.find(kReadingsFold))
    html.erase(at, html.find("</details>", at) + 10 - at);
  return html;
}
std::string readings_of(const std::string &html) {
  std::string readings;
  for (auto at = html.find(kReadingsFold); at != std::string::npos;
       at = html.find(kReadingsFold, at + 1))
    readings += test::visible_text(html.substr(at, html.find("</details>", at) - at)) + "\n";
  return readings;
}

// The intervals a page shows ("95% interval 40–80%") outside its plain-words folds.
std::vector<std::string> intervals_in(const std::string &html) {
  static const std::regex interval(R"(95% interval \d+–\d+%)");
  const auto text = test::visible_text(without_readings(html));
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), interval);
       it != std::sregex_iterator(); ++it)
    found.push_back(it->str());
  return found;
}

TEST_CASE("http: every share on every page carries its 95% interval from the fifth vote or "
          "review on, and none before") {
  test::SiteServer site;
  auto client = site.client();
  const std::vector<std::string> pages = {
      "/",           "/tools",     test::kBundledComparison, "/tools/codestral-2-1",
      "/categories", "/reviewers", "/reviewers/skeptic",     "/methodology"};
  const auto text_of = [&](const std::string &path) {
    const auto answer = client.Get(path.c_str());
    REQUIRE(answer);
    REQUIRE(answer->status == 200);
    return test::visible_text(answer->body);
  };
  for (int vote = 1; vote <= 4; ++vote) {
    REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
    REQUIRE(test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=b")
                ->status == 303);
  }
  for (const auto &path : pages) {
    INFO(path);
    CHECK(shares_without_interval(text_of(path)) == std::vector<std::string>{});
  }
  // Four votes, four picks and a panel of four: nothing on these pages is wide enough yet.
  CHECK(intervals_in(client.Get(test::kBundledComparison)->body).empty());
  CHECK(intervals_in(client.Get("/tools/codestral-2-1")->body).empty());
  // ...and a figure on so few is drawn fainter, and says so.
  const auto community_stat = [&](const std::string &html) {
    const auto figure = html.find("data-community=\"codestral-2-1\"");
    REQUIRE(figure != std::string::npos);
    const auto stat = html.rfind("<div class=\"stat", figure);
    return html.substr(stat, html.find('>', stat) - stat);
  };
  CHECK(community_stat(client.Get(test::kBundledComparison)->body) == "<div class=\"stat few\"");
  CHECK(text_of(test::kBundledComparison).find("Too few votes to be sure") != std::string::npos);

  // A fifth vote, a fifth pick, and a fifth review of one tool by a new panel member.
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=skip")->status == 303);
  REQUIRE(
      test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=a")->status ==
      303);
  test::create_reviewer(site.store(),
                        {"the-auditor", "The Auditor", "Compliance", "Reads the terms."},
                        "editor@example.com");
  test::create_review(site.store(), {"codestral-2-1", "the-auditor", "skip", "No audit log."},
                      "editor@example.com");
  REQUIRE(site.store().tool_by_slug("codestral-2-1")->panel.total >= kMinVotesForInterval);

  const auto votes = wilson_interval(4, 5);
  const auto expected =
      "95% interval " + std::to_string(votes.low) + "–" + std::to_string(votes.high) + "%";
  CHECK(text_of(test::kBundledComparison).find("80% · 5 votes · " + expected) != std::string::npos);
  for (const auto &path : pages) {
    INFO(path);
    const auto text = text_of(path);
    CHECK(shares_without_interval(text) == std::vector<std::string>{});
    // Beyond the footer's link: the page's own numbers lead to how they are made.
    const auto body = client.Get(path.c_str())->body;
    size_t links = 0;
    for (auto at = body.find("href=\"/methodology"); at != std::string::npos;
         at = body.find("href=\"/methodology", at + 1))
      ++links;
    if (text.find('%') != std::string::npos) CHECK(links >= 2);
    // Every interval is read in plain words one tap away, in a fold on the same page.
    const auto readings = readings_of(body);
    for (const auto &interval : intervals_in(body)) {
      INFO(interval);
      CHECK(readings.find(interval + ": we are 95% sure the true share of ") != std::string::npos);
    }
  }
  // The comparison: the tool's card (panel and community), its tally, the glance (panel,
  // community and each side's picks) and each side of the head-to-head split.
  const auto comparison = client.Get(test::kBundledComparison)->body;
  CHECK(intervals_in(comparison).size() == 9);
  CHECK(community_stat(comparison) == "<div class=\"stat\"");
  const auto readings = readings_of(comparison);
  CHECK(readings.find("we are 95% sure the true share of readers who would ship Codestral 2.1 is "
                      "between " +
                      std::to_string(votes.low) + "% and " + std::to_string(votes.high) + "%.") !=
        std::string::npos);
  CHECK(comparison.find("<details class=\"fold readings\"><summary>The intervals in plain "
                        "words</summary>") != std::string::npos);
}

TEST_CASE("http: any other pair renders under one alphabetical address, reached from the form") {
  test::SiteServer site;
  auto client = site.client();
  const auto reverse = client.Get("/compare/mistral-3-small-vs-codestral-2-1");
  REQUIRE(reverse);
  CHECK(reverse->status == 301);
  CHECK(reverse->get_header_value("Location") == "/compare/codestral-2-1-vs-mistral-3-small");
  const auto page = client.Get("/compare/codestral-2-1-vs-mistral-3-small");
  CHECK(page->status == 200);
  CHECK(page->body.find(
            "<link rel=\"canonical\" href=\"/compare/codestral-2-1-vs-mistral-3-small\"") !=
        std::string::npos);

  const auto form = client.Get("/compare?a=mistral-3-small&b=codestral-2-1");
  REQUIRE(form);
  CHECK(form->status == 303);
  CHECK(form->get_header_value("Location") == "/compare/mistral-3-small-vs-codestral-2-1");
  for (const auto *bad : {"/compare?a=codestral-2-1&b=codestral-2-1", "/compare?a=codestral-2-1",
                          "/compare?a=%3Cx%3E&b=codestral-2-1"}) {
    INFO(bad);
    CHECK(client.Get(bad)->status == 400);
  }
}

TEST_CASE("http: the directories list every tool with its numbers and every reviewer") {
  test::SiteServer site;
  auto client = site.client();
  const auto tools = test::visible_text(client.Get("/tools")->body);
  for (const auto &tool : site.store().tools_by_name()) {
    INFO(tool.slug);
    CHECK(tools.find(tool.name) != std::string::npos);
  }
  const auto table = client.Get("/tools")->body;
  CHECK(table.find("href=\"/tools/code-llama-4-70b\"") != std::string::npos);
  CHECK(tools.find("75% · 3 of 4") != std::string::npos);
  CHECK(tools.find("100% · 4 of 4") != std::string::npos);
  const auto reviewers = test::visible_text(client.Get("/reviewers")->body);
  for (const auto &reviewer : site.store().reviewers()) {
    INFO(reviewer.slug);
    CHECK(reviewers.find(reviewer.name) != std::string::npos);
  }
  CHECK(reviewers.find("Ships 60% · 3 of 5 reviews") != std::string::npos);
}

TEST_CASE("http: a tool page shows its pricing read, every review and its comparisons") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/tools/codestral-2-1");
  REQUIRE(page);
  const auto text = test::visible_text(page->body);
  const auto tool = site.store().tool_by_slug("codestral-2-1");
  CHECK(text.find(tool->pricing_notes.substr(0, 60)) != std::string::npos);
  CHECK(text.find("Checked " + tool->pricing_checked_on) != std::string::npos);
  for (const auto &review : test::reviews_of_tool(site.store(), tool->slug))
    CHECK(text.find(review.quote.substr(0, 80)) != std::string::npos);
  CHECK(page->body.find("href=\"/compare/cursor-background-agent-vs-codestral-2-1\"") !=
        std::string::npos);
}

TEST_CASE("http: a head-to-head pick can be changed and withdrawn") {
  test::SiteServer site;
  auto client = site.client();
  const auto first =
      test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=a");
  const auto voter = test::cookie_from(first);
  REQUIRE(voter.size() == 32);
  CHECK(test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=b", voter)
            ->status == 303);
  const auto a = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto b = site.store().tool_by_slug("codestral-2-1")->id;
  CHECK(test::pair_tally(site.store(), a, b).a == 0);
  CHECK(test::pair_tally(site.store(), a, b).b == 1);
  const auto own =
      client.Get(test::kBundledComparison, {{"Cookie", "verdict_voter=" + voter}})->body;
  CHECK(own.find("value=\"b\" aria-pressed=\"true\"") != std::string::npos);
  CHECK(test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=withdraw",
                        voter)
            ->status == 303);
  CHECK(test::pair_tally(site.store(), a, b).b == 0);
  CHECK(
      test::post_form(client, std::string(test::kBundledComparison) + "/vote", "pick=c")->status ==
      400);
}

TEST_CASE("http: writes to addresses that name nothing get a 404 page and write nothing") {
  test::SiteServer site;
  auto client = site.client();
  for (const std::string path : {"/tools/no-such-tool/vote", "/tools/Bad_Slug/vote",
                                 "/compare/nothing-vs-nowhere/vote", "/compare/x/vote"}) {
    INFO(path);
    const auto body = path.rfind("/compare/", 0) == 0 ? "pick=a" : "verdict=ship";
    const auto res = test::post_form(client, path, body);
    REQUIRE(res);
    CHECK(res->status == 404);
    CHECK(test::visible_text(res->body).find("Not found") != std::string::npos);
    CHECK_FALSE(res->has_header("Set-Cookie"));
  }
}

TEST_CASE("http: a subscription lands on the confirmation page and is kept once") {
  test::SiteServer site;
  auto client = site.client();
  const auto res = test::post_form(client, "/subscribe", "email=reader%40example.com");
  REQUIRE(res);
  CHECK(res->status == 303);
  CHECK(res->get_header_value("Location").rfind("/subscribed?m=", 0) == 0);
  CHECK(test::post_form(client, "/subscribe", "email=Reader%40Example.com")->status == 303);
  CHECK(site.store().subscriber_counts().total() == 1);
  const auto long_address = std::string(60, 'r') + "%40" + std::string(60, 'e') + ".example.com";
  CHECK(test::post_form(client, "/subscribe", "email=" + long_address)->status == 303);
  CHECK(test::subscriber_emails(site.store()) ==
        std::vector<std::string>{"reader@example.com", std::string(60, 'r') + "@" +
                                                           std::string(60, 'e') + ".example.com"});
  // Only a form: the sign-up refuses other bodies like every write.
  CHECK(client
            .Post("/subscribe", {{"Sec-Fetch-Site", "same-origin"}}, "email=a%40example.com",
                  "text/plain")
            ->status == 415);
  const auto bad = test::post_form(client, "/subscribe", "email=not-an-address");
  CHECK(bad->status == 400);
  CHECK(site.store().subscriber_counts().total() == 2);
}

TEST_CASE("http: a page asked for in ranges is sent whole, never larger than it is") {
  test::SiteServer site;
  auto client = site.client();
  const auto whole = client.Get(test::kBundledComparison);
  REQUIRE(whole);
  for (const auto *range : {"bytes=0-1", "bytes=0-1,5-6", "bytes=-5", "bytes=99999999-",
                            "bytes=abc", "bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7"}) {
    INFO(range);
    const auto res =
        client.Get(test::kBundledComparison, {{"Range", range}, {"If-Range", "\"x\""}});
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->body == whole->body);
  }
}

namespace verdict {

TEST_CASE("http: every answer's Cache-Control is one of the site's caching policies, and each "
          "kind of answer gets its own") {
  test::SiteServer site;
  auto client = site.client();
  std::set<std::string> policies;
  for (const auto policy :
       {CachePolicy::never_kept, CachePolicy::revalidated, CachePolicy::shared_revalidated,
        CachePolicy::anonymous_page, CachePolicy::personal_page, CachePolicy::immutable,
        CachePolicy::moved_for_a_day})
    policies.insert(std::string(cache_control_of(policy)));
  CHECK(policies.size() == 7); // each its own value
  const auto home = client.Get("/");
  REQUIRE(home);
  std::smatch stylesheet;
  REQUIRE(std::regex_search(home->body, stylesheet, std::regex(R"rx(/static/[^"]+\.css)rx")));
  const std::string voter = "Cookie", voter_cookie = "verdict_voter=" + test::kVoter1;
  // Each path, with the policy its answer must carry.
  const std::vector<std::tuple<std::string, bool, CachePolicy>> answers = {
      {"/", false, CachePolicy::anonymous_page},
      {test::kBundledComparison, false, CachePolicy::anonymous_page},
      {test::kBundledComparison, true, CachePolicy::personal_page},
      {"/tools/codestral-2-1", true, CachePolicy::personal_page},
      {"/compare/codestral-2-1-vs-cursor-background-agent", false, CachePolicy::moved_for_a_day},
      {"/no-such-page", false, CachePolicy::never_kept},
      {"/healthz", false, CachePolicy::never_kept},
      {"/admin", false, CachePolicy::never_kept},
      {"/robots.txt", false, CachePolicy::revalidated},
      {"/sitemap.xml", false, CachePolicy::revalidated},
      {"/transparency/log?start=0&end=0", false, CachePolicy::shared_revalidated},
      {stylesheet.str(), false, CachePolicy::immutable},
      {"/feed.xml", false, CachePolicy::revalidated},
      {"/api/tools", false, CachePolicy::anonymous_page},
  };
  for (const auto &[path, as_voter, policy] : answers) {
    INFO(path << (as_voter ? " as a voter" : ""));
    const auto res = as_voter ? client.Get(path, {{voter, voter_cookie}}) : client.Get(path);
    REQUIRE(res);
    CHECK(res->get_header_value_count("Cache-Control") == 1);
    const auto value = res->get_header_value("Cache-Control");
    CHECK(policies.count(value) == 1);
    CHECK(value == cache_control_of(policy));
  }
}

} // namespace verdict
