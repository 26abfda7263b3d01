// Search as readers use it: /search over tools and the panel's quotes, ranked, its excerpts
// escaped, its index kept in step with every change at the desk, and safe whatever is typed.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "domain/name_index.h"
#include "render/pages.h"
#include "test_support.h"

using namespace verdict;

namespace {

ContentTool searched_tool(const std::string &slug, const std::string &name,
                          const std::string &tagline = "A tool",
                          const std::string &description = "It does things.") {
  return {slug, name, "developer-tools", tagline, description, "Free", "", "", "", "", ""};
}

// The tool slugs and reviewer slugs of a search's hits, in order: "tool" or "tool#reviewer".
std::vector<std::string> hits_of(Store &store, const std::string &text, PageSpan span = {1, 20}) {
  std::vector<std::string> hits;
  for (const auto &hit : store.search(text, span).hits.items)
    hits.push_back(hit.kind == SearchHit::Kind::tool ? hit.tool_slug
                                                     : hit.tool_slug + "#" + hit.reviewer_slug);
  return hits;
}

// The addresses the results of a search page link to, in order.
std::vector<std::string> result_links(const std::string &html) {
  const std::regex link(R"re(<h2 class="result-title"><a href="([^"]*)")re");
  std::vector<std::string> links;
  for (std::sregex_iterator it(html.begin(), html.end(), link), end; it != end; ++it)
    links.push_back(test::decode_entities((*it)[1]));
  return links;
}

std::string search_path(const std::string &text) {
  return "/search?q=" + httplib::detail::encode_query_param(text);
}

} // namespace

TEST_CASE("search: a match in a tool's name outranks one in a tagline, which outranks one in a "
          "description") {
  auto store = test::seeded_store();
  // Made in the opposite order, so the older row's tie-break cannot explain the ranking.
  test::create_tool(*store,
                    searched_tool("in-description", "Plain", "A tool",
                                  "The quillwort engine does things, and more things besides."),
                    test::kEditorEmail);
  test::create_tool(*store, searched_tool("in-tagline", "Simple", "Quillwort for teams"),
                    test::kEditorEmail);
  test::create_tool(*store, searched_tool("in-name", "Quillwort"), test::kEditorEmail);
  CHECK(hits_of(*store, "quillwort") ==
        std::vector<std::string>{"in-name", "in-tagline", "in-description"});
  CHECK(store->search("quillwort", {1, 20}).total == 3);
  // The last word also finds the longer words it starts.
  CHECK(hits_of(*store, "Quillw") ==
        std::vector<std::string>{"in-name", "in-tagline", "in-description"});
  // Every word is required.
  CHECK(hits_of(*store, "quillwort teams") == std::vector<std::string>{"in-tagline"});
}

TEST_CASE("search: a quote's result names its tool and reviewer and links to the tool page that "
          "shows it, at the quote") {
  test::SiteServer site;
  auto &store = site.store();
  test::create_tool(store, searched_tool("crowded", "Crowded"), test::kEditorEmail);
  // 25 reviews in panel order: the 21st is on the tool's second page.
  for (int i = 1; i <= 25; ++i) {
    const auto slug = "panelist-" + std::to_string(i);
    test::create_reviewer(store, {slug, "Panelist " + std::to_string(i), "Lens", ""},
                          test::kEditorEmail);
    test::create_review(
        store,
        {"crowded", slug, "ship", i == 21 ? "The marsupial workflow wins." : "Ordinary words."},
        test::kEditorEmail);
  }
  auto client = site.client();
  const auto page = client.Get(search_path("marsupial"));
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(result_links(page->body) ==
        std::vector<std::string>{"/tools/crowded?page=2#review-panelist-21"});
  CHECK(test::visible_text(page->body).find("Panelist 21 on Crowded") != std::string::npos);
  const auto tool_page = client.Get("/tools/crowded?page=2");
  REQUIRE(tool_page->status == 200);
  CHECK(tool_page->body.find("id=\"review-panelist-21\"") != std::string::npos);
  CHECK(tool_page->body.find("The marsupial workflow wins.") != std::string::npos);

  // A review on a tool's first page links to the page without ?page=.
  const auto seed = client.Get(search_path("weekend Lambda"));
  CHECK(result_links(seed->body) ==
        std::vector<std::string>{"/tools/cursor-background-agents#review-builder"});
  CHECK(client.Get("/tools/cursor-background-agents")->body.find("id=\"review-builder\"") !=
        std::string::npos);
}

TEST_CASE("search: stored text is escaped in results and only the words found are marked") {
  test::SiteServer site;
  auto &store = site.store();
  test::create_tool(store,
                    searched_tool("hostile", "Hostile <b>bold</b>", "Tagline \"quoted\" & 'single'",
                                  "<script>alert(1)</script> runs in quillwort pages"),
                    test::kEditorEmail);
  // The characters results mark matches with, stored in a text: they are not marks.
  test::create_tool(store,
                    searched_tool("forger", "Forger", "A tool",
                                  std::string("\x01") + "forged" + "\x02" + " quillwort"),
                    test::kEditorEmail);
  auto client = site.client();
  for (const auto &text : {std::string("alert"), std::string("script"), std::string("quillwort"),
                           std::string("bold")}) {
    INFO(text);
    const auto page = client.Get(search_path(text));
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("<script>") == std::string::npos);
    CHECK(page->body.find("<b>") == std::string::npos);
    CHECK(page->body.find("/tools/hostile") != std::string::npos);
  }
  const auto page = client.Get(search_path("alert"));
  CHECK(page->body.find("&lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt; runs") !=
        std::string::npos);
  const auto bold = client.Get(search_path("bold"));
  CHECK(bold->body.find("Hostile &lt;b&gt;<mark>bold</mark>&lt;/b&gt;") != std::string::npos);
  CHECK(bold->body.find("Tagline &quot;quoted&quot; &amp; &apos;single&apos;") !=
        std::string::npos);
  const auto forged = client.Get(search_path("quillwort"));
  CHECK(forged->body.find("forged <mark>quillwort</mark>") != std::string::npos);
  CHECK(forged->body.find("<mark>forged") == std::string::npos);
  // The query itself is echoed escaped.
  const auto echoed = client.Get(search_path("<script>alert(1)</script>"));
  CHECK(echoed->status == 200);
  CHECK(echoed->body.find("<script>alert") == std::string::npos);
  CHECK(echoed->body.find("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\"") != std::string::npos);
}

TEST_CASE("search: marked text becomes HTML with every mark closed and nothing else as markup") {
  const std::string start(1, kMatchStart), end(1, kMatchEnd);
  CHECK(pages::marked_html("a " + start + "<b>" + end + " c") == "a <mark>&lt;b&gt;</mark> c");
  CHECK(pages::marked_html(start + "open") == "<mark>open</mark>");
  CHECK(pages::marked_html("close" + end + " & " + start + start + "x" + end + end) ==
        "close &amp; <mark>x</mark>");
}

TEST_CASE("search: the index follows tools created, renamed, changed and deleted at the desk") {
  auto store = test::seeded_store();
  test::create_tool(
      *store, searched_tool("nimbus", "Nimbus", "Clouds for teams", "Keeps the weather in a jar."),
      test::kEditorEmail);
  const auto codestral_hits = hits_of(*store, "codestral").size();
  test::create_review(*store, {"nimbus", "builder", "ship", "Codestral could learn from this."},
                      test::kEditorEmail);
  CHECK(hits_of(*store, "nimbus") == std::vector<std::string>{"nimbus"});
  CHECK(hits_of(*store, "weather jar") == std::vector<std::string>{"nimbus"});
  CHECK(hits_of(*store, "codestral").size() == codestral_hits + 1);

  // A vote moves the tool's tallies, not its text: the index is as it was.
  test::cast_tool_vote(*store, test::ballot_of(std::string(32, 'a')),
                       store->tool_by_slug("nimbus")->id, Verdict::ship);
  CHECK(hits_of(*store, "nimbus") == std::vector<std::string>{"nimbus"});

  auto changed = searched_tool("stratus", "Stratus", "Fog for teams", "Keeps the mist in a box.");
  test::update_tool(*store, "nimbus", changed, test::kEditorEmail);
  CHECK(hits_of(*store, "nimbus").empty());
  CHECK(hits_of(*store, "weather").empty());
  CHECK(hits_of(*store, "stratus") == std::vector<std::string>{"stratus"});
  CHECK(hits_of(*store, "mist box") == std::vector<std::string>{"stratus"});
  CHECK(hits_of(*store, "codestral could learn") ==
        std::vector<std::string>{"stratus#builder"}); // the review follows its renamed tool

  // A refused change leaves the index as it was.
  auto taken = changed;
  taken.slug = "codestral-2-1";
  taken.name = "Cumulus";
  CHECK(test::refusal_of([&] {
          test::update_tool(*store, "stratus", taken, test::kEditorEmail);
        }) == WriteResult::Ended::already_exists);
  CHECK(hits_of(*store, "stratus") == std::vector<std::string>{"stratus"});
  CHECK(hits_of(*store, "cumulus").empty());

  test::delete_tool(*store, "stratus", test::kEditorEmail);
  CHECK(hits_of(*store, "stratus").empty());
  CHECK(hits_of(*store, "mist box").empty());
  // Its reviews went with it, and out of the index.
  CHECK(hits_of(*store, "codestral could learn").empty());
  CHECK(hits_of(*store, "codestral").size() == codestral_hits);
}

TEST_CASE("search: the index follows reviews created, changed and deleted, and reviewers deleted") {
  auto store = test::seeded_store();
  test::create_review(*store,
                      {"codestral-2-1", "creative", "ship", "A kaleidoscope of completions."},
                      test::kEditorEmail);
  CHECK(hits_of(*store, "kaleidoscope") == std::vector<std::string>{"codestral-2-1#creative"});
  test::update_review(*store, "codestral-2-1", "creative",
                      {"codestral-2-1", "creative", "skip", "A labyrinth of completions."},
                      test::kEditorEmail);
  CHECK(hits_of(*store, "kaleidoscope").empty());
  CHECK(hits_of(*store, "labyrinth") == std::vector<std::string>{"codestral-2-1#creative"});
  // Moved to another tool, the same quote is found there.
  test::update_review(*store, "codestral-2-1", "creative",
                      {"mistral-3-small", "creative", "skip", "A labyrinth of completions."},
                      test::kEditorEmail);
  CHECK(hits_of(*store, "labyrinth") == std::vector<std::string>{"mistral-3-small#creative"});
  test::delete_review(*store, "mistral-3-small", "creative", test::kEditorEmail);
  CHECK(hits_of(*store, "labyrinth").empty());

  test::create_review(*store, {"codestral-2-1", "creative", "ship", "A kaleidoscope again."},
                      test::kEditorEmail);
  CHECK(hits_of(*store, "kaleidoscope").size() == 1);
  test::delete_reviewer(*store, "creative", test::kEditorEmail);
  CHECK(hits_of(*store, "kaleidoscope").empty());
}

TEST_CASE("search: a database made before search finds its existing tools and quotes once "
          "upgraded") {
  test::TempDir dir;
  const auto path = test::write_version_1_site(
      dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
           "INSERT INTO tools (slug, name, category_id, tagline, description, entry) "
           "VALUES ('kept', 'Kept', 1, 'An heirloom tool', 'Older than search.', 'Free');"
           "INSERT INTO reviewers (slug, name, lens, panel_order) VALUES ('old', 'Old', 'L', 1);"
           "INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) "
           "VALUES (1, 1, 'ship', 'A venerable quote.')");
  Store store(path);
  CHECK(hits_of(store, "heirloom") == std::vector<std::string>{"kept"});
  CHECK(hits_of(store, "venerable") == std::vector<std::string>{"kept#old"});
}

TEST_CASE("search: the store takes any text and never reads it as query syntax") {
  auto store = test::seeded_store();
  const auto codestral = hits_of(*store, "codestral");
  REQUIRE(!codestral.empty());
  // Words without a letter or digit in them are left out rather than finding nothing.
  for (const auto &text :
       {std::string("codestral —"), std::string("codestral \xF0\x9F\x98\x80"),
        std::string("\" codestral \""), std::string("codestral *"), std::string("^ codestral"),
        std::string("codestral\t\n"), std::string("codestral") + std::string(1, '\0') + "  "}) {
    INFO(text);
    CHECK(hits_of(*store, text) == codestral);
  }
  // FTS5's operators are only words: no OR widens, no - narrows, no column filter.
  CHECK(hits_of(*store, "codestral OR zyzzyva").empty());
  CHECK(hits_of(*store, "-codestral") == codestral);
  CHECK(hits_of(*store, "name:codestral").empty());
  for (const auto &text : {std::string("\""),
                           std::string("*"),
                           std::string("NEAR("),
                           std::string("NEAR(a b, 2)"),
                           std::string("a OR"),
                           std::string("-x"),
                           std::string("col:x"),
                           std::string("^"),
                           std::string("\"\"\""),
                           std::string("(a"),
                           std::string("{name}: x"),
                           std::string("a AND"),
                           std::string("\xFF\xFE"),
                           std::string("\xC3"),
                           std::string("x\x01y\x02z"),
                           std::string(5000, 'a'),
                           std::string(5000, '"'),
                           std::string(3000, ' ') + "codestral",
                           std::string(""),
                           std::string("   ")}) {
    INFO(text.substr(0, 40));
    CHECK_NOTHROW(store->search(text, {1, 20}));
  }
  CHECK(store->search("", {1, 20}).total == 0);
}

TEST_CASE("search: any query text over HTTP answers 200 or a clear 400, never a failure") {
  test::SiteServer site;
  auto client = site.client();
  const std::vector<std::string> answered = {"%22",          "*",
                                             "NEAR(",        "NEAR(codestral%20mistral)",
                                             "a%20OR",       "-x",
                                             "col:x",        "%5E",
                                             "%22%22%22",    "(",
                                             "%7Bname%7D:x", "%00",
                                             "%01%02%1F%7F", "%F0%9F%98%80",
                                             "%E2%80%94",    "%27%3B--",
                                             "%25%25",       "a+b",
                                             "%3Cmark%3E",   std::string(200, 'a')};
  for (const auto &q : answered) {
    INFO(q);
    const auto res = client.Get(("/search?q=" + q).c_str());
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->body.find("<mark><mark>") == std::string::npos);
  }
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"%FF", "not valid UTF-8"},
      {"%C3", "not valid UTF-8"},
      {std::string(201, 'a'), "201 characters long; at most 200"},
      {std::string(1000, 'a'), "1000 characters long; at most 200"},
      {"a&q=b", "q twice"},
      {"a&page=abc", "page parameter must be a whole number"}};
  for (const auto &[q, reason] : refused) {
    INFO(q.substr(0, 40));
    const auto res = client.Get(("/search?q=" + q).c_str());
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK(test::visible_text(res->body).find(reason) != std::string::npos);
  }
  // Longer than any request line the site takes: the transport refuses it before any handler.
  for (const size_t length : {5000, 10000}) {
    const auto huge = client.Get(("/search?q=" + std::string(length, 'a')).c_str());
    REQUIRE(huge);
    CHECK(huge->status == 414);
    CHECK(test::visible_text(huge->body).find("a search looks for at most 200 characters") !=
          std::string::npos);
  }
  // How to search is refused as clearly as what.
  const auto bad_as = client.Get("/search?q=cursor&as=exactly");
  CHECK(bad_as->status == 400);
  CHECK(test::visible_text(bad_as->body).find("as= takes one value, typed") != std::string::npos);
}

