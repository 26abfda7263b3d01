// The vote log (store/vote_log.h, migrations/0010-vote-log.sql): every vote event appended in
// the vote's own transaction, as an RFC 6962 leaf, with no reader data in it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "auth/log_signing.h"
#include "base/merkle.h"
#include "domain/clock.h"
#include "domain/counting.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "test_support.h"

using namespace verdict;
using nlohmann::json;

namespace {

std::vector<json> entries_of(Store &store) {
  std::vector<json> entries;
  for (const auto &logged : store.vote_log(0, 1000))
    entries.push_back(json::parse(logged.entry));
  return entries;
}

} // namespace

TEST_CASE("vote log: every vote event on a tool or a pair is an entry — cast, changed, "
          "withdrawn — with its choice and standing, in order") {
  auto store = test::seeded_store();
  const auto a = store->tool_by_slug("cursor-background-agent")->id;
  const auto b = store->tool_by_slug("codestral-2-1")->id;
  const auto tool = "tool:" + std::to_string(b);
  const auto pair = "pair:" + std::to_string(std::min(a, b)) + "-" + std::to_string(std::max(a, b));

  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), b, Verdict::ship);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), b,
                       Verdict::ship); // the same again: no event
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), b, Verdict::skip);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), b, std::nullopt);
  auto quick = test::ballot_of(test::kVoter2);
  quick.seconds_on_page = 0;
  CHECK(test::cast_pair_vote(*store, quick, a, b, a) == SetAsideReason::too_fast);
  CHECK_FALSE(
      test::cast_pair_vote(*store, test::ballot_of(test::kVoter2), a, b, b)); // sent again, counted
  test::cast_pair_vote(*store, test::ballot_of(test::kVoter2), a, b, std::nullopt);

  const auto entries = entries_of(*store);
  REQUIRE(entries.size() == 6);
  const std::vector<std::tuple<std::string, std::string, json, json>> expected = {
      {tool, "cast", "ship", nullptr},       {tool, "changed", "skip", nullptr},
      {tool, "withdrawn", nullptr, nullptr}, {pair, "cast", a, "too_fast"},
      {pair, "changed", b, nullptr},         {pair, "withdrawn", nullptr, nullptr}};
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("entry " << i << ": " << entries[i].dump());
    const auto &[target, event, choice, set_aside] = expected[i];
    CHECK(entries[i]["target"] == target);
    CHECK(entries[i]["event"] == event);
    CHECK(entries[i]["choice"] == choice);
    CHECK(entries[i]["set_aside"] == set_aside);
    CHECK(entries[i]["at"].get<std::string>().size() == 20); // 2026-11-24T16:00:00Z
  }
}

TEST_CASE("vote log: entries are numbered from 0 with no gap, each kept with its RFC 6962 leaf "
          "hash, and the head's root is the tree of those leaves") {
  auto store = test::seeded_store();
  const auto id = store->tool_by_slug("codestral-2-1")->id;
  for (int i = 0; i < 9; ++i)
    test::cast_tool_vote(*store, test::ballot_of(std::string(31, 'a') + std::to_string(i)), id,
                         i % 2 ? Verdict::ship : Verdict::skip);
  const auto logged = store->vote_log(0, 1000);
  REQUIRE(logged.size() == 9);
  std::vector<merkle::Hash> leaves;
  for (size_t i = 0; i < logged.size(); ++i) {
    CHECK(logged[i].leaf == i);
    CHECK(logged[i].hash == merkle::leaf_hash(logged[i].entry));
    leaves.push_back(logged[i].hash);
  }
  CHECK(store->vote_log(4, 2).front().leaf == 4);
  CHECK(store->vote_log(4, 2).size() == 2);
  const auto head = store->vote_log_head();
  CHECK(head.size == 9);
  CHECK(head.root == merkle::root(9, merkle::over(leaves)));
}

