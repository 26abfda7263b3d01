// No query of the site reads a large table row by row. The store logs every statement it
// prepares (store/statement_log.h); this test exercises every page, every write and every
// store call on a generated site, proves each place in store/ that prepares SQL was reached,
// then fails on any plan step "SCAN <large table>" that uses no index. A query added later is
// logged where it is prepared, so it is checked without being listed here; one that is never
// reached fails the coverage check until a line below reaches it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <future>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "auth/log_signing.h"
#include "auth/mail_tokens.h"
#include "auth/secrets.h"
#include "domain/content.h"
#include "domain/tallies.h"
#include "store/apply_write.h"
#include "store/maintenance.h"
#include "store/statement_log.h"
#include "test_support.h"

using namespace verdict;

namespace {

// Tables that grow with the site. settings, categories and health stay a handful of rows.
// tool_search and review_search are the full-text indexes of tools and reviews.
const std::set<std::string> kLargeTables = {"tools",         "reviewers",           "reviews",
                                            "comparisons",   "tool_votes",          "pair_votes",
                                            "pair_tallies",  "subscribers",         "tool_search",
                                            "review_search", "confirmation_outbox", "digest_sends",
                                            "digests",       "digest_items",        "vote_log",
                                            "tally_changes"};

// A statement may read a whole table only when its text says so and why, as the export does.
constexpr const char *kWholeTableMarker = "/* every row: ";

// The table each name in a FROM or JOIN stands for: aliases and the tables themselves.
std::map<std::string, std::string> tables_named_in(const std::string &sql) {
  std::map<std::string, std::string> tables;
  const std::regex from(R"(\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?)",
                        std::regex::icase);
  for (std::sregex_iterator it(sql.begin(), sql.end(), from), end; it != end; ++it) {
    tables[(*it)[1]] = (*it)[1];
    if ((*it)[2].matched) tables[(*it)[2]] = (*it)[1];
  }
  return tables;
}

// The large tables a plan reads row by row: "SCAN x" with no index after it.
std::vector<std::string> full_scans(const std::string &sql, const std::vector<std::string> &plan) {
  const auto tables = tables_named_in(sql);
  const std::regex scan(R"(^SCAN (\w+)(.*)$)");
  std::vector<std::string> scans;
  for (const auto &step : plan) {
    std::smatch match;
    if (!std::regex_match(step, match, scan)) continue;
    if (match[2].str().find("USING") != std::string::npos) continue; // walks an index
    // An FTS5 table is a virtual table, so SQLite names every read of it a SCAN. One with a
    // MATCH reads the full-text index's entries for the words searched (FTS5 writes the
    // constraint as "M" in its plan: "VIRTUAL TABLE INDEX 0:M3"), not every row; one without
    // reads every row like any other scan.
    if (std::regex_search(match[2].str(), std::regex(R"(VIRTUAL TABLE INDEX \d+:\S*M)"))) continue;
    const auto named = tables.find(match[1]);
    const auto table = named == tables.end() ? match[1].str() : named->second;
    if (kLargeTables.count(table)) scans.push_back(step);
  }
  return scans;
}

// Every place in store/*.cpp that prepares a statement: "store/x.cpp:LINE".
std::set<std::string> preparing_places() {
  std::set<std::string> places;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::filesystem::path(VERDICT_SOURCE_DIR) / "store")) {
    if (entry.path().extension() != ".cpp") continue;
    const auto file = "store/" + entry.path().filename().string();
    std::istringstream text(test::source_file(file));
    std::string line;
    for (unsigned number = 1; std::getline(text, line); ++number)
      if (line.find(".cached(") != std::string::npos || line.find(".prepare(") != std::string::npos)
        places.insert(file + ":" + std::to_string(number));
  }
  return places;
}

std::string place_of(const PreparedStatement &statement) {
  const auto at = statement.file.rfind("store/");
  return statement.file.substr(at == std::string::npos ? 0 : at) + ":" +
         std::to_string(statement.line);
}