TEST_CASE("search: no text shows the form and what to type, and a text nothing matches says so") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *path : {"/search", "/search?q=", "/search?q=%20%20%09"}) {
    INFO(path);
    const auto page = client.Get(path);
    REQUIRE(page);
    CHECK(page->status == 200);
    const auto text = test::visible_text(page->body);
    CHECK(text.find("Type a tool's name, two of them to compare") != std::string::npos);
    CHECK(page->body.find("result-count") == std::string::npos);
    CHECK(page->body.find("<input id=\"search-q\" type=\"search\" name=\"q\" value=\"\"") !=
          std::string::npos);
    CHECK(page->body.find("<label for=\"search-q\">") != std::string::npos);
  }
  const auto nothing = client.Get("/search?q=zyzzyva");
  REQUIRE(nothing->status == 200);
  CHECK(
      test::visible_text(nothing->body).find("No tool, comparison or review matches “zyzzyva”.") !=
      std::string::npos);
  CHECK(result_links(nothing->body).empty());
  const auto found = client.Get("/search?q=codestral");
  CHECK(found->body.find("value=\"codestral\"") != std::string::npos);
  CHECK(test::visible_text(found->body)
            .find(std::to_string(result_links(found->body).size()) + " results for “codestral”") !=
        std::string::npos);
  // A result page a reader linked to may be listed, under its own query as canonical.
  CHECK(found->body.find("<meta name=\"robots\" content=\"noindex\">") == std::string::npos);
  CHECK(found->body.find("<link rel=\"canonical\" href=\"/search?q=codestral\"") !=
        std::string::npos);
}

