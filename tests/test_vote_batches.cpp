// Votes reach the log and the published numbers in batches (migrations/0022-vote-batches.sql,
// store/vote_log.cpp, docs/NUMBERS.md): until its batch, a vote moves no number and has no
// entry; a batch's entries are all dated its hour and ordered by a keyed hash, not by arrival,
// so one reader's votes are not adjacent leaves of a quiet site's log; and the log still
// replays to exactly the numbers, with the counting rule's places checkable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/server.h"
#include "domain/counting.h"
#include "domain/tallies.h"
#include "server_process.h"
#include "store/apply_write.h"
#include "store/sqlite.h"
#include "store/vote_log.h"
#include "test_support.h"

using namespace verdict;
using json = nlohmann::json;

namespace {

// 2026-11-28T10:20:00Z, and the batch at 11:00:07.
constexpr int64_t kVotedAt = 1'795'861'200;
constexpr int64_t kBatchAt = kVotedAt + 40 * 60 + 7;

WriteContext taken_at(int64_t seconds) {
  return {seconds * 1000, "2026-11-28"};
}

// A reader's vote as a site publishing in batches takes it, `seconds` after 10:20.
VoteStanding batched_vote(Store &store, const std::string &voter, int64_t tool,
                          std::optional<Verdict> verdict, int64_t seconds = 0,
                          const std::string &network = "") {
  const auto result =
      apply(store, CastToolVote{test::ballot_of(voter, network), tool, verdict, true},
            taken_at(kVotedAt + seconds));
  REQUIRE(result.done());
  return *result.made_by<CastToolVote>();
}

void publish(Store &store, int64_t at = kBatchAt) {
  REQUIRE(apply(store, PublishVotes{3600}, taken_at(at)).done());
}

std::string batch_voter(int n) {
  return std::string(30, 'b') + (n < 10 ? "0" : "") + std::to_string(n);
}

std::vector<json> entries_from(Store &store, uint64_t from) {
  std::vector<json> entries;
  for (const auto &logged : store.vote_log(from, 1000))
    entries.push_back(json::parse(logged.entry));
  return entries;
}

// The log replayed: each target's standing, and what the counting rule's check finds.
struct Replayed {
  TallyReplay tallies;
  std::vector<std::string> broken;
};
Replayed replay(Store &store) {
  Replayed replayed;
  CountingRuleCheck rule;
  store.vote_events([&](const VoteEvent &event) {
    replayed.tallies.add(event);
    if (auto broken = rule.add(event); !broken.empty()) replayed.broken.push_back(broken);
  });
  return replayed;
}

} // namespace

TEST_CASE("vote batches: a vote waits with no entry and moves no number until its batch, which "
          "dates every entry the batch's hour, orders them by a keyed hash, and replays to the "
          "numbers the pages show") {
  test::TempDir dir; // a file: the order's keys are checked on a connection of the test's own
  const auto path = (dir.path / "site.db").string();
  auto store = open_site_database(path);
  const auto tool = store->tool_by_slug("codestral-2-1")->id;
  const auto other = store->tool_by_slug("cursor-background-agent")->id;
  const auto size_before = store->vote_log_size();
  const auto shown_before = store->tool_by_slug("codestral-2-1")->community;

  // One reader votes on two tools a few seconds apart, among eight others' votes.
  batched_vote(*store, batch_voter(0), tool, Verdict::ship, 0);
  batched_vote(*store, batch_voter(0), other, Verdict::skip, 5);
  for (int i = 1; i <= 8; ++i)
    batched_vote(*store, batch_voter(i), i % 2 ? tool : other,
                 i % 3 ? Verdict::ship : Verdict::skip, 60 * i);

  CHECK(store->votes_waiting());
  CHECK(store->vote_log_size() == size_before);
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == shown_before.total);
  CHECK(store->tool_by_slug("codestral-2-1")->community.ships == shown_before.ships);
  const auto receipts = store->vote_receipts(batch_voter(0));
  REQUIRE(receipts.size() == 2);
  CHECK(receipts[0].waiting);
  CHECK(receipts[1].waiting);

  publish(*store);
  CHECK_FALSE(store->votes_waiting());
  const auto entries = entries_from(*store, size_before);
  REQUIRE(entries.size() == 10);
  for (const auto &entry : entries) {
    INFO(entry.dump());
    CHECK(entry["at"] == "2026-11-28T11:00:00Z"); // the batch's hour, not the vote's
    CHECK(entry["event"] == "cast");
  }

  // The order is the keyed hash's (the log's own key over voter, event and target), which
  // nobody without the key can foresee; not the order the votes came in.
  sql::Db db(path);
  vote_log::add_functions(db);
  std::vector<std::pair<std::string, std::string>> by_key; // key, the entry's voter pseudonym
  std::vector<std::string> arrived;                        // pseudonyms in arrival order
  const auto pseudonym_of = [&db](const std::string &of, int64_t on) {
    auto stmt = db.prepare("SELECT vote_log_pseudonym(:voter, :target, 'voter'), "
                           "vote_log_pseudonym(:voter || '#cast', :target, 'order')");
    stmt.bind(":voter", of).bind(":target", "tool:" + std::to_string(on));
    REQUIRE(stmt.step());
    return std::make_pair(stmt.text(1), stmt.text(0));
  };
  by_key.push_back(pseudonym_of(batch_voter(0), tool));
  by_key.push_back(pseudonym_of(batch_voter(0), other));
  for (int i = 1; i <= 8; ++i)
    by_key.push_back(pseudonym_of(batch_voter(i), i % 2 ? tool : other));
  for (const auto &[key, pseudonym] : by_key)
    arrived.push_back(pseudonym);
  std::sort(by_key.begin(), by_key.end());
  std::vector<std::string> logged;
  for (const auto &entry : entries)
    logged.push_back(entry["voter"]);
  for (size_t i = 0; i < by_key.size(); ++i)
    CHECK(logged[i] == by_key[i].second);
  CHECK(logged != arrived); // ten in their arrival order: one chance in 3,628,800

  // The numbers moved with the batch, and are the log's replay.
  const auto replayed = replay(*store);
  CHECK(replayed.broken.empty());
  const auto shown = store->tool_by_slug("codestral-2-1");
  CHECK(shown->community.total == shown_before.total + 5);
  const auto standing = replayed.tallies.standing(tool_target(tool));
  CHECK(standing.counted() == shown->community.total);
  CHECK(standing.first == shown->community.ships);
  // Each vote's receipt names its entry now.
  for (const auto &receipt : store->vote_receipts(batch_voter(0))) {
    CHECK_FALSE(receipt.waiting);
    CHECK(receipt.logged.leaf >= size_before);
    CHECK(json::parse(receipt.logged.entry)["voter"] == logged[receipt.logged.leaf - size_before]);
  }
}