TEST_CASE("vote log: an entry holds no reader data — the voter only as a keyed hash, one for a "
          "voter's events on a target and unlinked across targets, and a counted vote's place "
          "but never its network") {
  auto store = test::seeded_store();
  const auto a = store->tool_by_slug("cursor-background-agent")->id;
  const auto b = store->tool_by_slug("codestral-2-1")->id;
  const std::string network = "203.0.113.0/24";
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1, network), a, Verdict::ship);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1, network), b, Verdict::skip);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter2, network), a, Verdict::ship);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1, network), a,
                       Verdict::skip); // changed
  test::cast_pair_vote(*store, test::ballot_of(test::kVoter1, network), a, b, a);
  const auto logged = store->vote_log(0, 10);
  REQUIRE(logged.size() == 5);
  for (const auto &entry : logged) {
    INFO(entry.entry);
    CHECK(entry.entry.find(test::kVoter1) == std::string::npos);
    CHECK(entry.entry.find(test::kVoter2) == std::string::npos);
    CHECK(entry.entry.find("203.0.113") == std::string::npos);
    const auto parsed = json::parse(entry.entry);
    CHECK(parsed["voter"].get<std::string>().size() == 32);
    CHECK(parsed["place"].get<std::string>().size() == 32);
    CHECK_FALSE(parsed.contains("network"));
    // Dated by the hour: the second a reader voted is not in the log.
    CHECK(parsed["at"].get<std::string>().substr(13) == ":00:00Z");
  }
  const auto voter_of = [&](size_t i) { return json::parse(logged[i].entry)["voter"]; };
  const auto place_of = [&](size_t i) { return json::parse(logged[i].entry)["place"]; };
  // One voter on one target: one pseudonym, so the log replays target by target; a counted
  // voter who changes their mind keeps their place.
  CHECK(voter_of(0) == voter_of(3));
  CHECK(place_of(0) == place_of(3));
  // Two readers of one network on one target hold two places, which share nothing: a reader
  // who finds their own entry learns nothing of which others are their network's.
  CHECK(place_of(0) != place_of(2));
  // Between voters, and between one voter's (or one network's) targets: nothing in common.
  CHECK(voter_of(0) != voter_of(2));
  CHECK(voter_of(0) != voter_of(1));
  CHECK(voter_of(0) != voter_of(4));
  CHECK(voter_of(1) != voter_of(4));
  CHECK(place_of(0) != place_of(1));
  CHECK(place_of(0) != place_of(4));
  // Nor with the pseudonym another target's key would give: each is keyed by its own target.
  std::set<std::string> pseudonyms;
  for (size_t i = 0; i < logged.size(); ++i)
    pseudonyms.insert(voter_of(i).get<std::string>() + place_of(i).get<std::string>());
  CHECK(pseudonyms.size() == 4); // entries 0 and 3 are one voter's on one target
  // A receipt shows the entry, and so no network either.
  for (const auto &receipt : store->vote_receipts(test::kVoter1))
    CHECK_FALSE(json::parse(receipt.logged.entry).contains("network"));
}

TEST_CASE("vote log: a batch whose commit fails leaves no entry behind, and the next vote takes "
          "the next leaf") {
  auto store = test::seeded_store();
  const auto id = store->tool_by_slug("codestral-2-1")->id;
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter1), id, Verdict::ship);
  CHECK_THROWS(store->write([&](sql::Db &db) {
    db.exec("PRAGMA defer_foreign_keys = ON");
    db.exec("INSERT INTO tool_votes (voter, tool_id, verdict) VALUES ('" + test::kVoter2 +
            "', 999, 'ship')");
  }));
  CHECK(store->vote_log_head().size == 1);
  test::cast_tool_vote(*store, test::ballot_of(test::kVoter2), id, Verdict::skip);
  const auto logged = store->vote_log(0, 10);
  REQUIRE(logged.size() == 2);
  CHECK(logged[1].leaf == 1);
  CHECK(json::parse(logged[1].entry)["choice"] == "skip");
}

