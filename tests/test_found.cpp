// How the site is found: robots.txt, the sitemap, canonical links, the favicon, and which
// pages search engines are asked to leave out.
#include <catch2/catch.hpp>

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