TEST_CASE("vote batches: a reader's votes within one batch are netted to what changed — a vote "
          "come and gone leaves no entry, a change one, a withdrawal and a new cast two — and a "
          "place freed in the batch is free before the waiting vote takes it") {
  auto store = test::seeded_store();
  const auto tool = store->tool_by_slug("codestral-2-1")->id;
  // Published first: three of one office counted, a fourth waiting, and a reader who will
  // withdraw and vote again.
  for (int i = 0; i < 4; ++i)
    batched_vote(*store, batch_voter(i), tool, Verdict::ship, i, "office");
  batched_vote(*store, batch_voter(10), tool, Verdict::ship, 10);
  publish(*store, kVotedAt + 600);
  const auto size_before = store->vote_log_size();
  const auto shown_before = store->tool_by_slug("codestral-2-1")->community;

  // Within the next batch: the office's first reader withdraws (the waiting fourth takes the
  // place); a new reader votes and withdraws; another votes ship then skip; reader 10
  // withdraws and votes skip.
  batched_vote(*store, batch_voter(0), tool, std::nullopt, 1000);
  batched_vote(*store, batch_voter(20), tool, Verdict::ship, 1001);
  batched_vote(*store, batch_voter(20), tool, std::nullopt, 1002);
  batched_vote(*store, batch_voter(21), tool, Verdict::ship, 1003);
  batched_vote(*store, batch_voter(21), tool, Verdict::skip, 1004);
  batched_vote(*store, batch_voter(10), tool, std::nullopt, 1005);
  batched_vote(*store, batch_voter(10), tool, Verdict::skip, 1006);
  publish(*store, kVotedAt + 600 + 3600);

  const auto entries = entries_from(*store, size_before);
  std::map<std::string, int> events; // "event choice" counts
  for (const auto &entry : entries)
    ++events[entry["event"].get<std::string>() + " " +
             (entry["choice"].is_null() ? "-" : entry["choice"].get<std::string>())];
  INFO(json(entries).dump());
  // Withdrawn: office reader 0 and reader 10. Changed: the fourth, now counted. Cast: reader
  // 21's skip (one entry for two votes), reader 10's skip. Reader 20: nothing.
  CHECK(entries.size() == 5);
  CHECK(events["withdrawn -"] == 2);
  CHECK(events["changed ship"] == 1);
  CHECK(events["cast skip"] == 2);
  // Withdrawals first: the place the fourth takes is free when the log says it is taken.
  CHECK(entries[0]["event"] == "withdrawn");
  CHECK(entries[1]["event"] == "withdrawn");
  const auto replayed = replay(*store);
  CHECK(replayed.broken.empty());
  const auto shown = store->tool_by_slug("codestral-2-1")->community;
  const auto standing = replayed.tallies.standing(tool_target(tool));
  CHECK(shown.total == shown_before.total + 1); // one office place changed hands, +21
  CHECK(standing.counted() == shown.total);
  CHECK(standing.first == shown.ships);
}

