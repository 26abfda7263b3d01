#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "assets/embedded.h"
#include "domain/content.h"
#include "domain/numbers.h"
#include "store/apply_write.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "test_support.h"

using namespace verdict;

namespace {} // namespace

TEST_CASE("the seeded store holds every listing, review and comparison of the seeds") {
  auto store = test::seeded_store();
  const auto tools = store->tools_by_name();
  CHECK(tools.size() == 8);
  CHECK(std::count_if(tools.begin(), tools.end(),
                      [](const Tool &t) { return t.name == "Code Llama 4"; }) == 2);
  int64_t reviews = 0, skips = 0;
  for (const auto &t : tools) {
    reviews += t.panel.total;
    skips += t.panel.total - t.panel.ships;
  }
  CHECK(reviews == 32);
  CHECK(skips == 3);
  CHECK(store->published_comparisons({1, 100}).items.size() == 5);
  CHECK(store->reviewers().size() == 7);
  CHECK(store->schema_version() == test::latest_schema_version());
}

TEST_CASE("panel ship percent comes out as the seeds print it") {
  auto store = test::seeded_store();
  const std::vector<std::pair<std::string, int>> expected = {
      {"cursor-background-agent", 100},       {"codestral-2-1", 100},  {"mistral-small-3-1", 75},
      {"cursor-background-agents", 100},      {"mistral-3-small", 75}, {"code-llama-4", 100},
      {"cursor-v0-50-background-agent", 100}, {"code-llama-4-70b", 75}};
  for (const auto &[slug, percent] : expected) {
    const auto tool = store->tool_by_slug(slug);
    REQUIRE(tool);
    CHECK(whole_percent(tool->panel.ships, tool->panel.total) == percent);
  }
}

TEST_CASE("a tool's reviews come in panel order with their verdicts") {
  auto store = test::seeded_store();
  const auto reviews = store->tool_detail("mistral-3-small", {}, 0)->reviews.items;
  REQUIRE(reviews.size() == 4);
  CHECK(reviews[0].reviewer_slug == "builder");
  CHECK(reviews[1].reviewer_slug == "skeptic");
  CHECK(reviews[3].verdict == Verdict::skip);
  CHECK(reviews[3].quote.find("a very expensive marketing campaign") != std::string::npos);
}

TEST_CASE("second vote by the same voter replaces the first, and withdrawing removes it") {
  auto store = test::seeded_store();
  const auto id = store->tool_by_slug("codestral-2-1")->id;
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), id, Verdict::ship);
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == 1);
  CHECK(store->tool_by_slug("codestral-2-1")->community.ships == 1);

  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), id, Verdict::skip);
  auto tool = store->tool_by_slug("codestral-2-1");
  CHECK(tool->community.total == 1);
  CHECK(tool->community.ships == 0);
  CHECK(store->voter_choices_on_tool(test::kVoter1, id).on_a == Verdict::skip);

  test::cast_tool_vote(*store, test::ballot_of(test::kVoter2), id, Verdict::ship);
  tool = store->tool_by_slug("codestral-2-1");
  CHECK(tool->community.total == 2);
  CHECK(tool->community.ships == 1);

  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), id, std::nullopt);
  tool = store->tool_by_slug("codestral-2-1");
  CHECK(tool->community.total == 1);
  CHECK(tool->community.ships == 1);
  CHECK_FALSE(store->voter_choices_on_tool(test::kVoter1, id).on_a.has_value());
}

TEST_CASE("head-to-head picks are one per voter per pair, whichever order the pair is named") {
  auto store = test::seeded_store();
  const auto a = store->tool_by_slug("cursor-background-agent")->id;
  const auto b = store->tool_by_slug("codestral-2-1")->id;
  test::cast_pair_vote(*store, test::ballot_of(test::kVoter1), a, b, a);
  test::cast_pair_vote(*store, test::ballot_of(test::kVoter2), b, a, b);
  CHECK(test::pair_tally(*store, a, b).a == 1);
  CHECK(test::pair_tally(*store, a, b).b == 1);
  CHECK(test::pair_tally(*store, b, a).a == 1);

  test::cast_pair_vote(*store, test::ballot_of(test::kVoter1), b, a,
                       b); // the same voter changes their pick
  CHECK(test::pair_tally(*store, a, b).a == 0);
  CHECK(test::pair_tally(*store, a, b).b == 2);
  CHECK(store->voter_choices(test::kVoter1, a, b).pick == b);

  test::cast_pair_vote(*store, test::ballot_of(test::kVoter2), a, b, std::nullopt);
  CHECK(test::pair_tally(*store, a, b).b == 1);
}

