// Lists at scale: a generated site (bench/generate_site.h) is the same for the same seed, and
// every list of the site is paginated so that following the next links from the first page
// shows each item exactly once, with prev links back, and no page past the last.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <set>

#include "bench/generate_site.h"
#include "domain/numbers.h"
#include "store/page_starts.h"
#include "store/sqlite.h"
#include "test_support.h"

using namespace verdict;

namespace {

SiteSize small_site() {
  SiteSize size;
  size.tools = 40;
  size.reviewers = 12;
  size.reviews = 200;
  size.comparisons = 30;
  size.votes = 500;
  size.voters = 80;
  return size;
}

std::string href_of(const std::string &html, const char *rel) {
  const std::regex link(std::string("<a href=\"([^\"]+)\" rel=\"") + rel + "\">");
  std::smatch match;
  if (!std::regex_search(html, match, link)) return {};
  // As a browser reads the attribute: "&amp;" is "&".
  auto href = match[1].str();
  for (auto at = href.find("&amp;"); at != std::string::npos; at = href.find("&amp;", at + 1))
    href.replace(at, 5, "&");
  return href;
}

struct Walk {
  std::vector<std::string> pages;         // addresses, first to last
  std::vector<std::string> items;         // every item of every page, in order
  std::map<std::string, int> occurrences; // how often each item was seen
};

// Follows rel="next" from `first`, checking that each page links back to the one before it
// with rel="prev" and that the page after the last answers 404. `item` captures one item.
Walk walk(httplib::Client &client, const std::string &first, const std::regex &item) {
  Walk walked;
  std::string address = first, previous;
  while (!address.empty()) {
    INFO(address);
    const auto res = client.Get(address.c_str());
    REQUIRE(res);
    REQUIRE(res->status == 200);
    CHECK(href_of(res->body, "prev") == previous);
    walked.pages.push_back(address);
    for (std::sregex_iterator it(res->body.begin(), res->body.end(), item), end; it != end; ++it) {
      walked.items.push_back((*it)[1].str());
      ++walked.occurrences[(*it)[1].str()];
    }
    previous = address;
    address = href_of(res->body, "next");
    REQUIRE(walked.pages.size() < 100);
  }
  const auto past_the_end = first + (first.find('?') == std::string::npos ? "?page=" : "&page=") +
                            std::to_string(walked.pages.size() + 1);
  INFO(past_the_end);
  CHECK(client.Get(past_the_end.c_str())->status == 404);
  return walked;
}

void check_each_once(const Walk &walked, const std::vector<std::string> &expected) {
  CHECK(walked.items == expected);
  for (const auto &[item, count] : walked.occurrences) {
    INFO(item);
    CHECK(count == 1);
  }
}

// A site whose tools and comparisons run to many pages, in a fresh in-memory store.
std::unique_ptr<Store> deep_lists_store() {
  SiteSize size = small_site();
  size.tools = 400;
  size.comparisons = 300;
  auto store = std::make_unique<Store>(":memory:");
  write_site(*store, generate_site(3, size));
  return store;
}

// The published comparisons' ids in the archive's order, read here with SQL of the test's own.
std::vector<int64_t> comparison_ids(Store &store) {
  return store.read([](sql::Db &db) {
    auto stmt = db.prepare("SELECT id FROM comparisons WHERE published_on IS NOT NULL "
                           "ORDER BY published_on DESC, id DESC");
    std::vector<int64_t> ids;
    while (stmt.step())
      ids.push_back(stmt.int64(0));
    return ids;
  });
}

template <class T> std::vector<T> slice(const std::vector<T> &all, int number, int size) {
  const auto from = std::min(all.size(), static_cast<size_t>((number - 1) * size));
  const auto to = std::min(all.size(), from + static_cast<size_t>(size));
  return {all.begin() + static_cast<std::ptrdiff_t>(from),
          all.begin() + static_cast<std::ptrdiff_t>(to)};
}

// Pages 7, 3 and 8 first, then every other page of the tools directory and the comparisons
// archive (and the page past each one's end) in a shuffled order, `size` rows a page: each is
// exactly the slice of the whole list in the plain order (every row, no OFFSET, no memo).
void check_pages_in_any_order(Store &store, int size, unsigned seed) {
  std::vector<std::string> tools;
  for (const auto &tool : store.tools_by_name())
    tools.push_back(tool.slug);
  const auto comparisons = comparison_ids(store);
  const auto shuffled_pages = [&](size_t rows) {
    std::vector<int> pages(rows / static_cast<size_t>(size) + 2);
    std::iota(pages.begin(), pages.end(), 1);
    std::shuffle(pages.begin(), pages.end(), std::mt19937(seed));
    for (const int first : {8, 3, 7}) {
      pages.erase(std::remove(pages.begin(), pages.end(), first), pages.end());
      pages.insert(pages.begin(), first);
    }
    return pages;
  };
  for (const int number : shuffled_pages(tools.size())) {
    INFO("tools page " << number << " of " << size);
    const auto page = store.tools_by_name({number, size});
    std::vector<std::string> slugs;
    for (const auto &tool : page.items)
      slugs.push_back(tool.slug);
    CHECK(slugs == slice(tools, number, size));
    CHECK(page.has_next == (static_cast<size_t>(number * size) < tools.size()));
  }
  for (const int number : shuffled_pages(comparisons.size())) {
    INFO("comparisons page " << number << " of " << size);
    const auto page = store.published_comparisons({number, size});
    std::vector<int64_t> ids;
    for (const auto &comparison : page.items)
      ids.push_back(comparison.id);
    CHECK(ids == slice(comparisons, number, size));
    CHECK(page.has_next == (static_cast<size_t>(number * size) < comparisons.size()));
  }
}

int64_t version_of(Store &store, const char *list) {
  return store.read([&](sql::Db &db) { return list_version(db, list); });
}

} // namespace