TEST_CASE("search: results past one page are paged with plain links, each result exactly once") {
  test::SiteServer site;
  auto client = site.client();
  const auto total = site.store().search("the", {1, 20}).total;
  REQUIRE(total > 20);
  REQUIRE(total <= 40);
  const auto first = client.Get("/search?q=the");
  REQUIRE(first->status == 200);
  CHECK(first->body.find("<a href=\"/search?q=the&amp;page=2\" rel=\"next\">") !=
        std::string::npos);
  CHECK(first->body.find("rel=\"prev\"") == std::string::npos);
  const auto second = client.Get("/search?q=the&page=2");
  REQUIRE(second->status == 200);
  CHECK(second->body.find("<a href=\"/search?q=the\" rel=\"prev\">") != std::string::npos);
  CHECK(second->body.find("rel=\"next\"") == std::string::npos);
  CHECK(second->body.find("<link rel=\"canonical\" href=\"/search?q=the&amp;page=2\">") !=
        std::string::npos);
  auto links = result_links(first->body);
  CHECK(links.size() == 20);
  const auto more = result_links(second->body);
  links.insert(links.end(), more.begin(), more.end());
  CHECK(links.size() == static_cast<size_t>(total));
  CHECK(std::set<std::string>(links.begin(), links.end()).size() == links.size());
  CHECK(client.Get("/search?q=the&page=3")->status == 404);
  // A text with spaces and symbols keeps them in its page links.
  const auto spaced = client.Get("/search?q=the%20%26");
  CHECK(spaced->body.find("href=\"/search?q=the%20%26&amp;page=2\"") != std::string::npos);
}