TEST_CASE("a vote on a tool that does not exist is refused and writes nothing") {
  auto store = test::seeded_store();
  const auto before = store->generation();
  CHECK_THROWS(test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), 999999, Verdict::ship));
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == 0);
  // The failed write was rolled back but the (empty) batch still committed.
  CHECK(store->generation() >= before);
}

TEST_CASE("a comparison is found by either order of its pair") {
  auto store = test::seeded_store();
  const auto forward = store->comparison_detail("cursor-background-agent-vs-codestral-2-1");
  REQUIRE(forward);
  CHECK(forward->canonical_order);
  CHECK(forward->comparison.published);
  CHECK(forward->reviews_a.size() == 4);
  const auto reverse = store->comparison_detail("codestral-2-1-vs-cursor-background-agent");
  REQUIRE(reverse);
  CHECK_FALSE(reverse->canonical_order);
  const auto unpublished = store->comparison_detail("mistral-3-small-vs-codestral-2-1");
  REQUIRE(unpublished);
  CHECK_FALSE(unpublished->comparison.published);
  CHECK_FALSE(unpublished->canonical_order); // alphabetical order is canonical
  CHECK_FALSE(store->comparison_detail("codestral-2-1-vs-codestral-2-1"));
  CHECK_FALSE(store->comparison_detail("nothing-vs-nowhere"));
}

TEST_CASE("tool slugs that contain -vs- still resolve") {
  auto store = test::seeded_store();
  Content extra;
  extra.categories = {{"developer-tools", "Developer Tools"}};
  ContentTool tool;
  tool.slug = "humans-vs-bots";
  tool.name = "Humans vs Bots";
  tool.category = "developer-tools";
  tool.tagline = "t";
  tool.description = "d";
  tool.entry = "Free";
  extra.tools = {tool};
  test::import_content(*store, extra);
  const auto detail = store->comparison_detail("humans-vs-bots-vs-codestral-2-1");
  REQUIRE(detail);
  CHECK(detail->comparison.a.slug == "humans-vs-bots");
  CHECK(detail->comparison.b.slug == "codestral-2-1");
}

TEST_CASE("a subscriber already on the list is not an error and is not added twice") {
  auto store = test::seeded_store();
  test::request_subscription(*store, "reader@example.com", unix_now());
  test::request_subscription(*store, "Reader@Example.com", unix_now());
  CHECK(store->subscriber_counts().total() == 1);
}

TEST_CASE("importing the same content twice changes nothing and export round-trips") {
  auto store = test::seeded_store();
  const auto first = content_to_json(store->export_content());
  test::import_content(*store, parse_content(embedded("content/verdict.json")).content);
  CHECK(content_to_json(store->export_content()) == first);
  CHECK(store->tools_by_name().size() == 8);

  Store empty(":memory:");
  test::import_content(empty, parse_content(first).content);
  CHECK(content_to_json(empty.export_content()) == first);
  CHECK(empty.tool_by_slug("code-llama-4-70b")->panel.ships == 3);
}

TEST_CASE("a file database commits in WAL mode with synchronous=FULL") {
  test::TempDir dir;
  Store store((dir.path / "site.db").string());
  const auto settings = test::durability(store);
  CHECK(settings.journal_mode == "wal");
  CHECK(settings.synchronous == 2); // FULL
}

TEST_CASE("export of the bundled content equals content/verdict.json field for field") {
  auto store = test::seeded_store();
  const auto bundled = nlohmann::json::parse(test::source_file("content/verdict.json"));
  const auto first = content_to_json(store->export_content());
  CHECK(nlohmann::json::parse(first) == bundled);

  Store empty(":memory:");
  test::import_content(empty, parse_content(first).content);
  CHECK(nlohmann::json::parse(content_to_json(empty.export_content())) == bundled);
}