TEST_CASE("pagination: deep pages read in any order are the pages of the plain order") {
  auto store = deep_lists_store();
  REQUIRE(store->tools_by_name().size() == 400);
  REQUIRE(comparison_ids(*store).size() > 200);
  check_pages_in_any_order(*store, 20, 1);
  check_pages_in_any_order(*store, 20, 2); // now from the starts the first pass learnt
  check_pages_in_any_order(*store, 10, 3); // the front page's size beside the directory's
  check_pages_in_any_order(*store, 20, 4);
}

TEST_CASE("pagination: after a tool is added, renamed and removed no page starts where it did") {
  auto store = deep_lists_store();
  check_pages_in_any_order(*store, 20, 1); // every page start learnt
  const auto content = store->export_content();
  const auto tools = store->tools_by_name();

  // Added through an import, first by name: every later row moves down one place. With it,
  // a comparison newer than any.
  auto added = content.tools.front();
  added.slug = "aaa-first-tool";
  added.name = "Aaa first tool";
  Content addition;
  addition.tools = {added};
  addition.comparisons = {{added.slug, tools[5].slug, "2030-01-01", "The newest.", ""}};
  store->set_today([] { return std::string("2030-01-01"); }); // the day it comes out
  test::import_content(*store, addition);
  check_pages_in_any_order(*store, 20, 2);
  check_pages_in_any_order(*store, 10, 3);

  // Renamed through an import: a tool from the middle moves to the end. With it, a published
  // comparison is withdrawn.
  auto renamed = *std::find_if(content.tools.begin(), content.tools.end(),
                               [&](const auto &tool) { return tool.slug == tools[200].slug; });
  renamed.name = "Zzz renamed";
  Content rename;
  rename.tools = {renamed};
  auto withdrawn = *std::find_if(content.comparisons.begin(), content.comparisons.end(),
                                 [](const auto &c) { return !c.published_on.empty(); });
  withdrawn.published_on.clear();
  rename.comparisons = {withdrawn};
  test::import_content(*store, rename);
  check_pages_in_any_order(*store, 20, 4);

  // Removed (no page removes a tool; the store's writer does): the rows after it move up, and
  // its comparisons go with it.
  store->write([&](sql::Db &db) {
    db.prepare("DELETE FROM tools WHERE slug = :slug").bind(":slug", tools[100].slug).run();
  });
  REQUIRE(store->tools_by_name().size() == 400);
  check_pages_in_any_order(*store, 20, 5);
  check_pages_in_any_order(*store, 10, 6);

  // Votes and an import that changes nothing leave the orders, and their versions, as they are.
  const auto tools_version = version_of(*store, "tools_by_name");
  const auto comparisons_version = version_of(*store, "published_comparisons");
  test::cast_tool_vote(*store, test::ballot_of(std::string(32, 'b')), tools[3].id, Verdict::ship);
  test::import_content(*store, store->export_content());
  CHECK(version_of(*store, "tools_by_name") == tools_version);
  CHECK(version_of(*store, "published_comparisons") == comparisons_version);
}