TEST_CASE("search: every page's header has a search box that submits to /search") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto *path :
       {"/", "/tools/codestral-2-1", "/reviewers", "/search?q=codestral", "/no-such-page"}) {
    INFO(path);
    const auto page = client.Get(path);
    REQUIRE(page);
    const auto &html = page->body;
    const auto form = html.find("<form class=\"site-search\" role=\"search\" aria-label=\"Site "
                                "search\" method=\"get\" action=\"/search\">");
    REQUIRE(form != std::string::npos);
    const auto form_end = html.find("</form>", form);
    const auto box = html.substr(form, form_end - form);
    CHECK(box.find("<label class=\"visually-hidden\" for=\"site-search-q\">") != std::string::npos);
    CHECK(box.find("<input id=\"site-search-q\" type=\"search\" name=\"q\"") != std::string::npos);
    CHECK(box.find("<button type=\"submit\">Search</button>") != std::string::npos);
  }
  // What the box sends: its one field, as a browser sends a GET form.
  const auto sent = client.Get("/search?q=Codestral+2.1");
  REQUIRE(sent->status == 200);
  CHECK(result_links(sent->body).front() == "/tools/codestral-2-1");
}

TEST_CASE("search: results are never kept in the shared page cache, so no text can grow it") {
  test::SiteServer site;
  auto client = site.client();
  const auto codestral = client.Get("/search?q=codestral");
  const auto mistral = client.Get("/search?q=mistral");
  CHECK(result_links(codestral->body).front() == "/tools/codestral-2-1");
  CHECK(result_links(mistral->body).front() != "/tools/codestral-2-1");
  const auto kept = site.app().cache.bytes();
  for (int i = 0; i < 200; ++i)
    REQUIRE(client.Get(("/search?q=word" + std::to_string(i)).c_str())->status == 200);
  CHECK(site.app().cache.bytes() == kept);
  // A change is found on the very next search.
  test::create_tool(site.store(), searched_tool("fresh", "Freshly Made"), test::kEditorEmail);
  CHECK(result_links(client.Get("/search?q=freshly")->body) ==
        std::vector<std::string>{"/tools/fresh"});
}