TEST_CASE("tallies always equal the votes behind them, whatever readers do in whatever order") {
  auto store = test::seeded_store();
  const std::vector<std::string> slugs = {"codestral-2-1", "mistral-3-small", "code-llama-4"};
  std::vector<int64_t> ids;
  for (const auto &slug : slugs)
    ids.push_back(store->tool_by_slug(slug)->id);
  const std::vector<std::string> voters = {test::kVoter1, test::kVoter2, std::string(32, '3'),
                                           std::string(32, '4'), std::string(32, '5')};
  // The model: what each voter last said on each tool, and which side each picked.
  std::map<std::pair<size_t, size_t>, Verdict> said;
  // voter → tool id picked, on the pairs (ids[0], ids[1]) and (ids[0], ids[2]), which share a tool
  std::map<size_t, int64_t> picked, picked_other;
  uint32_t state = 12345;
  const auto next = [&](uint32_t n) {
    state = state * 1103515245u + 12345u;
    return (state >> 16) % n;
  };
  for (int step = 0; step < 300; ++step) {
    const size_t voter = next(5), tool = next(3), action = next(3);
    if (next(8) == 0) { // a pick on the second pair
      std::optional<int64_t> pick;
      if (action == 0) pick = ids[0];
      if (action == 1) pick = ids[2];
      test::cast_pair_vote(*store, test::ballot_of(voters[voter]), ids[2], ids[0], pick);
      if (pick)
        picked_other[voter] = *pick;
      else
        picked_other.erase(voter);
      continue;
    }
    if (next(4) == 0) { // a head-to-head pick, named in either order
      std::optional<int64_t> pick;
      if (action == 0) pick = ids[0];
      if (action == 1) pick = ids[1];
      if (next(2))
        test::cast_pair_vote(*store, test::ballot_of(voters[voter]), ids[0], ids[1], pick);
      else
        test::cast_pair_vote(*store, test::ballot_of(voters[voter]), ids[1], ids[0], pick);
      if (pick)
        picked[voter] = *pick;
      else
        picked.erase(voter);
      continue;
    }
    std::optional<Verdict> verdict;
    if (action == 0) verdict = Verdict::ship;
    if (action == 1) verdict = Verdict::skip;
    test::cast_tool_vote(*store, test::ballot_of(voters[voter]), ids[tool], verdict);
    if (verdict)
      said[{voter, tool}] = *verdict;
    else
      said.erase({voter, tool});
  }
  for (size_t tool = 0; tool < 3; ++tool) {
    int64_t ships = 0, total = 0;
    for (const auto &[key, verdict] : said)
      if (key.second == tool) {
        ++total;
        ships += verdict == Verdict::ship;
      }
    const auto counted = store->tool_by_slug(slugs[tool])->community;
    INFO(slugs[tool]);
    CHECK(counted.total == total);
    CHECK(counted.ships == ships);
  }
  int64_t for_a = 0, for_b = 0;
  for (const auto &[voter, tool] : picked)
    (tool == ids[0] ? for_a : for_b) += 1;
  CHECK(test::pair_tally(*store, ids[0], ids[1]).a == for_a);
  CHECK(test::pair_tally(*store, ids[0], ids[1]).b == for_b);
  CHECK(test::pair_tally(*store, ids[1], ids[0]).a == for_b);
  int64_t other_for_0 = 0, other_for_2 = 0;
  for (const auto &[voter, tool] : picked_other)
    (tool == ids[0] ? other_for_0 : other_for_2) += 1;
  CHECK(test::pair_tally(*store, ids[0], ids[2]).a == other_for_0);
  CHECK(test::pair_tally(*store, ids[0], ids[2]).b == other_for_2);
}