TEST_CASE("vote log: a database from before the log opens it with every vote already cast") {
  test::TempDir dir;
  const auto voter = "'" + test::kVoter1 + "'";
  const auto path = test::write_version_1_site(
      dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
           "INSERT INTO tools (slug, name, category_id, tagline, description, entry) VALUES "
           "('one', 'One', 1, 't', 'd', 'Free'), ('two', 'Two', 1, 't', 'd', 'Free');"
           "INSERT INTO tool_votes (voter, tool_id, verdict, cast_at) VALUES (" +
               voter +
               ", 2, 'skip', '2026-01-02T00:00:00Z');"
               "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id, "
               "cast_at) VALUES (" +
               voter + ", 1, 2, 2, '2026-01-01T00:00:00Z');");
  Store store(path);
  const auto entries = entries_of(store);
  REQUIRE(entries.size() == 8);
  CHECK(entries[0]["target"] == "pair:1-2"); // the older first
  CHECK(entries[0]["choice"] == 2);
  CHECK(entries[1]["target"] == "tool:2");
  CHECK(entries[1]["choice"] == "skip");
  CHECK(entries[1]["network"].is_null());            // cast before the counting rule kept networks
  CHECK(entries[0]["voter"] == entries[1]["voter"]); // the log's first format: one pseudonym
  // Then each vote carried to its pseudonym keyed by its target (migrations/0014): the same
  // choice and standing, a new pseudonym per target, and the one it had.
  for (size_t i : {2, 3}) {
    INFO(entries[i].dump());
    CHECK(entries[i]["event"] == "rekeyed");
    CHECK(entries[i]["target"] == entries[i - 2]["target"]);
    CHECK(entries[i]["choice"] == entries[i - 2]["choice"]);
    CHECK(entries[i]["at"] == entries[i - 2]["at"]);
    CHECK(entries[i]["was"] == entries[0]["voter"]);
    CHECK(entries[i]["voter"] != entries[0]["voter"]);
  }
  CHECK(entries[2]["voter"] != entries[3]["voter"]);
  // Then each vote standing starts over in the format that names places (migrations/0021):
  // withdrawn under the pseudonym it had, then entered again under a new one, with no link
  // between them but the target — all dated as the last entry was, by the hour.
  for (size_t i : {4, 5}) {
    INFO(entries[i].dump());
    CHECK(entries[i]["event"] == "withdrawn");
    CHECK(entries[i]["voter"] == entries[i - 2]["voter"]);
    CHECK(entries[i]["at"] == "2026-01-02T00:00:00Z");
  }
  for (size_t i : {6, 7}) {
    INFO(entries[i].dump());
    CHECK(entries[i]["event"] == "rekeyed");
    CHECK(entries[i]["target"] == entries[i - 4]["target"]);
    CHECK(entries[i]["choice"] == entries[i - 4]["choice"]);
    CHECK(entries[i]["at"] == "2026-01-02T00:00:00Z");
    CHECK_FALSE(entries[i].contains("was"));
    CHECK_FALSE(entries[i].contains("network"));
    CHECK(entries[i]["place"].is_null()); // cast before the counting rule: it holds no place
    for (size_t before = 0; before < i; ++before)
      CHECK(entries[i]["voter"] != entries[before]["voter"]);
  }
  CHECK(store.vote_log_head().size == 8);
  // The log replayed still gives the numbers the site shows: the rekeyed votes are not counted
  // twice.
  TallyReplay replay;
  store.vote_events([&](const VoteEvent &event) { replay.add(event); });
  CHECK(replay.standing(tool_target(2)).second == 1);
  CHECK(replay.standing(tool_target(2)).cast() == 1);
  CHECK(replay.standing(pair_target(1, 2)).second == 1);
  CHECK(replay.standing(pair_target(1, 2)).cast() == 1);
  // A change after it is the new pseudonym's, and replays as a change.
  auto ballot = test::ballot_of(test::kVoter1);
  test::cast_tool_vote(store, ballot, 2, Verdict::ship);
  CHECK(entries_of(store).back()["voter"] == entries[7]["voter"]);
  // Each vote already cast has its receipt: the leaf of its latest entry.
  const auto receipts = store.vote_receipts(test::kVoter1);
  REQUIRE(receipts.size() == 2);
  CHECK(receipts[0].logged.leaf == 8);
  CHECK(receipts[0].what == "Two");
  CHECK(receipts[0].verdict == Verdict::ship);
  CHECK(receipts[1].logged.leaf == 6);
  CHECK(receipts[1].what == "One vs Two");
  CHECK(receipts[1].picked == "Two");
}

namespace {

void cast_votes(Store &store, int from, int count) {
  const auto id = store.tool_by_slug("codestral-2-1")->id;
  for (int i = from; i < from + count; ++i) {
    auto voter = std::to_string(i);
    voter = std::string(32 - voter.size(), 'c') + voter;
    test::cast_tool_vote(store, test::ballot_of(voter), id, i % 3 ? Verdict::ship : Verdict::skip);
  }
}

std::vector<merkle::Hash> leaf_hashes(Store &store) {
  std::vector<merkle::Hash> leaves;
  for (const auto &logged : store.vote_log(0, 100000))
    leaves.push_back(merkle::leaf_hash(logged.entry));
  return leaves;
}

} // namespace