TEST_CASE("search: a network that spent its CPU time on searches is told to wait, another "
          "network is answered, and a search asked again is answered from what was kept") {
  // A budget one search spends whole, earning nothing back: the second search is refused.
  test::SiteServer site(
      App::Budgets{.costly = {std::chrono::microseconds(0), std::chrono::microseconds(1),
                              std::chrono::seconds(100), std::chrono::seconds(100)}});
  auto client = site.client();
  const httplib::Headers from_one = {{"X-Forwarded-For", "10.20.30.7"}};
  const auto first = client.Get("/search?q=codestral", from_one);
  REQUIRE(first->status == 200);
  CHECK(site.app().search_pages.bytes() > 0);
  const auto again = client.Get("/search?q=agent", {{"X-Forwarded-For", "10.20.30.8"}});
  CHECK(again->status == 429);
  CHECK(again->has_header("Retry-After"));
  CHECK(test::visible_text(again->body).find("Too many searches from your network") !=
        std::string::npos);
  const auto elsewhere = client.Get("/search?q=codestral", {{"X-Forwarded-For", "10.20.31.7"}});
  REQUIRE(elsewhere->status == 200);
  CHECK(elsewhere->body == first->body); // the page kept for this text

  // The whole site's budget spent: the network that spent it waits, with 503, while a network
  // that spent none of it is answered, and other pages are unaffected.
  test::SiteServer spent(
      App::Budgets{.costly = {std::chrono::seconds(100), std::chrono::seconds(100),
                              std::chrono::microseconds(0), std::chrono::microseconds(1)}});
  auto spent_client = spent.client();
  REQUIRE(spent_client.Get("/search?q=cursor", {{"X-Forwarded-For", "10.20.32.7"}})->status == 200);
  const auto busy = spent_client.Get("/search?q=mistral", {{"X-Forwarded-For", "10.20.32.8"}});
  CHECK(busy->status == 503);
  CHECK(busy->has_header("Retry-After"));
  CHECK(test::visible_text(busy->body).find("The site is answering many searches") !=
        std::string::npos);
  CHECK(spent_client.Get("/search?q=mistral", {{"X-Forwarded-For", "10.20.33.7"}})->status == 200);
  CHECK(spent_client.Get("/tools")->status == 200);
}