TEST_CASE("generator: the same seed gives the same site and votes, another seed another") {
  const auto first = generate_site(11, small_site());
  const auto again = generate_site(11, small_site());
  const auto other = generate_site(12, small_site());
  CHECK(content_to_json(first.content) == content_to_json(again.content));
  CHECK(content_to_json(first.content) != content_to_json(other.content));
  const auto votes_of = [](const VoteLoad &load) {
    std::vector<std::tuple<std::string, std::string, bool, int64_t>> rows;
    for (const auto &v : load.tool_votes)
      rows.emplace_back(load.voters[v.voter], load.tools[v.tool], v.ship, v.cast_at);
    for (const auto &v : load.pair_picks)
      rows.emplace_back(load.voters[v.voter], load.tools[v.a] + " " + load.tools[v.b],
                        v.pick == v.a, v.cast_at);
    return rows;
  };
  CHECK(votes_of(first.votes) == votes_of(again.votes));
  CHECK(votes_of(first.votes) != votes_of(other.votes));
  const auto size = small_site();
  CHECK(first.content.tools.size() == static_cast<size_t>(size.tools));
  CHECK(first.content.reviewers.size() == static_cast<size_t>(size.reviewers));
  CHECK(first.content.reviews.size() == static_cast<size_t>(size.reviews));
  CHECK(first.content.comparisons.size() == static_cast<size_t>(size.comparisons));
  CHECK(first.votes.tool_votes.size() + first.votes.pair_picks.size() ==
        static_cast<size_t>(size.votes));
}

TEST_CASE("generator: every generated vote is counted once in the tallies the pages read") {
  const auto site = generate_site(5, small_site());
  REQUIRE(parse_content(content_to_json(site.content)).errors.empty());
  Store store(":memory:");
  write_site(store, site);
  int64_t tool_votes = 0, pair_picks = 0;
  for (const auto &tool : store.tools_by_name())
    tool_votes += tool.community.total;
  for (const auto &comparison : site.content.comparisons) {
    const auto a = store.tool_by_slug(comparison.a), b = store.tool_by_slug(comparison.b);
    const auto tally = test::pair_tally(store, a->id, b->id);
    pair_picks += tally.a + tally.b;
  }
  CHECK(tool_votes == static_cast<int64_t>(site.votes.tool_votes.size()));
  CHECK(pair_picks == static_cast<int64_t>(site.votes.pair_picks.size()));
  CHECK(store.published_comparisons({1, 1000}).items.size() == site.content.comparisons.size());
}