TEST_CASE("vote log: a checkpoint signs the log's size and root, and the signature holds under "
          "the site's public key only, for that text only") {
  auto store = test::seeded_store();
  cast_votes(*store, 0, 13);
  const auto key = auth::new_signing_key();
  const auto checkpoint = store->make_checkpoint(key, 1'800'000'000);
  CHECK(checkpoint.size == 13);
  CHECK(checkpoint.root == merkle::root(13, merkle::over(leaf_hashes(*store))));
  CHECK(store->latest_checkpoint()->root == checkpoint.root);
  CHECK(store->latest_checkpoint()->signature == checkpoint.signature);
  const auto text = checkpoint_text(checkpoint);
  CHECK(text == "verdict vote log\n13\n" + merkle::hex(checkpoint.root) + "\n1800000000\n");
  CHECK(auth::signature_holds(auth::public_key_of(key), text, checkpoint.signature));
  CHECK_FALSE(auth::signature_holds(auth::public_key_of(auth::new_signing_key()), text,
                                    checkpoint.signature));
  auto other = checkpoint;
  other.size = 12;
  CHECK_FALSE(auth::signature_holds(auth::public_key_of(key), checkpoint_text(other),
                                    checkpoint.signature));
  CHECK_FALSE(auth::signature_holds(auth::public_key_of(key), text, std::string(128, '0')));
  CHECK_FALSE(auth::signature_holds("not a key", text, checkpoint.signature));
}

TEST_CASE("vote log: every leaf of a checkpoint has an inclusion proof that holds against its "
          "root, and a later checkpoint is proved consistent with an earlier one") {
  auto store = test::seeded_store();
  const auto key = auth::new_signing_key();
  cast_votes(*store, 0, 21);
  const auto first = store->make_checkpoint(key, 1);
  cast_votes(*store, 21, 18);
  const auto second = store->make_checkpoint(key, 2);
  REQUIRE(first.size == 21);
  REQUIRE(second.size == 39);
  const auto leaves = leaf_hashes(*store);
  CHECK(second.root == merkle::root(39, merkle::over(leaves)));
  for (uint64_t leaf = 0; leaf < second.size; ++leaf) {
    INFO("leaf " << leaf);
    CHECK(merkle::inclusion_holds(leaf, second.size, leaves[leaf],
                                  store->inclusion_proof(leaf, second.size), second.root));
    if (leaf < first.size)
      CHECK(merkle::inclusion_holds(leaf, first.size, leaves[leaf],
                                    store->inclusion_proof(leaf, first.size), first.root));
  }
  CHECK(merkle::consistency_holds(first.size, second.size, first.root, second.root,
                                  store->consistency_proof(first.size, second.size)));
  // Past the last checkpoint there is no sealed tree to prove anything in.
  cast_votes(*store, 39, 1);
  CHECK_THROWS_AS(store->inclusion_proof(39, 40), NotFound);
  CHECK_THROWS_AS(store->inclusion_proof(39, 39), NotFound);
  CHECK_THROWS_AS(store->consistency_proof(39, 40), NotFound);
  CHECK_THROWS_AS(store->consistency_proof(30, 20), NotFound);
}

TEST_CASE("vote log: an entry changed in the file after a checkpoint no longer makes the "
          "checkpoint's root") {
  auto store = test::seeded_store();
  cast_votes(*store, 0, 8);
  const auto checkpoint = store->make_checkpoint(auth::new_signing_key(), 1);
  store->write([](sql::Db &db) {
    db.exec("UPDATE vote_log SET entry = replace(entry, '\"ship\"', '\"skip\"') WHERE leaf = 2");
  });
  CHECK(merkle::root(8, merkle::over(leaf_hashes(*store))) != checkpoint.root);
}

TEST_CASE("vote log: /transparency serves the signed checkpoint, the entries and proofs that "
          "check against it, and says what was wrong with a bad question") {
  test::SiteServer site;
  auto client = site.client();
  CHECK(client.Get("/transparency/checkpoint")->status == 404);
  for (int i = 0; i < 5; ++i)
    REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote",
                            i % 2 ? "verdict=ship" : "verdict=skip",
                            std::string(31, 'd') + std::to_string(i))
                ->status == 303);
  site.store().make_checkpoint(site.app().log_signing_key, 1'800'000'000);

  const auto answer = client.Get("/transparency/checkpoint");
  REQUIRE(answer->status == 200);
  CHECK(answer->get_header_value("Content-Type") == "application/json; charset=utf-8");
  const auto checkpoint = json::parse(answer->body);
  CHECK(checkpoint["size"] == 5);
  CHECK(auth::signature_holds(checkpoint["public_key"].get<std::string>(),
                              checkpoint["signed_text"].get<std::string>(),
                              checkpoint["signature"].get<std::string>()));
  const auto root = merkle::from_hex(checkpoint["root"].get<std::string>());
  REQUIRE(root);

  const auto log = json::parse(client.Get("/transparency/log?from=0")->body);
  REQUIRE(log["entries"].size() == 5);
  CHECK(log["next"].is_null());
  std::vector<merkle::Hash> leaves;
  for (const auto &logged : log["entries"])
    leaves.push_back(merkle::leaf_hash(logged["entry"].get<std::string>()));
  CHECK(merkle::root(5, merkle::over(leaves)) == *root);
  CHECK(json::parse(client.Get("/transparency/log?from=3")->body)["entries"].size() == 2);

  const auto proof = json::parse(client.Get("/transparency/proof?leaf=3&size=5")->body);
  std::vector<merkle::Hash> path;
  for (const auto &step : proof["path"])
    path.push_back(*merkle::from_hex(step.get<std::string>()));
  CHECK(proof["leaf_hash"] == merkle::hex(leaves[3]));
  CHECK(merkle::inclusion_holds(3, 5, leaves[3], path, *root));
  const auto consistency = json::parse(client.Get("/transparency/proof?from=2&size=5")->body);
  std::vector<merkle::Hash> steps;
  for (const auto &step : consistency["proof"])
    steps.push_back(*merkle::from_hex(step.get<std::string>()));
  CHECK(merkle::consistency_holds(2, 5, merkle::root(2, merkle::over(leaves)), *root, steps));

  for (const auto *bad :
       {"/transparency/log?from=-1", "/transparency/log?from=01", "/transparency/log?from=1&from=2",
        "/transparency/proof", "/transparency/proof?leaf=1",
        "/transparency/proof?leaf=1&from=1&size=5", "/transparency/proof?leaf=x&size=5"}) {
    INFO(bad);
    const auto refused = client.Get(bad);
    CHECK(refused->status == 400);
    CHECK(json::parse(refused->body)["error"].get<std::string>().size() > 10);
  }
  CHECK(client.Get("/transparency/proof?leaf=5&size=5")->status == 404);
  CHECK(client.Get("/transparency/proof?leaf=0&size=6")->status == 404);
  CHECK(client.Get("/transparency/proof?from=6&size=5")->status == 404);
}