TEST_CASE("search: a query naming two tools, with or without vs, offers their comparison first, "
          "published or not, with the readers' picks, and one tool's name finds its comparisons") {
  test::SiteServer site;
  auto client = site.client();
  const std::string published = "/compare/cursor-background-agent-vs-codestral-2-1";
  // The comparisons section of a search page: its links and its text.
  const auto comparisons_of = [&](const std::string &text) {
    const auto html = client.Get(search_path(text).c_str())->body;
    const auto start = html.find("<section class=\"search-comparisons\"");
    return start == std::string::npos ? std::string()
                                      : html.substr(start, html.find("</section>", start) - start);
  };
  const auto first_link = [](const std::string &section) {
    const auto at = section.find("<a href=\"");
    if (at == std::string::npos) return std::string();
    return section.substr(at + 9, section.find('"', at + 9) - at - 9);
  };
  for (const auto *text : {"cursor vs codestral", "cursor codestral", "Codestral versus Cursor",
                           "cursor background agent vs codestral 2.1", "curs vs codes"}) {
    INFO(text);
    CHECK(first_link(comparisons_of(text)) == published);
  }
  CHECK(comparisons_of("codestral").find(published) != std::string::npos);
  CHECK(comparisons_of("zzzz").empty());
  CHECK(client.Get(search_path("zzzz").c_str())->body.find("No tool, comparison or review") !=
        std::string::npos);

  // A pair nobody published is offered when the query names both, and said to be no pick.
  const auto unpublished = comparisons_of("mistral small 3.1 vs mistral 3 small");
  CHECK(first_link(unpublished) == "/compare/mistral-3-small-vs-mistral-small-3-1");
  CHECK(test::visible_text(unpublished).find("Not an editor's pick yet") != std::string::npos);
  CHECK(comparisons_of("mistral small 3.1").find("mistral-3-small") == std::string::npos);

  // Who leads, as every list says it, from the numbers the comparison page counts.
  const auto leads_of = [&](const std::string &query) {
    return test::visible_text(comparisons_of(query));
  };
  CHECK(leads_of("cursor vs codestral").find("Readers: no votes yet") != std::string::npos);
  const auto cursor = site.store().tool_by_slug("cursor-background-agent")->id;
  const auto codestral = site.store().tool_by_slug("codestral-2-1")->id;
  test::cast_pair_vote(site.store(), test::ballot_of(std::string(32, 'c')), cursor, codestral,
                       cursor);
  CHECK(leads_of("cursor vs codestral").find("Readers: too few votes yet, 1 counted") !=
        std::string::npos);
  for (const char reader : {'d', 'e', 'f', 'g'})
    test::cast_pair_vote(site.store(), test::ballot_of(std::string(32, reader)), cursor, codestral,
                         cursor);
  CHECK(leads_of("cursor vs codestral")
            .find("Readers favour Cursor Background Agent: 5 of 5 head-to-head picks") !=
        std::string::npos);
}

