// How the site is found: robots.txt, the sitemap, canonical links, the favicon, and which
// pages search engines are asked to leave out.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace verdict;

TEST_CASE("found: robots.txt keeps crawlers out of the desk and names the sitemap") {
  test::SiteServer site;
  auto client = site.client();
  const auto robots = client.Get("/robots.txt");
  REQUIRE(robots);
  CHECK(robots->status == 200);
  CHECK(robots->get_header_value("Content-Type") == "text/plain; charset=utf-8");
  CHECK(robots->body.find("User-agent: *\nDisallow: /admin\n") == 0);
  // Without a configured address, the one the request was sent to.
  CHECK(robots->body.find("Sitemap: http://127.0.0.1:" + std::to_string(site.port()) +
                          "/sitemap.xml") != std::string::npos);
  const auto spoofed = client.Get("/robots.txt", {{"Host", "evil.example/<x>"}});
  CHECK(spoofed->body.find("<x>") == std::string::npos);
}

TEST_CASE("found: the sitemap lists every published comparison with its date, every tool and "
          "reviewer, and no unpublished pair") {
  test::SiteServer site;
  auto client = site.client();
  const auto map = client.Get("/sitemap.xml");
  REQUIRE(map);
  CHECK(map->status == 200);
  CHECK(map->get_header_value("Content-Type") == "application/xml; charset=utf-8");
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  CHECK(map->body.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
                              "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
  CHECK(map->body.find("<url><loc>" + base +
                       "/compare/cursor-background-agent-vs-codestral-2-1"
                       "</loc><lastmod>2026-11-03</lastmod></url>") != std::string::npos);
  for (const auto &tool : site.store().tools_by_name())
    CHECK(map->body.find("<loc>" + base + "/tools/" + tool.slug + "</loc>") != std::string::npos);
  for (const auto &reviewer : site.store().reviewers())
    CHECK(map->body.find("<loc>" + base + "/reviewers/" + reviewer.slug + "</loc>") !=
          std::string::npos);
  CHECK(map->body.find("/compare/codestral-2-1-vs-code-llama-4") == std::string::npos);
  size_t comparisons = 0;
  for (auto at = map->body.find("/compare/"); at != std::string::npos;
       at = map->body.find("/compare/", at + 1))
    ++comparisons;
  CHECK(comparisons == 5);
}

TEST_CASE("found: a pair nobody published asks search engines to leave it out, a published one "
          "does not") {
  test::SiteServer site;
  auto client = site.client();
  const auto noindex = "<meta name=\"robots\" content=\"noindex\">";
  const auto published = client.Get("/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK(published->body.find(noindex) == std::string::npos);
  const auto unpublished = client.Get("/compare/code-llama-4-vs-codestral-2-1");
  REQUIRE(unpublished->status == 200);
  CHECK(unpublished->body.find(noindex) != std::string::npos);
}

TEST_CASE("found: /favicon.ico leads to the site's icon") {
  test::SiteServer site;
  auto client = site.client();
  const auto icon = client.Get("/favicon.ico");
  REQUIRE(icon);
  CHECK(icon->status == 301);
  const auto target = client.Get(icon->get_header_value("Location").c_str());
  CHECK(target->status == 200);
  CHECK(target->get_header_value("Content-Type") == "image/svg+xml");
}

TEST_CASE("found: the categories list every kind of tool with its count, and each category page "
          "lists its tools, linked from every tool card") {
  test::SiteServer site;
  auto client = site.client();
  const auto all = client.Get("/categories");
  REQUIRE(all->status == 200);
  const auto listing = site.store().categories_with_tool_counts();
  REQUIRE(!listing.empty());
  const auto text = test::visible_text(all->body);
  for (const auto &category : listing) {
    CHECK(text.find(category.category.name) != std::string::npos);
    CHECK(all->body.find("href=\"/categories/" + category.category.slug + "\"") !=
          std::string::npos);
  }
  const auto &first = listing.front();
  const auto page = client.Get(("/categories/" + first.category.slug).c_str());
  REQUIRE(page->status == 200);
  const auto page_text = test::visible_text(page->body);
  CHECK(page_text.find(std::to_string(first.tools) + " tool") != std::string::npos);
  size_t shown = 0;
  for (const auto &tool : site.store().tools_by_name()) {
    const bool listed = page->body.find("href=\"/tools/" + tool.slug + "\"") != std::string::npos;
    CHECK(listed == (tool.category.slug == first.category.slug));
    shown += listed;
  }
  CHECK(shown == static_cast<size_t>(first.tools));
  CHECK(client.Get("/compare/cursor-background-agent-vs-codestral-2-1")
            ->body.find("href=\"/categories/" + first.category.slug + "\"") != std::string::npos);
  CHECK(client.Get("/categories/no-such-kind")->status == 404);
  CHECK(client.Get(("/categories/" + first.category.slug + "?page=2").c_str())->status == 404);
}

TEST_CASE("found: the methodology states the formulas, each persona's ship rate and what the "
          "site never does, and every card's figures link to it") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/methodology");
  REQUIRE(page->status == 200);
  const auto text = test::visible_text(page->body);
  for (const auto *said :
       {"Ship reviews ÷ reviews", "Ship votes ÷ counted votes",
        "At most 3 readers from one network count", "A vote comes from a page",
        "Nothing set aside is hidden", "The trade-off", "Wilson score interval",
        "editorial personas, not independent people", "No paid placement", "No hidden weighting"})
    CHECK(text.find(said) != std::string::npos);
  for (const auto &reviewer : site.store().reviewers()) {
    const auto rate =
        std::to_string(reviewer.verdicts.ships) + " of " + std::to_string(reviewer.verdicts.total);
    CHECK(text.find(reviewer.name) != std::string::npos);
    CHECK(text.find(rate) != std::string::npos);
  }
  const auto comparison = client.Get("/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK(comparison->body.find("<a href=\"/methodology#panel\">Panel ship</a>") !=
        std::string::npos);
  CHECK(comparison->body.find("<a href=\"/methodology#community\">Community</a>") !=
        std::string::npos);
}