TEST_CASE("vote log: /transparency shows the latest checkpoint, the public key that signed it "
          "and how to check, and says so when there is none yet") {
  test::SiteServer site;
  auto client = site.client();
  const auto public_key = auth::public_key_of(site.app().log_signing_key);
  const auto before = client.Get("/transparency");
  REQUIRE(before->status == 200);
  CHECK(before->body.find("has not signed a checkpoint yet") != std::string::npos);
  CHECK(before->body.find(public_key) != std::string::npos);

  // A checkpoint signed before the first vote says it covers none, not "0 entries".
  site.store().make_checkpoint(site.app().log_signing_key, 1'790'000'000);
  const auto empty = client.Get("/transparency");
  REQUIRE(empty->status == 200);
  CHECK(test::visible_text(empty->body)
            .find("Entries it covers None: it was signed before the "
                  "first vote") != std::string::npos);
  CHECK(empty->body.find("<dd>0 entries</dd>") == std::string::npos);

  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship", std::string(32, 'e'))
              ->status == 303);
  const auto checkpoint = site.store().make_checkpoint(site.app().log_signing_key, 1'800'000'000);
  const auto after = client.Get("/transparency");
  REQUIRE(after->status == 200);
  CHECK(after->body.find("has not signed a checkpoint yet") == std::string::npos);
  CHECK(after->body.find(merkle::hex(checkpoint.root)) != std::string::npos);
  CHECK(after->body.find(checkpoint.signature) != std::string::npos);
  CHECK(after->body.find("2027-01-15 08:00 UTC") != std::string::npos); // 1,800,000,000 s
  CHECK(after->body.find("1 entry") != std::string::npos);
  CHECK(after->body.find(public_key) != std::string::npos);
  CHECK(after->body.find("href=\"/transparency/checkpoint\"") != std::string::npos);
}

namespace {

std::string receipts_of(httplib::Client &client, const std::string &voter) {
  httplib::Headers headers;
  if (!voter.empty()) headers.emplace("Cookie", "verdict_voter=" + voter);
  const auto res = client.Get("/receipts", headers);
  REQUIRE(res);
  REQUIRE(res->status == 200);
  CHECK(res->get_header_value("Cache-Control") == "private, no-cache");
  return res->body;
}

// Every capture of `pattern`'s first group in `html`, in order.
std::vector<std::string> all_of(const std::string &html, const std::string &pattern) {
  std::vector<std::string> found;
  const std::regex expression(pattern);
  for (auto it = std::sregex_iterator(html.begin(), html.end(), expression);
       it != std::sregex_iterator(); ++it)
    found.push_back((*it)[1]);
  return found;
}

} // namespace

TEST_CASE("receipts: a voter's receipts show each current vote's log entry and hash, and once "
          "signed, a proof of its inclusion that holds against the checkpoint") {
  test::SiteServer site;
  auto client = site.client();
  std::string voter;
  const auto cast = [&](const std::string &path, const std::string &form) {
    const auto res = test::post_form(client, path, form, voter);
    REQUIRE(res->status == 303);
    if (voter.empty()) voter = test::cookie_from(res);
  };
  cast("/tools/codestral-2-1/vote", "verdict=ship");
  cast("/tools/codestral-2-1/vote", "verdict=skip"); // changed: the receipt is the change
  cast("/tools/code-llama-4/vote", "verdict=ship");
  cast("/tools/code-llama-4/vote", "verdict=withdraw"); // withdrawn: no receipt
  cast("/compare/cursor-background-agent-vs-codestral-2-1/vote", "pick=b");
  const auto other = test::post_form(client, "/tools/cursor-background-agent/vote", "verdict=ship");
  REQUIRE(other->status == 303);

  // The voter's own tool page links the receipts from their vote.
  const auto tool_page = client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + voter}});
  CHECK(tool_page->body.find("href=\"/receipts\"") != std::string::npos);
  CHECK(client.Get("/tools/codestral-2-1")->body.find("href=\"/receipts\"") == std::string::npos);

  // Before a checkpoint: the entries, no proof yet.
  auto page = receipts_of(client, voter);
  CHECK(all_of(page, "<h2><a href=\"[^\"]+\">([^<]+)</a></h2>") ==
        std::vector<std::string>{"Cursor Background Agent vs Codestral 2.1", "Codestral 2.1"});
  CHECK(page.find("It will be in the next checkpoint") != std::string::npos);
  CHECK(page.find("<dd>Codestral 2.1</dd>") != std::string::npos); // the pick of b
  CHECK(page.find("<dd>Skip</dd>") != std::string::npos);
  CHECK(page.find("<dd>Ship</dd>") == std::string::npos);

  const auto checkpoint = site.store().make_checkpoint(site.app().log_signing_key, unix_now());
  page = receipts_of(client, voter);
  const auto leaves = all_of(page, "<dt>Log entry</dt><dd>([0-9]+)</dd>");
  const auto hashes = all_of(page, "<dt>Entry hash</dt><dd><code class=\"hash\">([0-9a-f]{64})");
  const auto proofs = all_of(page, "<a href=\"(/transparency/proof\\?leaf=[0-9]+&amp;size=[0-9]+)");
  REQUIRE(leaves.size() == 2);
  REQUIRE(hashes.size() == 2);
  REQUIRE(proofs.size() == 2);
  for (size_t i = 0; i < leaves.size(); ++i) {
    const auto leaf = std::stoull(leaves[i]);
    // The hash is the log's entry's, and the entry is this voter's latest on the target.
    const auto logged = site.store().vote_log(leaf, 1).front();
    CHECK(merkle::hex(merkle::leaf_hash(logged.entry)) == hashes[i]);
    const auto proof_res = client.Get(test::decode_entities(proofs[i]));
    REQUIRE(proof_res->status == 200);
    const auto proof = json::parse(proof_res->body);
    std::vector<merkle::Hash> path;
    for (const auto &hex : proof["path"])
      path.push_back(*merkle::from_hex(hex.get<std::string>()));
    CHECK(merkle::inclusion_holds(leaf, checkpoint.size, *merkle::from_hex(hashes[i]), path,
                                  checkpoint.root));
  }
  CHECK(json::parse(site.store().vote_log(std::stoull(leaves[1]), 1).front().entry)["choice"] ==
        "skip");

  // Another reader sees only their own; a reader with no votes is told so.
  const auto others = receipts_of(client, test::cookie_from(other));
  CHECK(all_of(others, "<h2><a href=\"[^\"]+\">([^<]+)</a></h2>") ==
        std::vector<std::string>{"Cursor Background Agent"});
  CHECK(receipts_of(client, "").find("No votes from this browser yet") != std::string::npos);
}