TEST_CASE("search: a tool named by the words comes before any quote or other text that holds "
          "them, the name that is exactly the words first") {
  auto store = test::seeded_store();
  // The bundled quotes say "Cursor" too: the three tools named Cursor… still come first.
  const auto hits = hits_of(*store, "cursor");
  REQUIRE(hits.size() >= 4);
  std::vector<std::string> named(hits.begin(), hits.begin() + 3);
  std::sort(named.begin(), named.end());
  CHECK(named == std::vector<std::string>{"cursor-background-agent", "cursor-background-agents",
                                          "cursor-v0-50-background-agent"});
  CHECK(std::find_if(hits.begin(), hits.end(), [](const std::string &hit) {
          return hit.find('#') != std::string::npos;
        }) >= hits.begin() + 3);
  // A name of exactly the words before a longer one; a shorter name before a longer.
  CHECK(hits_of(*store, "cursor background agents").front() == "cursor-background-agents");
  CHECK(hits_of(*store, "cursor background agent").front() == "cursor-background-agent");
  test::create_tool(*store,
                    searched_tool("quillwort-pro-max",
                                  "Quillwort Pro Max Studio Edition for Large Distributed Teams"),
                    test::kEditorEmail);
  test::create_tool(*store, searched_tool("quillwort", "Quillwort"), test::kEditorEmail);
  // Its tagline and description say the word again and again, which a score alone would rank
  // above a long name that says it once.
  test::create_tool(*store,
                    searched_tool("other", "Other", "Quillwort quillwort quillwort",
                                  "Quillwort quillwort quillwort quillwort."),
                    test::kEditorEmail);
  CHECK(hits_of(*store, "quillwort") ==
        std::vector<std::string>{"quillwort", "quillwort-pro-max", "other"});
}

TEST_CASE("search: a typo of a name's word finds the tool and says what was searched, with a "
          "link to the words as typed, and a prefix finds as the reader types") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get(search_path("cursr"));
  REQUIRE(page->status == 200);
  const auto text = test::visible_text(page->body);
  CHECK(text.find("Showing results for Cursor (you typed cursr") != std::string::npos);
  CHECK(page->body.find("href=\"/search?q=cursr&amp;as=typed\"") != std::string::npos);
  CHECK(result_links(page->body).front().starts_with("/tools/cursor-background-agent"));
  // As typed: nothing is forgiven, and nothing has that word.
  const auto as_typed = client.Get("/search?q=cursr&as=typed");
  REQUIRE(as_typed->status == 200);
  CHECK(test::visible_text(as_typed->body).find("Showing results for") == std::string::npos);
  CHECK(result_links(as_typed->body).empty());
  // Two edits from nine letters; one below; none below five letters.
  auto &store = site.store();
  CHECK(hits_of(store, "codestrl").front() == "codestral-2-1");
  CHECK(hits_of(store, "codesrtal").front() == "codestral-2-1"); // two letters swapped
  CHECK(store.search("cursr", {1, 20}).searched_for == "Cursor");
  CHECK(store.search("crsr", {1, 20}).hits.items.empty());   // four letters: no typo forgiven
  CHECK(store.search("cxrsxr", {1, 20}).hits.items.empty()); // two edits from six letters
  // A word some text holds is what was meant, never corrected.
  CHECK(store.search("weekend", {1, 20}).searched_for.empty());
  // The start of a name, as the reader types it.
  CHECK(hits_of(store, "codest").front() == "codestral-2-1");
  CHECK(hits_of(store, "cursor backgr").front().starts_with("cursor-background-agent"));
  // Only "typed" is taken for as=.
  CHECK(client.Get("/search?q=cursr&as=exact")->status == 400);
}

TEST_CASE("search: a tool's result shows the panel's and readers' figures, and a comparison's "
          "its head-to-head picks counted and set aside") {
  test::SiteServer site;
  auto client = site.client();
  auto &store = site.store();
  const auto cursor = store.tool_by_slug("cursor-background-agent")->id;
  const auto codestral = store.tool_by_slug("codestral-2-1")->id;
  test::cast_tool_vote(store, test::ballot_of(std::string(32, 'a')), codestral, Verdict::ship);
  test::cast_pair_vote(store, test::ballot_of(std::string(32, 'b')), cursor, codestral, cursor);
  const auto text = test::visible_text(client.Get(search_path("codestral"))->body);
  const auto tool = store.tool_by_slug("codestral-2-1");
  CHECK(text.find("Panel: " + pages::panel_summary(tool->panel)) != std::string::npos);
  CHECK(text.find("Readers: " +
                  pages::community_summary(tool->community, tool->community_set_aside)) !=
        std::string::npos);
  CHECK(text.find("Head-to-head: 1 pick counted") != std::string::npos);
}