TEST_CASE("a re-import updates every field it carries, the panel order and a pair's order") {
  auto store = test::seeded_store();
  auto edited = nlohmann::json::parse(test::source_file("content/verdict.json"));
  const std::set<std::string> references = {"slug", "category", "tool", "reviewer", "a", "b"};
  const auto edit = [&](nlohmann::json &object) {
    for (auto &[key, value] : object.items()) {
      if (references.count(key) || !value.is_string()) continue;
      auto text = value.get<std::string>();
      if (key == "entry")
        value = text == "Paid" ? "Open weights" : "Paid";
      else if (key == "verdict")
        value = text == "ship" ? "skip" : "ship";
      else if (key == "published_on" || key == "pricing_checked_on")
        value = "2025-01-0" + std::to_string(text.size() % 9 + 1);
      else if (key == "url" || key == "pricing_source")
        value = "https://example.org/edited";
      else
        value = text + " (edited)";
    }
  };
  edit(edited["site"]);
  for (const auto *section : {"categories", "reviewers", "tools", "reviews", "comparisons"})
    for (auto &item : edited[section])
      edit(item);
  std::reverse(edited["reviewers"].begin(), edited["reviewers"].end());
  std::swap(edited["comparisons"][0]["a"], edited["comparisons"][0]["b"]);

  const auto parsed = parse_content(edited.dump());
  REQUIRE(parsed.errors.empty());
  test::import_content(*store, parsed.content);
  CHECK(nlohmann::json::parse(content_to_json(store->export_content())) == edited);
}

TEST_CASE("the schema itself refuses rows that break the content model") {
  auto store = test::seeded_store();
  const auto before = content_to_json(store->export_content());
  const std::string voter = "'" + test::kVoter1 + "'";
  const std::vector<std::string> statements = {
      "INSERT INTO tool_votes (voter, tool_id, verdict) VALUES (" + voter + ", 1, 'maybe')",
      "INSERT INTO tool_votes (voter, tool_id, verdict) VALUES ('short', 1, 'ship')",
      "INSERT INTO tool_votes (voter, tool_id, verdict) VALUES (" + voter + ", 999, 'ship')",
      "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id) VALUES (" + voter +
          ", 1, 2, 3)",
      "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id) VALUES (" + voter +
          ", 2, 1, 1)",
      "INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) VALUES (1, 1, 'meh', 'q')",
      "INSERT INTO reviews (tool_id, reviewer_id, verdict, quote) "
      "SELECT tool_id, reviewer_id, 'ship', 'again' FROM reviews LIMIT 1",
      "UPDATE tools SET slug = 'Bad Slug' WHERE id = 1",
      "UPDATE tools SET slug = (SELECT slug FROM tools WHERE id = 2) WHERE id = 1",
      "UPDATE tools SET entry = 'Cheap' WHERE id = 1",
      "UPDATE tools SET pricing_checked_on = '2026-13-01' WHERE id = 1",
      "UPDATE tools SET panel_ships = -1 WHERE id = 1",
      "UPDATE tools SET panel_reviews = panel_ships - 1 WHERE id = 1",
      "UPDATE tools SET community_ships = -1 WHERE id = 1",
      "UPDATE tools SET community_votes = community_ships - 1 WHERE id = 1",
      "INSERT INTO comparisons (tool_a_id, tool_b_id) VALUES (1, 1)",
      "INSERT INTO comparisons (tool_a_id, tool_b_id) "
      "SELECT tool_b_id, tool_a_id FROM comparisons LIMIT 1",
      "INSERT INTO subscribers (email) VALUES ('a@example.com'), ('A@EXAMPLE.COM')",
  };
  for (const auto &statement : statements) {
    INFO(statement);
    CHECK_THROWS(store->write([&](sql::Db &db) { db.exec(statement); }));
  }
  CHECK(content_to_json(store->export_content()) == before);
  CHECK(store->subscriber_counts().total() == 0);
}

TEST_CASE("every write goes through the writer: a read connection refuses to write") {
  auto store = test::seeded_store();
  CHECK_THROWS(store->read([](sql::Db &db) {
    db.exec("UPDATE tools SET name = 'changed' WHERE id = 1");
    return 0;
  }));
  CHECK(store->tool_by_slug("cursor-background-agent")->name == "Cursor Background Agent");
}

TEST_CASE("a vote waits out another connection's brief write lock instead of failing") {
  test::TempDir dir;
  const auto path = (dir.path / "site.db").string();
  Store store(path);
  test::import_content(store, parse_content(test::source_file("content/verdict.json")).content);
  const auto id = store.tool_by_slug("codestral-2-1")->id;
  // A backup or the command line holding the write lock for a moment.
  sql::Db other(path);
  other.exec("BEGIN IMMEDIATE");
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    other.exec("COMMIT");
  });
  CHECK_NOTHROW(test::cast_tool_vote(store, test::ballot_of(test::kVoter1), id, Verdict::ship));
  release.join();
  CHECK(store.tool_by_slug("codestral-2-1")->community.total == 1);
}