// Every page and write of the site, as readers and voters reach them, plus every store call.
void exercise_the_site(const std::string &db_path, const test::TempDir &dir) {
  test::SiteServer site(db_path);
  auto client = site.client();
  auto &store = site.store();
  const auto tools = store.tools_by_name();
  const auto &tool = tools.front();
  const auto &other = tools.back();
  const auto reviewer = store.reviewers().front();
  const auto published = store.published_comparisons({1, 1}).items.front();
  const std::string voter(32, 'a');
  const std::string pair = "/compare/" + tool.slug + "-vs-" + other.slug;
  const std::string published_pair = "/compare/" + published.a_slug + "-vs-" + published.b_slug;
  // A typo of the longest word of a tool's name (a letter added): search asks the index
  // whether some text holds it before reading it as the name's word.
  std::string longest_word, word;
  for (const char c : tool.name + " ") {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += c;
      continue;
    }
    if (word.size() > longest_word.size()) longest_word = word;
    word.clear();
  }
  for (const auto &address : {std::string("/"),
                              std::string("/comparisons"),
                              std::string("/comparisons?page=2"),
                              std::string("/tools"),
                              std::string("/tools?page=3"),
                              std::string("/tools?sort=panel&pricing=Free"),
                              "/tools/" + tool.slug,
                              "/tools/" + tool.slug + "?page=2",
                              std::string("/reviewers"),
                              std::string("/reviewers?page=2"),
                              "/reviewers/" + reviewer.slug,
                              "/reviewers/" + reviewer.slug + "?page=2",
                              std::string("/feed.xml"),
                              "/tools/" + tool.slug + "/feed.xml",
                              "/tools/" + published.a_slug + "/alternatives",
                              "/reviewers/" + reviewer.slug + "/feed.xml",
                              published_pair,
                              "/compare/" + published.b_slug + "-vs-" + published.a_slug,
                              pair,
                              pair + "?page=2",
                              "/compare?a=" + tool.slug + "&b=" + other.slug,
                              std::string("/subscribed"),
                              std::string("/healthz"),
                              std::string("/sitemap.xml"),
                              std::string("/methodology"),
                              std::string("/search"),
                              "/search?q=" + httplib::detail::encode_query_param(tool.name),
                              std::string("/search?q=the&page=2"),
                              std::string("/search?q=primitive"), // quotes only
                              "/search?q=" + longest_word + "q",
                              std::string("/metrics"),
                              std::string("/categories"),
                              "/categories/" + tool.category.slug,
                              "/categories/" + tool.category.slug + "?page=2",
                              std::string("/tools/no-such-tool"),
                              std::string("/nowhere")}) {
    INFO(address);
    REQUIRE(client.Get(address.c_str()));
    httplib::Headers cookie{{"Cookie", "verdict_voter=" + voter}};
    REQUIRE(client.Get(address.c_str(), cookie));
  }
  for (const auto *verdict : {"verdict=ship", "verdict=skip", "verdict=withdraw"})
    CHECK(test::post_form(client, "/tools/" + tool.slug + "/vote", verdict, voter)->status == 303);
  for (const auto *pick : {"pick=a", "pick=b", "pick=withdraw"})
    CHECK(test::post_form(client, published_pair + "/vote", pick, voter)->status == 303);
  CHECK(test::post_form(client, "/subscribe", "email=reader%40example.com")->status == 303);

  // Store calls no page makes today.
  CHECK(!store.tools_by_name().empty());
  CHECK(store.schema_version() > 0);
  CHECK(test::durability(store).journal_mode == "wal");
  CHECK(store.health_problem().empty());
  CHECK(store.tool_by_slug(tool.slug));
  CHECK(!store.tool_to_vote_on("an-address-no-tool-ever-had"));
  CHECK(!test::reviews_of_tool(store, tool.slug).empty());
  bool canonical = true;
  CHECK(store.resolve_pair(pair.substr(9), canonical));
  test::pair_tally(store, tool.id, other.id);
  store.voter_choices(voter, tool.id, other.id);
  store.voter_choices_on_tool(voter, tool.id);
  CHECK(!store.vote_log(1, 10).empty());
  CHECK(store.vote_log_head().size > 0);
  const auto checkpoint = store.make_checkpoint(auth::new_signing_key(), 1);
  CHECK(store.latest_checkpoint()->size == checkpoint.size);
  CHECK(client.Get("/transparency/feed.xml")->body.find(checkpoint.signature) != std::string::npos);
  CHECK(!store.inclusion_proof(0, checkpoint.size).empty());
  CHECK(!store.consistency_proof(1, checkpoint.size).empty());
  // The checkpointer's write: the latest checkpoint read, and the site's key in the file.
  CHECK(apply(store, MakeCheckpoint{}, store.context_at(unix_now_ms())).done());
  // The log's batches: a vote left waiting, then the clock's ask that publishes it.
  CHECK(apply(store,
              CastToolVote{test::ballot_of(std::string(32, 'w')), tool.id, Verdict::ship, true},
              store.context_at(unix_now_ms()))
            .done());
  CHECK(store.votes_waiting());
  CHECK(apply(store, PublishVotes{3600}, store.context_at(unix_now_ms())).done());
  CHECK_FALSE(store.votes_waiting());
  CHECK(store.vote_events([](const VoteEvent &) {}) == store.vote_log_head().size);
  CHECK(client.Get("/data/tallies.csv")->status == 200);
  CHECK(client.Get("/data/tallies.json")->status == 200);
  {
    // A file from before the tallies were kept per day: its upgrade replays its log into them.
    const test::TempDir old_dir;
    Store upgraded(test::write_version_1_site(
        old_dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
                 "INSERT INTO tools (slug, name, category_id, tagline, description, entry) "
                 "VALUES ('one', 'One', 1, 't', 'd', 'Free');"
                 "INSERT INTO tool_votes (voter, tool_id, verdict, cast_at) VALUES ('" +
                     std::string(32, 'd') + "', 1, 'ship', '2026-01-02T00:00:00Z');"));
    CHECK(upgraded.tallies_by_day().targets.size() == 1);
  }
  test::cast_tool_vote(store, test::ballot_of(voter), tool.id, Verdict::ship);
  CHECK(client.Get("/receipts", {{"Cookie", "verdict_voter=" + voter}})->body.find(tool.name) !=
        std::string::npos);
  CHECK(store.subscriber_counts().total() == 1);
  CHECK(test::subscriber_emails(store).size() == 1);
  // The weekly digest: sign-up, confirmation mails, links, and a digest's sends.
  const int64_t now = 1'800'000'000;
  CHECK(test::request_subscription(store, "digest@example.com", now) ==
        SubscriptionRequest::mail_queued);
  CHECK(test::confirmations_waiting(store) >= 1);
  const auto due = store.confirmations_due(now, 10);
  REQUIRE(!due.empty());
  const auto reader_id = due.back().subscriber_id;
  CHECK(test::claim_confirmation(store, reader_id, now, 600));
  CHECK_FALSE(test::claim_confirmation(store, reader_id, now, 600)); // claimed already
  test::confirmation_failed(store, reader_id, now, "refused");
  test::confirmation_failed(store, reader_id, std::nullopt, "refused for good");
  REQUIRE(test::start_confirmation(store, reader_id, auth::secret_hash("token"), now + 60));
  CHECK(store.confirmation(auth::secret_hash("token"), now) == ConfirmationCheck::confirmable);
  CHECK(test::confirm_subscription(store, auth::secret_hash("token"), now) ==
        ConfirmationCheck::confirmable);
  test::confirmation_mailed(store, reader_id);
  CHECK(store.site_secret("unsubscribe", auth::random_secret()).size() == 64);
  // A cluster node's: the key's secret kept in its file, and read back by `cluster key --db`.
  store.keep_site_secret("known_devices", auth::random_secret());
  CHECK(store.kept_site_secret("known_devices"));
  CHECK(store.subscriber_counts().confirmed == 1);
  // A dry run's look at a new digest, then one made, resumed after a refusal, and done.
  CHECK(store.digest_to_send(published.published_on, 366).recipients.size() == 1);
  const auto digest = test::record_digest(store, published.published_on, 366);
  REQUIRE(digest.id != 0);
  CHECK(!digest.items.empty());
  REQUIRE(digest.recipients.size() == 1);
  CHECK(test::claim_digest_send(store, digest.id, reader_id));
  test::digest_send_failed(store, digest.id, reader_id, SendFailure::refused, "refused");
  CHECK(store.digest_to_send(published.published_on, 366).resumed);
  CHECK(test::record_digest(store, published.published_on, 366).interrupted == 0);
  CHECK(test::claim_digest_send(store, digest.id, reader_id));
  test::digest_sent(store, digest.id, reader_id);
  CHECK(test::record_digest(store, published.published_on, 366).items.empty());
  CHECK(test::unsubscribe(store, reader_id));
  CHECK(test::resubscribe(store, reader_id) == Resubscription::confirmed);
  const auto token = "/unsubscribe/" + auth::unsubscribe_token(
                                           store.site_secret("unsubscribe", auth::random_secret()),
                                           reader_id, "digest@example.com");
  CHECK(client.Get(token.c_str())->status == 200);
  CHECK(client.Get(("/confirm/" + auth::random_secret()).c_str())->status == 404);
  const auto content = store.export_content();
  test::import_content(store, content);

  // The editor's desk, through its pages.
  test::add_editor(store, "desk@example.com", auth::hash_password("a desk password"));
  const auto desk = test::sign_in_at_desk(client, "desk@example.com", "a desk password");
  for (const auto *address : {"/admin", "/admin/log", "/admin/categories", "/admin/categories/new"})
    CHECK(test::get_at_desk(client, desk, address)->status == 200);
  CHECK(
      test::post_at_desk(client, desk, "/admin/categories", "name=Planned&slug=planned")->status ==
      303);
  CHECK(test::get_at_desk(client, desk, "/admin/categories/planned")->status == 200);
  CHECK(test::post_at_desk(client, desk, "/admin/categories/planned", "name=Plans&slug=plans")
            ->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/categories/plans/delete", "")->status == 303);
  const auto tool_fields = "&category=" + tool.category.slug +
                           "&tagline=T&description=D&entry=Free&pricing_checked_on=2026-11-01";
  CHECK(test::post_at_desk(client, desk, "/admin/tools", "name=Planned&slug=planned" + tool_fields)
            ->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/tools/planned",
                           "name=Plans&slug=plans" + tool_fields)
            ->status == 303);
  CHECK(client.Get("/tools/planned")->status == 301);
  CHECK(client.Get(("/compare/planned-vs-" + other.slug).c_str())->status == 301);
  CHECK(test::post_at_desk(client, desk, "/admin/reviewers",
                           "name=Planner&slug=planner&lens=Plans&bio=")
            ->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/reviewers/planner",
                           "name=Planner&slug=planners&lens=Plans&bio=")
            ->status == 303);
  CHECK(client.Get("/reviewers/planner")->status == 301);
  CHECK(test::post_at_desk(client, desk, "/admin/reviews",
                           "tool=plans&reviewer=planners&verdict=ship&quote=Q")
            ->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/reviews", // a second: refused, by name
                           "tool=plans&reviewer=planners&verdict=skip&quote=Q")
            ->status == 409);
  for (const auto *address :
       {"/admin/tools", "/admin/tools?q=plan", "/admin/tools/plans", "/admin/reviewers",
        "/admin/reviews", "/admin/reviews?q=plan", "/admin/reviews/plans--planners",
        "/admin/comparisons?q=plan", "/admin/subscribers?q=example", "/admin/log?q=plan"})
    CHECK(test::get_at_desk(client, desk, address)->status == 200);
  CHECK(test::post_at_desk(client, desk, "/admin/reviews/plans--planners",
                           "tool=plans&reviewer=planners&verdict=skip&quote=Q")
            ->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/reviews/plans--planners/delete", "")->status ==
        303);
  CHECK(test::post_at_desk(client, desk, "/admin/reviewers/planners/delete", "")->status == 303);
  const auto pair_form =
      "a=plans&b=" + other.slug + "&published_on=2026-11-20&intro=I&bottom_line=B";
  const auto desk_pair = "/admin/comparisons/plans-vs-" + other.slug;
  CHECK(test::post_at_desk(client, desk, "/admin/comparisons", pair_form)->status == 303);
  CHECK(test::post_at_desk(client, desk, desk_pair, pair_form)->status == 303);
  for (const auto &address :
       {std::string("/admin/comparisons"), desk_pair, desk_pair + "/preview",
        std::string("/admin/subscribers"), std::string("/admin/subscribers.csv")})
    CHECK(test::get_at_desk(client, desk, address)->status == 200);
  CHECK(test::post_at_desk(client, desk, desk_pair + "/delete", "")->status == 303);
  const auto subscriber = store.all_subscribers().front();
  CHECK(test::post_at_desk(client, desk,
                           "/admin/subscribers/" + std::to_string(subscriber.id) + "/delete", "")
            ->status == 303);
  CHECK(store.subscriber_counts().total() == 1); // the digest's reader is left
  CHECK(test::post_form(client, "/subscribe", "email=reader%40example.com")->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/tools/plans/delete", "")->status == 303);
  CHECK(test::post_at_desk(client, desk, "/admin/logout", "")->status == 303);
  // Editors from the command line.
  const std::string hash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA";
  test::add_editor(store, "Editor@example.com", hash);
  CHECK(store.editors().size() == 2);
  const auto editor = store.editor_by_email("editor@example.com");
  REQUIRE(editor);
  test::start_session(store, "secret-hash", editor->id, "csrf", 4102444800);
  CHECK(store.session("secret-hash", 1700000000));
  test::end_session(store, "secret-hash");
  CHECK(test::set_editor_password(store, "editor@example.com", hash));
  store.edit_log({1, 20});
  CHECK(test::remove_editor(store, "editor@example.com"));
  // A node of a cluster applying the stream's writes.
  CHECK(store.applied_sequence() == 0);
  test::apply_entry_now(
      store, 1,
      {{CastToolVote{test::ballot_of(std::string(32, 'c')), tool.id, Verdict::ship},
        WriteContext{1764000000000, "2025-11-24"}}});
  CHECK(store.applied_sequence() == 1);
  // An entry published again under an applied id, and one that is not the cluster's: skipped,
  // and counted.
  test::apply_entry_now(store, 2, {}, "entry-1");
  std::promise<WriteResult> skipped;
  skip_entry(store, 3, [&skipped](const WriteResult &ended) { skipped.set_value(ended); });
  CHECK(skipped.get_future().get().done());
  CHECK(store.skipped_entries().count == 2);
  CHECK(store.skipped_entries().last == 3);
  backup_database(db_path, (dir.path / "backup.db").string());
  CHECK(check_database(db_path).empty());
}

} // namespace