TEST_CASE(
    "vote batches: every node's clock asks at the period's end, and only the first ask "
    "makes a batch, while a vote taken by a site publishing each vote is in the log at once") {
  auto store = test::seeded_store();
  const auto tool = store->tool_by_slug("codestral-2-1")->id;
  batched_vote(*store, batch_voter(1), tool, Verdict::ship);
  publish(*store, kBatchAt);
  const auto size = store->vote_log_size();
  batched_vote(*store, batch_voter(2), tool, Verdict::ship, 2500);
  publish(*store, kBatchAt + 5); // a second node's ask, seconds later: no batch of one
  CHECK(store->votes_waiting());
  CHECK(store->vote_log_size() == size);
  publish(*store, kBatchAt + 3600);
  CHECK_FALSE(store->votes_waiting());
  CHECK(store->vote_log_size() == size + 1);

  // Not batched (`--publish-votes-every 0`): the vote's own entry and numbers, at once.
  const auto votes = store->tool_by_slug("codestral-2-1")->community.total;
  REQUIRE(apply(*store, CastToolVote{test::ballot_of(batch_voter(3)), tool, Verdict::skip, false},
                taken_at(kBatchAt + 4000))
              .done());
  CHECK_FALSE(store->votes_waiting());
  CHECK(store->vote_log_size() == size + 2);
  CHECK(store->tool_by_slug("codestral-2-1")->community.total == votes + 1);
}

namespace {

json served_api(httplib::Client &client, const std::string &path) {
  const auto res = client.Get(path.c_str());
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return json::parse(res->body);
}

} // namespace

TEST_CASE("vote batches: a served site's votes wait for the hour (libfaketime): from 10:59:40 the "
          "page's numbers and the log stay as they were and the receipt says so, then the "
          "hour's batch brings both, dated 11:00") {
  REQUIRE(std::filesystem::exists(test::kLibFaketime));
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto server = test::server_with_clock(
      {"--db", db, "--port", "0", "--rate-limit", "0", "--publish-votes-every", "60"},
      "@2026-11-28 10:59:40");
  httplib::Client client("127.0.0.1", server->port);
  client.set_read_timeout(30);

  const auto before = served_api(client, "/api/tools/codestral-2-1");
  const auto size = before["vote_log_size"].get<uint64_t>();
  const auto counted = before["community"]["votes"].get<int64_t>();
  // A reader reads the page (kSecondsToReadAPage: a vote sooner is set aside), then votes.
  const auto page = client.Get("/tools/codestral-2-1");
  REQUIRE(page);
  const auto token = test::vote_token_in(page->body, "/tools/codestral-2-1/vote");
  REQUIRE_FALSE(token.empty());
  std::this_thread::sleep_for(std::chrono::seconds(kSecondsToReadAPage) +
                              std::chrono::milliseconds(1100));
  const auto voted =
      client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "same-origin"}},
                  "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
  REQUIRE(voted);
  REQUIRE(voted->status == 303);
  // The site's clock was still before the hour when it answered: what follows is the wait.
  const auto reader = test::cookie_from(voted);
  const auto waiting = served_api(client, "/api/tools/codestral-2-1");
  // The site's clock was still before the hour after these reads (a form's token begins with
  // the second its page was made): what follows is the wait for the batch.
  const auto later = client.Get("/tools/codestral-2-1");
  REQUIRE(later);
  const auto later_token = test::vote_token_in(later->body, "/tools/codestral-2-1/vote");
  REQUIRE(std::stoll(later_token.substr(0, later_token.find('.'))) < kVotedAt + 40 * 60);
  CHECK(waiting["vote_log_size"].get<uint64_t>() == size);
  CHECK(waiting["community"]["votes"].get<int64_t>() == counted);
  const auto receipts = client.Get("/receipts", {{"Cookie", "verdict_voter=" + reader}});
  REQUIRE(receipts);
  CHECK(receipts->body.find("with the site's next batch of votes") != std::string::npos);

  // The batch at 11:00 on the site's clock: 20 s after it started, whatever the machine's load.
  json after;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(35);
  do {
    after = served_api(client, "/api/tools/codestral-2-1");
    if (after["vote_log_size"].get<uint64_t>() > size) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  } while (std::chrono::steady_clock::now() < deadline);
  REQUIRE(after["vote_log_size"].get<uint64_t>() == size + 1);
  CHECK(after["community"]["votes"].get<int64_t>() == counted + 1);
  const auto log = served_api(client, "/transparency/log?from=" + std::to_string(size));
  REQUIRE(log["entries"].size() == 1);
  const auto entry = json::parse(log["entries"][0]["entry"].get<std::string>());
  CHECK(entry["at"] == "2026-11-28T11:00:00Z");
  const auto logged = client.Get("/receipts", {{"Cookie", "verdict_voter=" + reader}});
  REQUIRE(logged);
  CHECK(logged->body.find("with the site's next batch of votes") == std::string::npos);
  CHECK(logged->body.find("Log entry") != std::string::npos);
}