TEST_CASE("pagination: every tool, reviewer and comparison is on exactly one directory page") {
  test::TempDir dir;
  test::SiteServer site(test::write_generated_site(dir));
  auto client = site.client();

  const auto tools = walk(client, "/tools", std::regex(R"re(<a href="/tools/([a-z0-9-]+)">)re"));
  std::vector<std::string> tool_slugs;
  for (const auto &tool : site.store().tools_by_name())
    tool_slugs.push_back(tool.slug);
  CHECK(tools.pages.size() == 7); // 130 tools, 20 a page
  check_each_once(tools, tool_slugs);

  const auto reviewers =
      walk(client, "/reviewers", std::regex(R"re(<a href="/reviewers/([a-z0-9-]+)">)re"));
  std::vector<std::string> reviewer_slugs;
  for (const auto &reviewer : site.store().reviewers())
    reviewer_slugs.push_back(reviewer.slug);
  CHECK(reviewers.pages.size() == 6);
  check_each_once(reviewers, reviewer_slugs);

  const auto comparisons =
      walk(client, "/comparisons",
           std::regex(R"re(<a class="comparison-link" href="/compare/([^"]+)">)re"));
  CHECK(comparisons.pages.size() == 6);
  CHECK(comparisons.items.size() == 120);
  check_each_once(comparisons, comparisons.items);
}

TEST_CASE("pagination: a tool's and a reviewer's reviews and a scorecard are split into pages") {
  test::TempDir dir;
  test::SiteServer site(test::write_generated_site(dir));
  auto client = site.client();
  // The most reviewed tool: past 100 reviews they are read walking the panel, 20 a page.
  const auto tools = site.store().tools_by_name();
  const auto most = *std::max_element(tools.begin(), tools.end(), [](const auto &x, const auto &y) {
    return x.panel.total < y.panel.total;
  });
  REQUIRE(most.panel.total > 100);

  std::vector<std::string> expected;
  for (const auto &review : test::reviews_of_tool(site.store(), most.slug))
    expected.push_back(review.reviewer_slug);
  const auto quote_by = std::regex(R"re(<p class="quote-by"><a href="/reviewers/([a-z0-9-]+)">)re");
  const auto tool_pages = walk(client, "/tools/" + most.slug, quote_by);
  CHECK(tool_pages.pages.size() >= 6);
  check_each_once(tool_pages, expected);

  const auto reviewer = site.store().reviewers().front();
  const auto by_reviewer =
      walk(client, "/reviewers/" + reviewer.slug,
           std::regex(R"re(<p class="quote-tool-heading"><a href="/tools/([a-z0-9-]+)">)re"));
  CHECK(static_cast<int64_t>(by_reviewer.items.size()) == reviewer.verdicts.total);
  check_each_once(by_reviewer, by_reviewer.items);

  // A pair with the most reviewed tool: each side's reviews, in panel order, once each.
  const auto other = tools.front().id == most.id ? tools.back() : tools.front();
  const auto pair = "/compare/" + most.slug + "-vs-" + other.slug;
  const auto canonical = client.Get(pair.c_str());
  const auto address = canonical->status == 301 ? canonical->get_header_value("Location") : pair;
  const auto scorecard = walk(
      client, address,
      std::regex(R"re(<li class="quote side-((?:a|b)">\s*<details class="fold quote-fold">\s*)re"
                 R"re(<summary>.*?</summary>\s*<blockquote><p>[^<]*</p></blockquote>)re"
                 R"re(\s*<p class="quote-by"><a href="/reviewers/[a-z0-9-]+))re"));
  check_each_once(scorecard, scorecard.items);
  CHECK(scorecard.pages.size() >= 3);
  CHECK(scorecard.items.size() ==
        expected.size() + test::reviews_of_tool(site.store(), other.slug).size());
}

TEST_CASE("pagination: a page number that is not one is refused, and pages cache apart") {
  test::TempDir dir;
  test::SiteServer site(test::write_generated_site(dir));
  auto client = site.client();
  const auto first = client.Get("/tools");
  const auto second = client.Get("/tools?page=2");
  REQUIRE(first->status == 200);
  REQUIRE(second->status == 200);
  // Served again from the page cache, each page keeps its own bytes.
  CHECK(client.Get("/tools?page=2")->body == second->body);
  CHECK(client.Get("/tools")->body == first->body);
  CHECK(client.Get("/tools?page=1")->body == first->body);
  CHECK(client.Get("/tools?page=2&utm=x")->body == second->body);
  CHECK(first->get_header_value("ETag") != second->get_header_value("ETag"));
  CHECK(second->body.find("<link rel=\"canonical\" href=\"/tools?page=2\">") != std::string::npos);
  for (const auto *bad : {"/tools?page=0", "/tools?page=abc", "/tools?page=02", "/tools?page=-1",
                          "/tools?page=", "/tools?page=1&page=2", "/tools?page=99999999",
                          "/reviewers?page=x", "/comparisons?page=1.5"}) {
    INFO(bad);
    const auto res = client.Get(bad);
    CHECK(res->status == 400);
    CHECK(res->body.find("Not a page number") != std::string::npos);
  }
  for (const auto *past :
       {"/tools?page=8", "/tools?page=9999999", "/?page=2", "/subscribe?page=2"}) {
    INFO(past);
    CHECK(client.Get(past)->status == 404);
  }
  // A refused page number never reaches the cache: page 1 is still served at its address.
  CHECK(client.Get("/tools")->body == first->body);
}

TEST_CASE("pagination: the front page shows the first page of each list and links to the rest") {
  test::TempDir dir;
  test::SiteServer site(test::write_generated_site(dir));
  const auto home = site.client().Get("/")->body;
  const auto count = [&](const std::string &pattern) {
    const std::regex re(pattern);
    return std::distance(std::sregex_iterator(home.begin(), home.end(), re),
                         std::sregex_iterator());
  };
  CHECK(count(R"(<a class="comparison-link")") == 10);
  CHECK(count(R"(<th scope="row"><a href="/tools/)") == 10);
  CHECK(count(R"(<li><a href="/reviewers/)") == 10);
  for (const auto *more : {"/comparisons", "/tools", "/reviewers"})
    CHECK(home.find(std::string("<p class=\"more\"><a href=\"") + more + "\">") !=
          std::string::npos);
  // Past a hundred tools the picker asks for the other tool instead of listing them all.
  const auto tool = site.client().Get("/tools/" + site.store().tools_by_name().front().slug);
  CHECK(tool->body.find("<option") == std::string::npos);
  CHECK(tool->body.find("<input id=\"compare-with\" name=\"b\"") != std::string::npos);
}

TEST_CASE("pagination: the bundled site's lists fit on one page and show no page links") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *address :
       {"/", "/tools", "/reviewers", "/comparisons", "/tools/codestral-2-1", "/reviewers/investor",
        "/compare/cursor-background-agent-vs-codestral-2-1"}) {
    INFO(address);
    const auto res = client.Get(address);
    REQUIRE(res->status == 200);
    CHECK(res->body.find("class=\"pagination\"") == std::string::npos);
    CHECK(res->body.find("class=\"more\"") == std::string::npos);
    CHECK(client.Get((std::string(address) + "?page=2").c_str())->status == 404);
  }
}

TEST_CASE("pagination: the tools directory sorts by each lower bound and newest, filters by "
          "category and pricing, and keeps the choice on every page") {
  test::TempDir dir;
  test::SiteServer site(test::write_generated_site(dir));
  auto client = site.client();
  const std::regex tool_link(R"re(<a href="/tools/([a-z0-9-]+)">)re");
  std::map<std::string, Tool> by_slug;
  for (const auto &tool : site.store().tools_by_name())
    by_slug[tool.slug] = tool;

  // By the panel's lower bound: every tool once, the printed bound (whole percents, floored)
  // never rising down the list, the choice in every page's links.
  const auto panel = walk(client, "/tools?sort=panel", tool_link);
  CHECK(panel.items.size() == by_slug.size());
  for (const auto &[slug, count] : panel.occurrences)
    CHECK(count == 1);
  const auto panel_low = [&](const std::string &slug) {
    const auto &t = by_slug.at(slug).panel;
    return t.total == 0 ? 0 : wilson_interval(t.ships, t.total).low; // none: a bound of 0
  };
  for (size_t i = 1; i < panel.items.size(); ++i) {
    INFO(panel.items[i - 1] << " then " << panel.items[i]);
    CHECK(panel_low(panel.items[i - 1]) >= panel_low(panel.items[i]));
  }
  for (const auto &address : panel.pages)
    CHECK((address == "/tools?sort=panel" || address.starts_with("/tools?sort=panel&page=")));
  CHECK(panel.items != walk(client, "/tools", tool_link).items); // an order of its own

  // Readers' lower bound, filtered to one pricing model: only those tools, all of them.
  const auto free = walk(client, "/tools?sort=readers&pricing=Free", tool_link);
  size_t free_tools = 0;
  for (const auto &[slug, tool] : by_slug)
    free_tools += tool.entry == "Free";
  CHECK(free.items.size() == free_tools);
  for (const auto &slug : free.items)
    CHECK(by_slug.at(slug).entry == "Free");
  const auto readers_low = [&](const std::string &slug) {
    const auto &t = by_slug.at(slug).community;
    return t.total == 0 ? 0 : wilson_interval(t.ships, t.total).low;
  };
  for (size_t i = 1; i < free.items.size(); ++i)
    CHECK(readers_low(free.items[i - 1]) >= readers_low(free.items[i]));

  // Newest first, in one category.
  const auto &some = by_slug.begin()->second;
  const auto newest = walk(client, "/tools?sort=newest&category=" + some.category.slug, tool_link);
  for (size_t i = 0; i < newest.items.size(); ++i) {
    CHECK(by_slug.at(newest.items[i]).category.slug == some.category.slug);
    if (i > 0) CHECK(by_slug.at(newest.items[i - 1]).id > by_slug.at(newest.items[i]).id);
  }

  // What it cannot do is refused, saying why; an unknown category is not there.
  const auto refused = client.Get("/tools?sort=best");
  CHECK(refused->status == 400);
  CHECK(refused->body.find("sort must be one of name, panel, readers or newest") !=
        std::string::npos);
  CHECK(client.Get("/tools?pricing=Cheap")->status == 400);
  CHECK(client.Get("/tools?sort=panel&sort=name")->status == 400);
  CHECK(client.Get("/tools?category=no-such-category")->status == 404);

  // A page that ignores these values is kept once, not once for each value sent.
  REQUIRE(client.Get("/comparisons")->status == 200);
  const auto reads = site.store().reads_taken();
  for (int i = 0; i < 5; ++i)
    CHECK(client.Get(("/comparisons?sort=s" + std::to_string(i)).c_str())->status == 200);
  CHECK(site.store().reads_taken() == reads);
}