TEST_CASE("query plans: no statement the store prepares scans a large table without an index") {
  start_statement_log();
  test::TempDir dir;
  const auto db_path = test::write_generated_site(dir);
  exercise_the_site(db_path, dir);
  const auto statements = logged_statements();

  // Every place that prepares SQL was reached, so every query of the store is in the log.
  std::set<std::string> reached;
  for (const auto &statement : statements)
    reached.insert(place_of(statement));
  for (const auto &place : preparing_places()) {
    if (place.rfind("store/statement_log.cpp", 0) == 0) continue; // EXPLAIN itself, below
    INFO(place << " prepares a statement this test never reached: reach it in "
                  "exercise_the_site()");
    CHECK(reached.count(place) == 1);
  }

  std::set<std::string> explained;
  for (const auto &statement : statements) {
    if (!explained.insert(statement.sql).second) continue;
    const auto plan = query_plan(db_path, statement.sql);
    std::string shown;
    for (const auto &step : plan)
      shown += "\n  " + step;
    INFO(place_of(statement) << ": " << statement.sql << shown);
    if (statement.sql.find(kWholeTableMarker) != std::string::npos) continue;
    CHECK(full_scans(statement.sql, plan).empty());
  }
  CHECK(explained.size() > 40);
}

TEST_CASE("query plans: a scan without an index is told apart from an index walk") {
  const std::string sql = "SELECT t.slug FROM tools t JOIN categories c ON c.id = t.category_id";
  CHECK(full_scans(sql, {"SCAN t", "SEARCH c USING INTEGER PRIMARY KEY (rowid=?)"}) ==
        std::vector<std::string>{"SCAN t"});
  CHECK(full_scans(sql, {"SCAN t USING COVERING INDEX tools_by_name"}).empty());
  CHECK(full_scans(sql, {"SCAN c"}).empty()); // categories stay small
  CHECK(full_scans("SELECT count(*) FROM tool_votes", {"SCAN tool_votes"}).size() == 1);
  // A full-text MATCH reads the index for its words; the same table without one, every row.
  CHECK(full_scans("SELECT rowid FROM tool_search WHERE tool_search MATCH ?",
                   {"SCAN tool_search VIRTUAL TABLE INDEX 0:M3"})
            .empty());
  CHECK(full_scans("SELECT rowid FROM tool_search", {"SCAN tool_search VIRTUAL TABLE INDEX 0:"})
            .size() == 1);
}