TEST_CASE("checkpoint feed: every signed checkpoint is an Atom entry, newest first, carrying its "
          "signed text, signature and key, and /transparency links it") {
  test::SiteServer site;
  auto client = site.client();
  auto &store = site.store();
  const auto &key = site.app().log_signing_key;
  test::cast_tool_vote(store, test::ballot_of(test::kVoter1),
                       store.tool_by_slug("codestral-2-1")->id, Verdict::ship);
  const auto first = store.make_checkpoint(key, 1795500000);
  test::cast_tool_vote(store, test::ballot_of(test::kVoter2),
                       store.tool_by_slug("codestral-2-1")->id, Verdict::skip);
  const auto second = store.make_checkpoint(key, 1795586400);

  const auto feed = client.Get("/transparency/feed.xml");
  REQUIRE(feed->status == 200);
  CHECK(feed->get_header_value("Content-Type").starts_with("application/atom+xml"));
  const auto titles =
      all_of(feed->body, "<entry>\\s*<id>[^<]*</id>\\s*<title type=\"text\">([^<]+)");
  const auto times = all_of(feed->body, "<published>([^<]+)</published>");
  REQUIRE(first.size == 1);
  REQUIRE(second.size == 2);
  CHECK(titles == std::vector<std::string>{"Checkpoint: 2 entries", "Checkpoint: 1 entry"});
  CHECK(times == std::vector<std::string>{"2026-11-25T06:00:00Z", "2026-11-24T06:00:00Z"});
  CHECK(feed->body.find(second.signature) != std::string::npos);
  CHECK(feed->body.find(merkle::hex(first.root)) != std::string::npos);
  CHECK(feed->body.find(auth::public_key_of(key)) != std::string::npos);
  CHECK(auth::signature_holds(auth::public_key_of(key), checkpoint_text(second), second.signature));

  CHECK(client.Get("/transparency")
            ->body.find("type=\"application/atom+xml\" title=\"Vote log checkpoints\"") !=
        std::string::npos);
}

