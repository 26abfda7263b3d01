// The Atom feeds, as a feed reader fetches them: the site's newest comparisons, a tool's and a
// reviewer's, with absolute addresses, escaped text, and ETags that change with the content.
// (tests/atom/ checks the same feeds against RFC 4287's schema.)
#include <catch2/catch.hpp>

#include "render/feeds.h"
#include "test_support.h"

using namespace verdict;

namespace {

// The text between `open` and the next `close` from `from`; empty when there is none.
std::string between(const std::string &text, const std::string &open, const std::string &close,
                    size_t from = 0) {
  const auto start = text.find(open, from);
  if (start == std::string::npos) return {};
  const auto end = text.find(close, start + open.size());
  if (end == std::string::npos) return {};
  return text.substr(start + open.size(), end - start - open.size());
}

struct Entry {
  std::string id, title, link, published, updated, author, summary;
};

// The feed's entries in document order.
std::vector<Entry> entries_of(const std::string &feed) {
  std::vector<Entry> entries;
  for (auto at = feed.find("<entry>"); at != std::string::npos; at = feed.find("<entry>", at + 1)) {
    const auto xml = between(feed, "<entry>", "</entry>", at);
    entries.push_back(
        {between(xml, "<id>", "</id>"), between(xml, "<title type=\"text\">", "</title>"),
         between(xml, "<link rel=\"alternate\" type=\"text/html\" href=\"", "\"/>"),
         between(xml, "<published>", "</published>"), between(xml, "<updated>", "</updated>"),
         between(xml, "<name>", "</name>"), between(xml, "<summary type=\"text\">", "</summary>")});
  }
  return entries;
}

std::vector<std::string> titles_of(const std::vector<Entry> &entries) {
  std::vector<std::string> titles;
  for (const auto &entry : entries)
    titles.push_back(entry.title);
  return titles;
}

// The feed's own head: everything before its first entry.
std::string feed_head(const std::string &feed) {
  return feed.substr(0, feed.find("<entry>"));
}

// Every address the document gives (href="…" and <id>…</id>).
std::vector<std::string> addresses_in(const std::string &xml) {
  std::vector<std::string> found;
  for (const auto &[open, close] : {std::pair{"href=\"", "\""}, std::pair{"<id>", "</id>"}})
    for (auto at = xml.find(open); at != std::string::npos; at = xml.find(open, at + 1))
      found.push_back(between(xml, open, close, at));
  return found;
}

// A feed as a reader fetches it: it must answer 200, as Atom.
std::string feed_at(httplib::Client &client, const std::string &path) {
  const auto res = client.Get(path.c_str());
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->get_header_value("Content-Type") == "application/atom+xml; charset=utf-8");
  return res->body;
}

test::SiteServer site_at(const std::string &base) {
  return test::SiteServer([base](App &, Views &views) { views.set_base_url(base); });
}

// A published comparison of two bundled tools no bundled comparison pairs.
ContentComparison published(const std::string &a, const std::string &b, const std::string &on) {
  return {a, b, on, "An intro for " + a + " and " + b + ".", ""};
}

} // namespace