TEST_CASE("found: every page type has exactly one h1, a tool's page its name") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *path :
       {"/", "/compare/cursor-background-agent-vs-codestral-2-1",
        "/compare/code-llama-4-vs-codestral-2-1", "/tools/codestral-2-1", "/tools", "/comparisons",
        "/categories", "/categories/developer-tools", "/reviewers/builder", "/reviewers",
        "/methodology", "/search", "/search?q=codestral", "/no-such-page", "/admin/login"}) {
    INFO(path);
    const auto page = client.Get(path);
    REQUIRE(page);
    size_t headings = 0;
    for (auto at = page->body.find("<h1"); at != std::string::npos;
         at = page->body.find("<h1", at + 1))
      ++headings;
    CHECK(headings == 1);
  }
  CHECK(client.Get("/tools/codestral-2-1")
            ->body.find("<h1 class=\"tool-name\" id=\"name-codestral-2-1\">Codestral 2.1</h1>") !=
        std::string::npos);
}

TEST_CASE("found: comparison and tool pages describe themselves to search engines in schema.org "
          "JSON-LD") {
  test::SiteServer site;
  auto client = site.client();
  const auto structured = [&](const char *path) {
    const auto body = client.Get(path)->body;
    const std::string open = "<script type=\"application/ld+json\">";
    const auto at = body.find(open);
    REQUIRE(at != std::string::npos);
    const auto start = at + open.size();
    return nlohmann::json::parse(body.substr(start, body.find("</script>", start) - start));
  };
  const auto article = structured("/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK(article["@context"] == "https://schema.org");
  CHECK(article["@type"] == "Article");
  CHECK(article["headline"] == "Cursor Background Agent vs Codestral 2.1");
  CHECK(article["datePublished"] == "2026-11-03");
  REQUIRE(article["about"].size() == 2);
  CHECK(article["about"][1]["@type"] == "SoftwareApplication");
  CHECK(article["about"][1]["name"] == "Codestral 2.1");
  const auto tool = structured("/tools/codestral-2-1");
  CHECK(tool["@type"] == "SoftwareApplication");
  CHECK(tool["applicationCategory"] == "Developer Tools");
  CHECK(client.Get("/tools")->body.find("application/ld+json") == std::string::npos);
}
