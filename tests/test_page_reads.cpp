// One page, one read: every page's data, its site copy included, comes from one moment of the
// database, so a page never mixes two moments and costs one read.
#include <catch2/catch.hpp>

#include "auth/secrets.h"
#include "test_support.h"

using namespace verdict;

namespace {

// How many reads of the database answering `path` took, with its status.
std::pair<int, uint64_t> reads_for(test::SiteServer &site, httplib::Client &client,
                                   const std::string &path, const httplib::Headers &headers = {}) {
  const auto before = site.store().reads_taken();
  const auto res = client.Get(path, headers);
  return {res ? res->status : 0, site.store().reads_taken() - before};
}

} // namespace

TEST_CASE("one page, one read: every page a reader, a feed reader or the desk opens reads the "
          "database once, and a kept page not at all") {
  test::SiteServer site;
  test::add_editor(site.store(), test::kEditorEmail, auth::hash_password(test::kEditorPassword));
  auto client = site.client();
  for (const std::string &path :
       std::vector<std::string>{"/",
                                "/comparisons",
                                test::kBundledComparison,
                                test::kBundledComparison + "/card.svg",
                                test::kBundledComparison + "/card.png",
                                test::kBundledComparison + "/badge.svg",
                                "/tools",
                                "/tools/codestral-2-1",
                                "/tools/codestral-2-1/feed.xml",
                                "/tools/codestral-2-1/badge.svg",
                                "/methodology",
                                "/categories",
                                "/categories/developer-tools",
                                "/reviewers",
                                "/reviewers/skeptic",
                                "/reviewers/skeptic/feed.xml",
                                "/feed.xml",
                                "/search?q=cursor",
                                "/subscribe",
                                "/api/tools",
                                "/api/tools/codestral-2-1",
                                "/api/compare/cursor-background-agent-vs-codestral-2-1",
                                "/sitemap.xml"}) {
    INFO(path);
    const auto [status, reads] = reads_for(site, client, path);
    CHECK(status == 200);
    CHECK(reads == 1);
  }
  // Served again, a kept page is not read again.
  CHECK(reads_for(site, client, "/").second == 0);

  // A voter's page: the kept page with their own vote read in.
  const std::string voter = "0123456789abcdef0123456789abcdef";
  const auto vote = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship", voter);
  REQUIRE(vote);
  REQUIRE(vote->status == 303);
  for (const std::string &path :
       std::vector<std::string>{"/tools/codestral-2-1", test::kBundledComparison}) {
    INFO(path << " as a voter");
    const auto [status, reads] =
        reads_for(site, client, path, {{"Cookie", "verdict_voter=" + voter}});
    CHECK(status == 200);
    CHECK(reads == 1);
  }

  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  for (const std::string path :
       {"/admin", "/admin/log", "/admin/categories", "/admin/tools", "/admin/tools/codestral-2-1",
        "/admin/reviewers", "/admin/reviews", "/admin/comparisons",
        "/admin/comparisons/cursor-background-agent-vs-codestral-2-1", "/admin/subscribers"}) {
    INFO(path << " at the desk");
    const auto before = site.store().reads_taken();
    const auto res = test::get_at_desk(client, session, path);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(site.store().reads_taken() - before == 1);
  }
}