TEST_CASE("feeds: the site's feed holds the 20 newest published comparisons, newest first") {
  test::SiteServer site;
  auto &store = site.store();
  store.set_today([] { return std::string("2026-12-31"); }); // every date below has come
  // The bundled five (2026-11-03 to 2026-11-17) and seventeen more, one a day from 2026-12-01.
  const auto tools = store.tools_by_name();
  int added = 0;
  for (size_t i = 0; i < tools.size() && added < 17; ++i)
    for (size_t k = i + 1; k < tools.size() && added < 17; ++k) {
      if (store.comparison_content(tools[i].slug + "-vs-" + tools[k].slug) ||
          store.comparison_content(tools[k].slug + "-vs-" + tools[i].slug))
        continue;
      ++added;
      test::create_comparison(
          store,
          published(tools[i].slug, tools[k].slug,
                    "2026-12-" + std::string(added < 10 ? "0" : "") + std::to_string(added)),
          test::kEditorEmail);
    }
  REQUIRE(added == 17);

  auto client = site.client();
  const auto feed = feed_at(client, "/feed.xml");
  CHECK(feed.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed "
                         "xmlns=\"http://www.w3.org/2005/Atom\""));
  const auto entries = entries_of(feed);
  REQUIRE(entries.size() == 20);

  // The archive's order, which is newest first by publish date.
  const auto archive = store.published_comparisons({1, 20}).items;
  std::vector<std::string> expected;
  for (const auto &c : archive)
    expected.push_back(test::decode_entities(c.a_name + " vs " + c.b_name));
  std::vector<std::string> shown;
  for (const auto &title : titles_of(entries))
    shown.push_back(test::decode_entities(title));
  CHECK(shown == expected);
  CHECK(entries.front().published == "2026-12-17T00:00:00Z");
  CHECK(entries.front().updated == "2026-12-17T00:00:00Z");
  for (size_t i = 1; i < entries.size(); ++i)
    CHECK(entries[i - 1].published >= entries[i].published);
  // The three newest bundled ones are in; the two oldest fell out.
  CHECK(entries.back().published == "2026-11-10T00:00:00Z");
  CHECK(feed.find("cursor-background-agent-vs-codestral-2-1") == std::string::npos);

  const auto head = feed_head(feed);
  CHECK(between(head, "<updated>", "</updated>") == "2026-12-17T00:00:00Z");
  CHECK(between(head, "<title type=\"text\">", "</title>") == "Verdict — latest comparisons");
  CHECK(between(head, "<name>", "</name>") == "Verdict");
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  CHECK(head.find("<link rel=\"self\" type=\"application/atom+xml\" href=\"" + base +
                  "/feed.xml\"/>") != std::string::npos);
  CHECK(head.find("<link rel=\"alternate\" type=\"text/html\" href=\"" + base + "/\"/>") !=
        std::string::npos);
  CHECK(between(head, "<id>", "</id>") == base + "/feed.xml");
  // Each entry: its page, as its link and its id; the editor's words and the glance.
  const auto newest = archive.front();
  const auto page = base + "/compare/" + newest.a_slug + "-vs-" + newest.b_slug;
  CHECK(entries.front().link == page);
  CHECK(entries.front().id == page);
  CHECK(entries.front().author == "Verdict");
  CHECK(entries.front().summary.find("An intro for " + newest.a_slug) == 0);
  CHECK(entries.front().summary.find("Too few reader votes to say") != std::string::npos);
  CHECK(entries.front().summary.find("Panel: ") != std::string::npos);
}

TEST_CASE("feeds: a bundled comparison's entry tells its intro, bottom line and glance") {
  test::SiteServer site;
  auto &store = site.store();
  auto comparison = *store.comparison_content("cursor-background-agent-vs-codestral-2-1");
  comparison.intro = "Two ways to hand a ticket to a model.";
  comparison.bottom_line = "Ship Codestral for the editor, Cursor for the backlog.";
  test::update_comparison(store, "cursor-background-agent-vs-codestral-2-1", comparison,
                          test::kEditorEmail);
  auto client = site.client();
  const auto entries = entries_of(client.Get("/feed.xml")->body);
  REQUIRE(entries.size() == 5);
  const auto &entry = entries.back(); // the oldest, 2026-11-03
  CHECK(entry.title == "Cursor Background Agent vs Codestral 2.1");
  CHECK(entry.summary.starts_with("Two ways to hand a ticket to a model.\n\nBottom line: Ship "
                                  "Codestral for the editor, Cursor for the backlog.\n\n"));
  CHECK(entry.summary.find("Panel: Cursor Background Agent 4 of 4 reviews say ship; "
                           "Codestral 2.1 4 of 4 reviews say ship.") != std::string::npos);
  CHECK(entry.summary.find("Readers: Cursor Background Agent No votes yet; Codestral 2.1 No "
                           "votes yet.") != std::string::npos);
}