TEST_CASE("vote log: entries and proofs are cacheable — a proof and a full page of the log for "
          "good, the last page with its ETag — and an unchanged answer is a 304") {
  test::SiteServer site;
  auto &store = site.store();
  const auto tool = store.tool_by_slug("codestral-2-1")->id;
  // A thousand and one entries: one full page of the log and one more.
  for (int i = 0; i < 1001; ++i) {
    const auto n = std::to_string(i);
    test::cast_tool_vote(store, test::ballot_of(std::string(32 - n.size(), 'e') + n), tool,
                         Verdict::ship);
  }
  store.make_checkpoint(site.app().log_signing_key, 1'800'000'000);
  auto client = site.client();
  const std::string forever = "public, max-age=31536000, immutable";
  const auto full = client.Get("/transparency/log?from=0");
  CHECK(full->get_header_value("Cache-Control") == forever);
  const auto last = client.Get("/transparency/log?from=1000");
  CHECK(last->get_header_value("Cache-Control") == "public, no-cache");
  CHECK(client.Get("/transparency/proof?leaf=7&size=1001")->get_header_value("Cache-Control") ==
        forever);
  CHECK(client.Get("/transparency/proof?from=9&size=1001")->get_header_value("Cache-Control") ==
        forever);
  CHECK(client.Get("/transparency/proof?from=9&size=2000")->get_header_value("Cache-Control") !=
        forever);
  const auto again = client.Get("/transparency/log?from=1000",
                                {{"If-None-Match", last->get_header_value("ETag")}});
  CHECK(again->status == 304);
  CHECK(again->body.empty());
  CHECK(
      client.Get("/transparency/log?from=999", {{"If-None-Match", last->get_header_value("ETag")}})
          ->status == 200);
}