TEST_CASE("a database at schema version 1 is upgraded in place when opened") {
  test::TempDir dir;
  const auto path =
      test::write_version_1_site(dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
                                      "INSERT INTO tools (slug, name, category_id, tagline, "
                                      "description, entry) VALUES ('kept', 'Kept', 1, 't', 'd', "
                                      "'Free')");
  Store store(path);
  CHECK(store.schema_version() == test::latest_schema_version());
  CHECK(store.tool_by_slug("kept")->name == "Kept");
  CHECK_THROWS(store.write(
      [](sql::Db &db) { db.exec("UPDATE tools SET pricing_checked_on = '2026-13-01'"); }));
}

TEST_CASE("a batch whose commit fails tells every caller so, and keeps nothing of it") {
  auto store = test::seeded_store();
  const auto id = store->tool_by_slug("codestral-2-1")->id;
  // A foreign key checked only at COMMIT: every statement succeeds, the commit does not.
  CHECK_THROWS(store->write([&](sql::Db &db) {
    db.exec("PRAGMA defer_foreign_keys = ON");
    db.exec("INSERT INTO tool_votes (voter, tool_id, verdict) VALUES ('" + test::kVoter1 +
            "', 999, 'ship')");
    db.exec("INSERT INTO tool_votes (voter, tool_id, verdict) VALUES ('" + test::kVoter1 + "', " +
            std::to_string(id) + ", 'ship')");
  }));
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == 0);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter2), id,
                       Verdict::ship); // the writer goes on
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == 1);
}

TEST_CASE("an import that names some of the site copy leaves the rest as it was") {
  auto store = test::seeded_store();
  const auto before = store->site_copy();
  const auto parsed = parse_content(R"({"site": {"site_name": "Renamed"}})");
  REQUIRE(parsed.errors.empty());
  test::import_content(*store, parsed.content);
  const auto after = store->site_copy();
  CHECK(after.site_name == "Renamed");
  CHECK(after.comparison_dek == before.comparison_dek);
  CHECK(after.newsletter_title == before.newsletter_title);
  CHECK_FALSE(after.comparison_dek.empty());
}

TEST_CASE("health says so when the database cannot take a write, and recovers after") {
  test::TempDir dir;
  const auto path = (dir.path / "site.db").string();
  Store store(path);
  CHECK(store.health_problem().empty());
  // Another process holding the database locked past the writer's patience (5 s).
  sql::Db other(path);
  other.exec("BEGIN EXCLUSIVE");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100)); // past the cached answer
  const auto problem = store.health_problem();
  CHECK(problem.find("cannot take a write") != std::string::npos);
  other.exec("COMMIT");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  CHECK(store.health_problem().empty());
}