TEST_CASE("feeds: a tool's feed holds the published comparisons it is in, as the site's feed "
          "tells them") {
  test::SiteServer site;
  auto client = site.client();
  const auto feed = feed_at(client, "/tools/cursor-background-agent/feed.xml");
  const auto entries = entries_of(feed);
  CHECK(titles_of(entries) ==
        std::vector<std::string>{"Cursor Background Agent vs Mistral Small 3.1",
                                 "Cursor Background Agent vs Codestral 2.1"});
  const auto head = feed_head(feed);
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  CHECK(between(head, "<id>", "</id>") == base + "/tools/cursor-background-agent/feed.xml");
  CHECK(head.find("href=\"" + base + "/tools/cursor-background-agent\"") != std::string::npos);
  CHECK(between(head, "<updated>", "</updated>") == "2026-11-06T00:00:00Z");
  // The same comparison is the same entry in the site's feed: same id, same words.
  const auto site_entries = entries_of(feed_at(client, "/feed.xml"));
  for (const auto &entry : entries) {
    bool same = false;
    for (const auto &other : site_entries)
      same = same || (other.id == entry.id && other.summary == entry.summary);
    CHECK(same);
  }
}

TEST_CASE("feeds: a reviewer's feed holds the comparisons of tools they reviewed, with what "
          "they said") {
  test::SiteServer site;
  auto client = site.client();
  const auto feed = feed_at(client, "/reviewers/investor/feed.xml");
  const auto entries = entries_of(feed);
  // The investor reviewed Codestral 2.1, Cursor Background Agents, Mistral 3 Small and both
  // Code Llama 4 listings: four published comparisons, two of them of two tools they reviewed.
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].title == "Cursor v0.50 – Background Agent &amp; Codebase Refactoring vs Code "
                            "Llama 4");
  CHECK(entries[3].title == "Cursor Background Agent vs Codestral 2.1");
  const auto reviewer = *site.store().reviewer_by_slug("investor");
  for (const auto &entry : entries) {
    INFO(entry.title);
    CHECK(entry.author == reviewer.name);
    CHECK(entry.summary.find(reviewer.name + " (" + reviewer.lens + ") ") == 0);
    CHECK(entry.id == entry.link + "#investor"); // an entry of its own, apart from the site's
  }
  // Mistral 3 Small's investor review is a skip, and Cursor Background Agents' a ship.
  const auto &both = entries[2];
  CHECK(both.title == "Cursor Background Agents vs Mistral 3 Small");
  CHECK(both.summary.find("ships Cursor Background Agents, skips Mistral 3 Small.") !=
        std::string::npos);
  CHECK(both.summary.find("On Mistral 3 Small, skip: \u201c") != std::string::npos);
  CHECK(entries[3].summary.find("ships Codestral 2.1; has not reviewed Cursor Background "
                                "Agent.") != std::string::npos);
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  CHECK(between(feed_head(feed), "<id>", "</id>") == base + "/reviewers/investor/feed.xml");

  // A reviewer of one tool: only the comparisons that tool is in.
  CHECK(titles_of(entries_of(client.Get("/reviewers/open-source/feed.xml")->body)) ==
        std::vector<std::string>{"Cursor Background Agent vs Mistral Small 3.1"});
}

TEST_CASE("feeds: every address is absolute under --base-url, whatever host was asked") {
  auto site = site_at(test::kSiteBase);
  auto client = site.client();
  for (const auto *path :
       {"/feed.xml", "/tools/codestral-2-1/feed.xml", "/reviewers/builder/feed.xml"}) {
    INFO(path);
    const auto res = client.Get(path, {{"Host", "elsewhere.example"}});
    REQUIRE(res);
    CHECK(res->status == 200);
    const auto addresses = addresses_in(res->body);
    CHECK(addresses.size() > 4);
    for (const auto &address : addresses) {
      INFO(address);
      CHECK(address.starts_with(test::kSiteBase + "/"));
    }
    CHECK(res->body.find("href=\"" + test::kSiteBase + path + "\"") != std::string::npos);
    // Under a configured address a feed is kept and shared like any page.
    CHECK(res->get_header_value("Cache-Control").starts_with("public"));
  }
}