TEST_CASE("search: a word so common that more than a thousand texts hold it lists the first "
          "thousand, newest first, and says so") {
  auto store = test::seeded_store();
  for (int i = 0; i < kMostSearchResults + 5; ++i)
    test::create_tool(*store,
                      searched_tool("common-" + std::to_string(i), "Tool " + std::to_string(i),
                                    "Everywhere here"),
                      test::kEditorEmail);
  const auto first = store->search("everywhere", {1, 20});
  CHECK(first.more_found);
  CHECK(first.total == kMostSearchResults);
  REQUIRE(first.hits.items.size() == 20);
  CHECK(first.hits.items.front().tool_slug ==
        "common-" + std::to_string(kMostSearchResults + 4)); // the newest
  const int last_page = static_cast<int>(kMostSearchResults / 20);
  CHECK(store->search("everywhere", {last_page, 20}).hits.items.size() == 20);
  CHECK_FALSE(store->search("everywhere", {last_page, 20}).hits.has_next);
  CHECK(store->search("everywhere", {last_page + 1, 20}).hits.items.empty());
}

TEST_CASE("search: a name's words are those the index finds in it, punctuation and all, and "
          "the names are read again when a tool is renamed") {
  auto store = test::seeded_store();
  test::create_tool(*store, searched_tool("zeta", "Zeta-9x_mini (beta) v2.5!"), test::kEditorEmail);
  test::create_tool(*store, searched_tool("eta", "Éta Grüne"), test::kEditorEmail);
  const auto zeta = store->tool_by_slug("zeta")->id, eta = store->tool_by_slug("eta")->id;
  const auto names = store->tool_names();
  for (const std::string term : {"zeta", "9x", "mini", "beta", "v2", "5"}) {
    INFO(term);
    CHECK(names->holding({term}, false, 5) == std::vector<int64_t>{zeta});
    // The index holds the same word in the name: the tool is found by it, named first.
    CHECK(hits_of(*store, term, {1, 20}).front() == "zeta");
  }
  CHECK(names->holding({"zeta", "9x", "mini", "beta", "v2", "5"}, false, 5) ==
        std::vector<int64_t>{zeta});
  CHECK(names->holding({"eta", "grune"}, false, 5) == std::vector<int64_t>{eta}); // folded
  CHECK(names->spelling_of("grune") == "Grüne");
  // Renamed: found by its new name at once, no longer by its old.
  auto renamed = *store->tool_content("zeta");
  renamed.name = "Omega";
  test::update_tool(*store, "zeta", renamed, test::kEditorEmail);
  CHECK(store->tool_names()->holding({"omega"}, false, 5) == std::vector<int64_t>{zeta});
  CHECK(store->tool_names()->holding({"mini"}, false, 5).empty());
}

TEST_CASE("search: typos are forgiven within one edit from five letters and two from nine, a "
          "swap of two letters one edit") {
  CHECK(typo_edits_allowed(4) == 0);
  CHECK(typo_edits_allowed(5) == 1);
  CHECK(typo_edits_allowed(8) == 1);
  CHECK(typo_edits_allowed(9) == 2);
  CHECK(edits_within("cursr", "cursor", 1) == 1);
  CHECK(edits_within("cusror", "cursor", 1) == 1); // swapped
  CHECK(edits_within("crsr", "cursor", 1) == std::nullopt);
  CHECK(edits_within("codestrel", "codestral", 2) == 1);
  CHECK(edits_within("größe", "grösse", 2) == 2); // counted in letters, not bytes
  NameIndex names({{1, "Cursor", {"cursor"}, {"Cursor"}},
                   {2, "Curser", {"curser"}, {"Curser"}},
                   {3, "Curser Two", {"curser", "two"}, {"Curser", "Two"}}});
  CHECK(names.meant("cursr") == "curser");      // one edit from both: the one more names hold
  CHECK(names.meant("cursor") == std::nullopt); // a name's own word is no typo
  CHECK(names.meant("xyzzy") == std::nullopt);
}