TEST_CASE("store: every time a write stamps is the time it was taken, never the clock: writes "
          "applied as if taken years ago leave no time of today in the file") {
  test::TempDir dir;
  const auto path = (dir.path / "site.db").string();
  Store store(path);
  // 2001-09-09T01:46:40Z, on that day: every write below is applied with it.
  const WriteContext taken{1000000000000, "2001-09-09"};
  const auto apply_taken = [&](const Write &write) {
    const auto ended = apply(store, write, taken);
    INFO(ended.words);
    REQUIRE(ended.done());
    return ended.made;
  };
  apply_taken(ImportContent{test::seeded_store()->export_content()});
  apply_taken(AddEditor{"editor@example.com", "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA"});
  const auto editor = store.editor_by_email("editor@example.com");
  REQUIRE(editor);
  apply_taken(StartSession{"secret-hash", editor->id, "csrf", 1000086400});
  apply_taken(CreateCategory{{"agents", "Agents"}, "editor@example.com"});
  apply_taken(UpdateCategory{"agents", {"agents", "Coding agents"}, "editor@example.com"});
  auto tool = store.tool_content("codestral-2-1").value();
  tool.slug = "codestral-next";
  tool.name = "Codestral Next";
  apply_taken(CreateTool{tool, "editor@example.com"});
  const auto ids = [&] {
    std::vector<int64_t> all;
    for (const auto &each : store.tools_by_name())
      all.push_back(each.id);
    return all;
  }();
  REQUIRE(ids.size() >= 3);
  const auto new_tool = store.tool_by_slug("codestral-next")->id;
  // Votes cast, changed, withdrawn, and cast on the tool that is then deleted with them.
  for (const char voter : {'a', 'b', 'c'}) {
    const auto ballot =
        test::ballot_of(std::string(32, voter), std::string("net ") + voter, taken.today);
    apply_taken(CastToolVote{ballot, ids[0], Verdict::ship});
    apply_taken(CastPairVote{ballot, ids[0], ids[1], ids[0]});
    apply_taken(CastToolVote{ballot, new_tool, Verdict::skip});
    apply_taken(CastPairVote{ballot, new_tool, ids[1], new_tool});
  }
  const auto changer = test::ballot_of(std::string(32, 'a'), "net a", taken.today);
  apply_taken(CastToolVote{changer, ids[0], Verdict::skip});
  apply_taken(CastPairVote{changer, ids[0], ids[1], ids[1]});
  apply_taken(CastToolVote{changer, ids[0], std::nullopt});
  apply_taken(CastPairVote{changer, ids[0], ids[1], std::nullopt});
  apply_taken(DeleteTool{"codestral-next", "editor@example.com"});
  // The newsletter: a sign-up confirmed, its mail's steps, a digest and its sends.
  const auto now = taken.seconds();
  apply_taken(RequestSubscription{"reader@example.com", true});
  const auto reader = store.all_subscribers().at(0).id;
  apply_taken(ClaimConfirmation{reader, 60});
  apply_taken(StartConfirmation{reader, "token-hash", now + 86400});
  apply_taken(ConfirmationMailed{reader});
  apply_taken(ConfirmSubscription{"token-hash"});
  apply_taken(RequestSubscription{"second@example.com", true});
  apply_taken(ConfirmationFailed{store.all_subscribers().at(1).id, now + 60, "refused"});
  auto comparison = store.comparisons_at_desk({1, 1}).items.at(0);
  comparison.published_on = taken.today;
  apply_taken(
      UpdateComparison{comparison.a + "-vs-" + comparison.b, comparison, "editor@example.com"});
  const auto digest = std::get<RecordedDigest>(apply_taken(RecordDigest{taken.today, 7}));
  REQUIRE(digest.id > 0);
  apply_taken(ClaimDigestSend{digest.id, reader});
  apply_taken(DigestSent{digest.id, reader});
  apply_taken(MakeCheckpoint{});
  apply_taken(EraseSubscriber{store.all_subscribers().at(1).id, "editor@example.com"});
  apply_taken(EndSession{"secret-hash"});

  // Every time in the file, in any table and column (the vote log's entries included), is
  // the moment the writes were taken.
  sql::Db file(path, sql::Db::Open::read_only);
  const std::regex time(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
  auto tables = file.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' "
                             "AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE '%VIRTUAL%'");
  size_t times_seen = 0;
  while (tables.step()) {
    const auto table = tables.text(0);
    sqlite3_stmt *rows = nullptr;
    REQUIRE(sqlite3_prepare_v2(file.handle(), ("SELECT * FROM \"" + table + "\"").c_str(), -1,
                               &rows, nullptr) == SQLITE_OK);
    while (sqlite3_step(rows) == SQLITE_ROW)
      for (int column = 0; column < sqlite3_column_count(rows); ++column) {
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(rows, column));
        if (!text) continue;
        const std::string value(text);
        for (auto found = std::sregex_iterator(value.begin(), value.end(), time);
             found != std::sregex_iterator(); ++found) {
          ++times_seen;
          INFO(table << "." << sqlite3_column_name(rows, column) << " = " << value);
          // The vote log dates its entries by the hour (migrations/0021-standing-places.sql).
          CHECK(found->str() ==
                (table == "vote_log" ? "2001-09-09T01:00:00Z" : "2001-09-09T01:46:40Z"));
        }
      }
    sqlite3_finalize(rows);
  }
  // The edit log, the votes and their log, the subscribers, the digest's sends, the editor.
  CHECK(times_seen > 20);
}