TEST_CASE("feeds: without --base-url, addresses name the host the request was sent to") {
  test::SiteServer site;
  auto client = site.client();
  const auto first = client.Get("/feed.xml", {{"Host", "first.example"}});
  const auto second = client.Get("/feed.xml", {{"Host", "second.example:8080"}});
  REQUIRE(first);
  REQUIRE(second);
  for (const auto &address : addresses_in(first->body))
    CHECK(address.starts_with("http://first.example/"));
  // Not the first host's feed from a cache.
  for (const auto &address : addresses_in(second->body))
    CHECK(address.starts_with("http://second.example:8080/"));
  CHECK(second->get_header_value("Cache-Control") == "no-cache");
  // A host that is not a plain host name is not written into the feed.
  const auto spoofed = client.Get("/feed.xml", {{"Host", "evil.example/<x>"}});
  CHECK(spoofed->body.find("evil") == std::string::npos);
  CHECK(spoofed->body.find("<x>") == std::string::npos);
}

TEST_CASE("feeds: the home, tool and reviewer pages link to their feeds in their head") {
  auto site = site_at(test::kSiteBase);
  auto client = site.client();
  const auto link = [](const std::string &title, const std::string &href) {
    return "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"" + title + "\" href=\"" +
           test::kSiteBase + href + "\">";
  };
  const auto home = client.Get("/")->body;
  CHECK(home.find(link("Verdict — latest comparisons", "/feed.xml")) < home.find("</head>"));
  const auto tool = client.Get("/tools/cursor-v0-50-background-agent")->body;
  CHECK(tool.find(link("Cursor v0.50 – Background Agent &amp; Codebase Refactoring — "
                       "comparisons · Verdict",
                       "/tools/cursor-v0-50-background-agent/feed.xml")) < tool.find("</head>"));
  const auto reviewer = client.Get("/reviewers/investor")->body;
  const auto investor = *site.store().reviewer_by_slug("investor");
  CHECK(reviewer.find(link(investor.name + ", " + investor.lens + " — comparisons · Verdict",
                           "/reviewers/investor/feed.xml")) < reviewer.find("</head>"));
  // Other pages have no feed of their own.
  CHECK(client.Get("/tools")->body.find("application/atom+xml") == std::string::npos);
}

TEST_CASE("feeds: names full of markup characters are escaped, and characters XML cannot carry "
          "are replaced") {
  test::SiteServer site;
  auto &store = site.store();
  store.set_today([] { return std::string("2026-12-01"); }); // the comparison's day
  auto tool = *store.tool_content("codestral-2-1");
  tool.slug = "angle-tool";
  tool.name = "Angle <&\"> 'Tool'";
  // A content file can carry both (as \u0007 and \uffff in its JSON); XML can carry neither.
  tool.tagline = "A tagline with a bell\x07 and U+FFFF \xEF\xBF\xBF.";
  test::create_tool(store, tool, test::kEditorEmail);
  test::create_comparison(store,
                          {"angle-tool", "mistral-3-small", "2026-12-01",
                           "Intro <script>alert(1)</script> & more", "Bottom \"line\" 'here'"},
                          test::kEditorEmail);
  auto client = site.client();
  for (const auto *path : {"/feed.xml", "/tools/angle-tool/feed.xml",
                           "/tools/mistral-3-small/feed.xml", "/reviewers/builder/feed.xml"}) {
    INFO(path);
    const auto body = feed_at(client, path);
    CHECK(body.find("Angle &lt;&amp;&quot;&gt; &apos;Tool&apos; vs Mistral 3 Small") !=
          std::string::npos);
    CHECK(body.find("<&\"") == std::string::npos);
    CHECK(body.find("<script>") == std::string::npos);
  }
  const auto feed = client.Get("/feed.xml")->body;
  CHECK(feed.find("Intro &lt;script&gt;alert(1)&lt;/script&gt; &amp; more") != std::string::npos);
  CHECK(feed.find("Bottom line: Bottom &quot;line&quot; &apos;here&apos;") != std::string::npos);
  const auto tool_feed = client.Get("/tools/angle-tool/feed.xml")->body;
  CHECK(tool_feed.find("<subtitle type=\"text\">A tagline with a bell\uFFFD and U+FFFF "
                       "\uFFFD.</subtitle>") != std::string::npos);
  CHECK(tool_feed.find('\x07') == std::string::npos);
}

TEST_CASE("feeds: characters XML 1.0 cannot carry become U+FFFD, the rest pass unchanged") {
  CHECK(feeds::xml_text("plain, tab\t, lines\n\r, é, 日本, 🙂") ==
        "plain, tab\t, lines\n\r, é, 日本, 🙂");
  CHECK(feeds::xml_text(std::string("nul\0!", 5)) == "nul\uFFFD!");
  CHECK(feeds::xml_text("\x01\x1f\x7f") == "\uFFFD\uFFFD\x7f");         // DEL is an XML character
  CHECK(feeds::xml_text("\xEF\xBF\xBE\xEF\xBF\xBF") == "\uFFFD\uFFFD"); // U+FFFE, U+FFFF
  CHECK(feeds::xml_text("\xED\xA0\x80") == "\uFFFD\uFFFD\uFFFD");       // a surrogate
  CHECK(feeds::xml_text("\xC0\xAF") == "\uFFFD\uFFFD");                 // overlong '/'
  CHECK(feeds::xml_text("cut \xE6\x97") == "cut \uFFFD\uFFFD");         // cut short
  CHECK(feeds::xml_text("\xF4\x90\x80\x80") == "\uFFFD\uFFFD\uFFFD\uFFFD"); // past U+10FFFF
}

TEST_CASE("feeds: unpublished comparisons never appear in any feed") {
  test::SiteServer site;
  auto &store = site.store();
  // A draft the editor has not published, and a pair a reader merely looked at.
  test::create_comparison(store, {"codestral-2-1", "code-llama-4", "", "A draft.", ""},
                          test::kEditorEmail);
  auto client = site.client();
  REQUIRE(client.Get("/compare/code-llama-4-70b-vs-mistral-3-small")->status == 200);
  for (const auto *path : {"/feed.xml", "/tools/codestral-2-1/feed.xml",
                           "/tools/code-llama-4/feed.xml", "/tools/code-llama-4-70b/feed.xml",
                           "/reviewers/builder/feed.xml", "/reviewers/investor/feed.xml"}) {
    INFO(path);
    const auto body = client.Get(path)->body;
    CHECK(body.find("codestral-2-1-vs-code-llama-4\"") == std::string::npos);
    CHECK(body.find("A draft.") == std::string::npos);
    CHECK(body.find("code-llama-4-70b-vs-mistral-3-small") == std::string::npos);
  }
  // Unpublishing takes a comparison out again.
  auto comparison = *store.comparison_content("cursor-background-agent-vs-codestral-2-1");
  comparison.published_on.clear();
  test::update_comparison(store, "cursor-background-agent-vs-codestral-2-1", comparison,
                          test::kEditorEmail);
  CHECK(client.Get("/feed.xml")->body.find("cursor-background-agent-vs-codestral-2-1") ==
        std::string::npos);
  CHECK(entries_of(client.Get("/tools/codestral-2-1/feed.xml")->body).empty());
}

TEST_CASE("feeds: an unknown tool or reviewer is 404, a renamed one's feed moves with it") {
  test::SiteServer site;
  auto client = site.client();
  CHECK(client.Get("/tools/no-such-tool/feed.xml")->status == 404);
  CHECK(client.Get("/reviewers/nobody/feed.xml")->status == 404);
  CHECK(client.Get("/tools/Codestral/feed.xml")->status == 404); // not a slug
  CHECK(client.Get("/feed.xml?page=2")->status == 404);          // feeds have one page
  CHECK(client.Get("/feed.xml?page=x")->status == 400);

  auto &store = site.store();
  auto tool = *store.tool_content("codestral-2-1");
  tool.slug = "codestral-2-2";
  test::update_tool(store, "codestral-2-1", tool, test::kEditorEmail);
  auto reviewer = *store.reviewer_content("builder");
  reviewer.slug = "maker";
  test::update_reviewer(store, "builder", reviewer, test::kEditorEmail);

  const auto moved = client.Get("/tools/codestral-2-1/feed.xml");
  CHECK(moved->status == 301);
  CHECK(moved->get_header_value("Location") == "/tools/codestral-2-2/feed.xml");
  const auto moved_reviewer = client.Get("/reviewers/builder/feed.xml");
  CHECK(moved_reviewer->status == 301);
  CHECK(moved_reviewer->get_header_value("Location") == "/reviewers/maker/feed.xml");
  CHECK(client.Get("/tools/codestral-2-2/feed.xml")->status == 200);
  CHECK(client.Get("/reviewers/maker/feed.xml")->status == 200);
}

TEST_CASE("feeds: a comparison published through the store changes the feed and its ETag, an "
          "unchanged feed answers 304") {
  // Kept and shared, and rendered for each request.
  for (const auto &base : {test::kSiteBase, std::string()}) {
    INFO("base URL: " << base);
    auto site = site_at(base);
    auto client = site.client();
    for (const auto *path :
         {"/feed.xml", "/tools/mistral-3-small/feed.xml", "/reviewers/investor/feed.xml"}) {
      INFO(path);
      const auto before = client.Get(path);
      REQUIRE(before);
      const auto etag = before->get_header_value("ETag");
      REQUIRE(!etag.empty());
      CHECK(client.Get(path, {{"If-None-Match", etag}})->status == 304);
      CHECK(client.Get(path)->body == before->body); // the same bytes while nothing changed
    }
    const auto etag_of = [&](const char *path) {
      return client.Get(path)->get_header_value("ETag");
    };
    const auto site_etag = etag_of("/feed.xml");
    const auto tool_etag = etag_of("/tools/mistral-3-small/feed.xml");
    const auto reviewer_etag = etag_of("/reviewers/investor/feed.xml");

    site.store().set_today([] { return std::string("2026-12-24"); }); // the comparison's day
    test::create_comparison(site.store(),
                            published("codestral-2-1", "mistral-3-small", "2026-12-24"),
                            test::kEditorEmail);
    for (const auto &[path, etag] : {std::pair{"/feed.xml", site_etag},
                                     std::pair{"/tools/mistral-3-small/feed.xml", tool_etag},
                                     std::pair{"/reviewers/investor/feed.xml", reviewer_etag}}) {
      INFO(path);
      const auto after = client.Get(path, {{"If-None-Match", etag}});
      REQUIRE(after);
      CHECK(after->status == 200);
      CHECK(after->get_header_value("ETag") != etag);
      const auto entries = entries_of(after->body);
      REQUIRE(!entries.empty());
      CHECK(entries.front().title == "Codestral 2.1 vs Mistral 3 Small");
      CHECK(between(feed_head(after->body), "<updated>", "</updated>") == "2026-12-24T00:00:00Z");
    }
  }
}

TEST_CASE("feeds: a site with nothing published has an empty feed with a fixed date") {
  test::SiteServer site;
  auto &store = site.store();
  for (const auto &summary : store.published_comparisons({1, 20}).items) {
    auto comparison = *store.comparison_content(summary.a_slug + "-vs-" + summary.b_slug);
    comparison.published_on.clear();
    test::update_comparison(store, summary.a_slug + "-vs-" + summary.b_slug, comparison,
                            test::kEditorEmail);
  }
  auto client = site.client();
  const auto first = client.Get("/feed.xml");
  REQUIRE(first->status == 200);
  CHECK(entries_of(first->body).empty());
  CHECK(between(first->body, "<updated>", "</updated>") == "1970-01-01T00:00:00Z");
  CHECK(client.Get("/feed.xml")->body == first->body);
}
