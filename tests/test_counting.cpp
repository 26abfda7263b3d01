// One reader, one vote: the attacks on the community numbers, played over HTTP against the
// real route table, and the counting rule (domain/counting.h) on its own. Every vote cast is
// stored; only what the rule counts moves a number; what it sets aside is shown with why.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "auth/vote_tokens.h"
#include "domain/counting.h"
#include "domain/numbers.h"
#include "render/mail.h"
#include "server_process.h"
#include "test_support.h"

using namespace verdict;

namespace {

const std::string kPairVote = test::kBundledComparison + "/vote";
const std::string kToolVote = "/tools/codestral-2-1/vote";

nlohmann::json api(httplib::Client &client, const std::string &path) {
  const auto res = client.Get(path.c_str());
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return nlohmann::json::parse(res->body);
}

// A vote as a script sends it from one address, with the page's token but no cookie: every
// request a new "reader". Returns the status.
int scripted_vote(httplib::Client &client, const std::string &path, const std::string &body,
                  const std::string &from) {
  const auto res = test::post_form(client, path, body, "", from);
  REQUIRE(res);
  return res->status;
}

std::string text_of(httplib::Client &client, const std::string &path) {
  const auto res = client.Get(path.c_str());
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return test::visible_text(res->body);
}

} // namespace

TEST_CASE("counting: a network is an IPv4 /24 or an IPv6 /48, IPv4 written as IPv6 included") {
  CHECK(network_of("203.0.113.9") == "203.0.113.0/24");
  CHECK(network_of("203.0.113.250") == network_of("203.0.113.1"));
  CHECK(network_of("203.0.114.1") != network_of("203.0.113.1"));
  CHECK(network_of("::ffff:203.0.113.77") == "203.0.113.0/24");
  CHECK(network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1::/48");
  CHECK(network_of("2001:db8:1:ffff::1") == network_of("2001:db8:1::9"));
  CHECK(network_of("[2001:db8:1::9]") == "2001:db8:1::/48");
  CHECK(network_of("2001:db8:2::1") != network_of("2001:db8:1::1"));
  CHECK(network_of("not an address") == "other:not an address");
}

TEST_CASE("counting: an IPv6 address that carries an IPv4 one (6to4, Teredo, NAT64, the "
          "deprecated compatible form) is that IPv4 address's network, and wider network") {
  // 6to4: 2002:c000:0207::/48 is 192.0.2.7's, whatever follows.
  CHECK(network_of("2002:c000:0207::1") == "192.0.2.0/24");
  CHECK(network_of("2002:c000:02fe:1234::9") == "192.0.2.0/24");
  CHECK(wider_network_of("2002:c000:0207::1") == "192.0.0.0/16");
  // Teredo: the client's address inverted in the last 32 bits (3fff:fdd2 is 192.0.2.45).
  CHECK(network_of("2001:0:4136:e378:8000:63bf:3fff:fdd2") == "192.0.2.0/24");
  // NAT64's well-known prefix, and ::a.b.c.d.
  CHECK(network_of("64:ff9b::192.0.2.33") == "192.0.2.0/24");
  CHECK(network_of("::192.0.2.33") == "192.0.2.0/24");
  // Not IPv4 carried: loopback, another 2001: network, another 64:ff9b network.
  CHECK(network_of("::1") == "::/48");
  CHECK(network_of("2001:db8::1") == "2001:db8::/48");
  CHECK(network_of("64:ff9b:1::1") == "64:ff9b:1::/48");
}

TEST_CASE("counting: sixteen 6to4 networks of one IPv4 /24 count as that /24: three counted on "
          "a target, the rest set aside") {
  test::SiteServer site;
  auto client = site.client();
  const auto before = api(client, "/api/tools/codestral-2-1");
  // The 6to4 /48s of 192.0.2.7 to 192.0.2.22: sixteen IPv6 networks, one IPv4 /24.
  for (int i = 0; i < 16; ++i) {
    char address[64];
    std::snprintf(address, sizeof address, "2002:c000:02%02x:%x::7", 7 + i, i);
    CHECK(scripted_vote(client, kToolVote, "verdict=ship", address) == 303);
  }
  const auto after = api(client, "/api/tools/codestral-2-1");
  CHECK(after["community"]["votes"].get<int64_t>() - before["community"]["votes"].get<int64_t>() ==
        kCountedVotersPerNetwork);
  CHECK(after["set_aside"]["total"].get<int64_t>() - before["set_aside"]["total"].get<int64_t>() ==
        16 - kCountedVotersPerNetwork);
}

TEST_CASE("counting: the rule counts the first readers of a network, keeps them, and sets aside "
          "the rest and the too quick") {
  const auto enough = kSecondsToReadAPage;
  const auto around = [](int64_t network, int64_t wider, bool among) {
    return CountedAround{network, wider, among};
  };
  CHECK(judge_vote(enough - 1, around(0, 0, false)) == SetAsideReason::too_fast);
  CHECK(judge_vote(enough - 1, around(0, 0, true)) == SetAsideReason::too_fast);
  CHECK_FALSE(judge_vote(enough, around(0, 0, false)).has_value());
  CHECK_FALSE(judge_vote(enough, around(kCountedVotersPerNetwork - 1, 0, false)).has_value());
  CHECK(judge_vote(enough, around(kCountedVotersPerNetwork, 0, false)) == SetAsideReason::network);
  CHECK_FALSE(judge_vote(enough, around(kCountedVotersPerNetwork, 0, true)).has_value());
  // The wider network's quota holds though the network has room.
  CHECK_FALSE(judge_vote(enough, around(0, kCountedVotersPerWiderNetwork - 1, false)).has_value());
  CHECK(judge_vote(enough, around(0, kCountedVotersPerWiderNetwork, false)) ==
        SetAsideReason::network);
  CHECK_FALSE(judge_vote(enough, around(2, kCountedVotersPerWiderNetwork, true)).has_value());
  CHECK(set_aside_phrase({}, 5).empty());
  CHECK(set_aside_phrase({12, 0}, 37) == "49 cast, 12 set aside: too many from one network");
  CHECK(set_aside_phrase({2, 1}, 4) ==
        "7 cast, 3 set aside: 2 too many from one network; 1 sent less than 2 "
        "seconds after the page was loaded");
}

TEST_CASE("counting: a network's places are a ceiling: however many months pass, three of its "
          "readers stand counted on a target, a change keeps its place, and a withdrawal lets the "
          "oldest waiting vote in") {
  auto store = test::seeded_store();
  const auto tool = store->tool_by_slug("codestral-2-1")->id;
  const auto standing = [&] { return *store->tool_by_slug("codestral-2-1"); };
  const auto before = standing().community.total;
  const auto voter = [](const std::string &name) {
    return name + std::string(32 - name.size(), 'v');
  };
  const auto vote = [&](const std::string &name, const std::string &day,
                        std::optional<Verdict> verdict) {
    auto ballot = test::ballot_of(voter(name), "office", day);
    ballot.wider = "provider";
    return test::cast_tool_vote(*store, ballot, tool, verdict);
  };
  for (const auto *name : {"a", "b", "c"})
    CHECK_FALSE(vote(name, "2026-01-01", Verdict::ship).has_value());
  // Four rounds, each 31 days after the last: every new reader of the office is set aside.
  const std::vector<std::string> rounds{"2026-01-20", "2026-02-20", "2026-03-23", "2026-04-23"};
  for (size_t round = 0; round < rounds.size(); ++round) {
    INFO("round " << round);
    CHECK(vote("new" + std::to_string(round), rounds[round], Verdict::ship) ==
          SetAsideReason::network);
    // And a reader set aside before, sending their vote again: still waiting.
    if (round > 0)
      CHECK(vote("new" + std::to_string(round - 1), rounds[round], Verdict::ship) ==
            SetAsideReason::network);
    CHECK(standing().community.total == before + 3);
  }
  // A counted reader changing their mind months later keeps their place.
  CHECK_FALSE(vote("a", "2026-05-30", Verdict::skip).has_value());
  // b sends their vote again unchanged: it stands as it is.
  CHECK_FALSE(vote("b", "2026-05-30", Verdict::ship).has_value());
  CHECK(standing().community.total == before + 3);
  CHECK(standing().community_set_aside.network == 4);
  // c withdraws: the oldest waiting vote (new0's) takes the place, without being sent again.
  CHECK_FALSE(vote("c", "2026-06-01", std::nullopt).has_value());
  const auto after = standing();
  CHECK(after.community.total == before + 3); // a, b and new0
  CHECK(after.community_set_aside.network == 3);
  const auto choices = store->voter_choices_on_tool(voter("new0"), tool);
  CHECK(choices.on_a == Verdict::ship);
  CHECK_FALSE(choices.on_a_standing.has_value());
  CHECK(store->voter_choices_on_tool(voter("new1"), tool).on_a_standing == SetAsideReason::network);
  // The log says so: new0's vote entered again, counted, in the place c's vote held.
  const auto logged = store->vote_log(0, 100);
  REQUIRE(logged.size() >= 2);
  const auto withdrawn = nlohmann::json::parse(logged[logged.size() - 2].entry);
  const auto counted_in = nlohmann::json::parse(logged.back().entry);
  CHECK(withdrawn["event"] == "withdrawn");
  CHECK(counted_in["event"] == "changed");
  CHECK(counted_in["set_aside"].is_null());
  CHECK(counted_in["place"] == withdrawn["place"]);
}

TEST_CASE("counting: a wider network's twelve places are a ceiling too, and a place freed in it "
          "goes to its oldest waiting vote that fits") {
  auto store = test::seeded_store();
  const auto tool = store->tool_by_slug("codestral-2-1")->id;
  const auto standing = [&] { return *store->tool_by_slug("codestral-2-1"); };
  const auto before = standing().community.total;
  const auto voter = [](int network) {
    return std::to_string(1000 + network) + std::string(28, 'w');
  };
  const auto vote = [&](int network, const std::string &day, std::optional<Verdict> verdict) {
    auto ballot = test::ballot_of(voter(network), "net" + std::to_string(network), day);
    ballot.wider = "provider";
    return test::cast_tool_vote(*store, ballot, tool, verdict);
  };
  // One reader from each of twelve networks: counted; a thirteenth network's, set aside, and
  // a fourteenth's sixty days on too.
  for (int network = 0; network < kCountedVotersPerWiderNetwork; ++network)
    CHECK_FALSE(vote(network, "2026-01-01", Verdict::ship).has_value());
  CHECK(vote(12, "2026-01-02", Verdict::ship) == SetAsideReason::network);
  CHECK(vote(13, "2026-03-02", Verdict::ship) == SetAsideReason::network);
  CHECK(standing().community.total == before + kCountedVotersPerWiderNetwork);
  // One of the twelve withdraws: network 12's reader, the oldest waiting, is counted.
  CHECK_FALSE(vote(3, "2026-03-03", std::nullopt).has_value());
  CHECK(standing().community.total == before + kCountedVotersPerWiderNetwork);
  CHECK(standing().community_set_aside.network == 1);
  CHECK_FALSE(store->voter_choices_on_tool(voter(12), tool).on_a_standing.has_value());
  CHECK(store->voter_choices_on_tool(voter(13), tool).on_a_standing == SetAsideReason::network);
}

TEST_CASE("counting: rotating through the /24s of one /16, or the /48s of one /32, counts no more "
          "than the wider network's twelve on a target, and a network elsewhere still counts") {
  test::SiteServer site;
  auto client = site.client();
  const auto before = api(client, "/api/tools/codestral-2-1");
  const int64_t over = 4;
  // One reader from each of sixteen /24s of one /16 (a cloud provider's block), then of
  // sixteen /48s of one /32.
  for (int64_t i = 0; i < kCountedVotersPerWiderNetwork + over; ++i)
    CHECK(scripted_vote(client, kToolVote, "verdict=ship", "198.18." + std::to_string(i) + ".7") ==
          303);
  for (int64_t i = 0; i < kCountedVotersPerWiderNetwork + over; ++i)
    CHECK(scripted_vote(client, kToolVote, "verdict=ship",
                        "2001:db8:" + std::to_string(i + 1) + "::7") == 303);
  CHECK(scripted_vote(client, kToolVote, "verdict=ship", "192.0.2.7") == 303);
  const auto after = api(client, "/api/tools/codestral-2-1");
  CHECK(after["community"]["votes"].get<int64_t>() - before["community"]["votes"].get<int64_t>() ==
        2 * kCountedVotersPerWiderNetwork + 1);
  CHECK(after["set_aside"]["total"].get<int64_t>() - before["set_aside"]["total"].get<int64_t>() ==
        2 * over);
}

TEST_CASE("counting: a vote token is bound to its target and its page's time") {
  const std::string key(64, 'a');
  const auto target = auth::tool_vote_target(7);
  const auto token = auth::vote_token(key, target, 1000);
  CHECK_FALSE(auth::check_vote_token(key, token, target, 1005).fault.has_value());
  CHECK(auth::check_vote_token(key, token, target, 1005).seconds_on_page == 5);
  CHECK(auth::check_vote_token(key, token, auth::tool_vote_target(8), 1005).fault ==
        auth::VoteTokenFault::not_for_this);
  CHECK(auth::check_vote_token(std::string(64, 'b'), token, target, 1005).fault ==
        auth::VoteTokenFault::not_for_this);
  CHECK(auth::check_vote_token(key, "", target, 1005).fault == auth::VoteTokenFault::missing);
  CHECK(auth::check_vote_token(key, token, target, 1000 + kVotePageLifetimeSeconds + 1).fault ==
        auth::VoteTokenFault::expired);
  CHECK(auth::check_vote_token(key, token, target, 999).fault == auth::VoteTokenFault::from_future);
  // Another time under the same MAC is another token.
  auto moved = token;
  moved.replace(0, 4, "1001");
  CHECK(auth::check_vote_token(key, moved, target, 1005).fault ==
        auth::VoteTokenFault::not_for_this);
  CHECK(auth::pair_vote_target(3, 7) == auth::pair_vote_target(7, 3));
}

TEST_CASE("counting: forty cookie-less votes from one address add three counted votes, store all "
          "forty and say why the rest are set aside") {
  test::SiteServer site;
  auto client = site.client();
  for (int i = 0; i < 40; ++i)
    REQUIRE(scripted_vote(client, kPairVote, "pick=b", "198.51.100.23") == 303);
  const auto pair = api(client, "/api/compare/" + test::kBundledPair);
  CHECK(pair["picks"]["b"] == kCountedVotersPerNetwork);
  CHECK(pair["picks"]["total"] == kCountedVotersPerNetwork);
  CHECK(pair["cast"] == 40);
  CHECK(pair["set_aside"]["total"] == 37);
  CHECK(pair["set_aside"]["reasons"].at(0).at("reason") == "network");
  CHECK(pair["set_aside"]["reasons"].at(0).at("votes") == 37);
  const auto text = text_of(client, test::kBundledComparison);
  CHECK(text.find("3 readers have picked (40 cast, 37 set aside: too many from one network)") !=
        std::string::npos);
  // No interval makes three votes look certain: the fifth counted vote brings it, not the 40th.
  CHECK(text.find("100% · 3 votes · 95% interval") == std::string::npos);
  const auto metrics = client.Get("/metrics")->body;
  CHECK(metrics.find("verdict_pair_picks 3\n") != std::string::npos);
  CHECK(metrics.find("verdict_pair_picks_set_aside 37\n") != std::string::npos);
}

TEST_CASE("counting: rotating addresses inside one IPv4 /24, one IPv6 /64 or one /48 behind the "
          "trusted proxy adds no more counted votes") {
  test::SiteServer site; // takes 127.0.0.1 as its trusted proxy
  auto client = site.client();
  for (int i = 1; i <= 12; ++i) {
    REQUIRE(scripted_vote(client, "/tools/codestral-2-1/vote", "verdict=ship",
                          "203.0.113." + std::to_string(i)) == 303);
    REQUIRE(scripted_vote(client, "/tools/code-llama-4/vote", "verdict=ship",
                          "2001:db8:5:7::" + std::to_string(i)) == 303);
    REQUIRE(scripted_vote(client, "/tools/mistral-3-small/vote", "verdict=skip",
                          "2001:db8:5:" + std::to_string(i) + "::1") == 303);
  }
  for (const std::string slug : {"codestral-2-1", "code-llama-4", "mistral-3-small"}) {
    INFO(slug);
    const auto tool = api(client, "/api/tools/" + slug);
    CHECK(tool["community"]["votes"] == kCountedVotersPerNetwork);
    CHECK(tool["cast"] == 12);
    CHECK(tool["set_aside"]["total"] == 12 - kCountedVotersPerNetwork);
  }
}

TEST_CASE("counting: X-Forwarded-For entries that are not addresses (ports, names, garbage) "
          "behind the trusted proxy all come from the proxy's own network, never from networks "
          "of their own") {
  test::SiteServer site; // takes 127.0.0.1 as its trusted proxy
  auto client = site.client();
  for (int i = 1; i <= 20; ++i)
    for (const auto &forwarded :
         {"203.0.113.9:" + std::to_string(40000 + i), "[2001:db8::" + std::to_string(i) + "]",
          "reader-" + std::to_string(i) + ".example", "unknown" + std::string(i, '!')})
      REQUIRE(scripted_vote(client, "/tools/codestral-2-1/vote", "verdict=ship", forwarded) == 303);
  const auto tool = api(client, "/api/tools/codestral-2-1");
  CHECK(tool["cast"] == 80);
  CHECK(tool["community"]["votes"] == kCountedVotersPerNetwork);
}

TEST_CASE("counting: three hundred readers from three hundred networks, across many providers' "
          "blocks, are all counted") {
  test::SiteServer site;
  auto client = site.client();
  for (int i = 0; i < 300; ++i) {
    // Half on IPv4 networks (a /24 each, at most two in a /16), half on IPv6 /48s (one in
    // each /32).
    const auto address =
        i % 2 ? "2001:" + std::to_string(i + 1) + ":db8::1"
              : "10." + std::to_string(i % 256) + "." + std::to_string(i / 256) + ".1";
    REQUIRE(scripted_vote(client, kPairVote, i % 3 ? "pick=a" : "pick=b", address) == 303);
  }
  const auto pair = api(client, "/api/compare/" + test::kBundledPair);
  CHECK(pair["picks"]["total"] == 300);
  CHECK(pair["picks"]["b"] == 100);
  CHECK(pair["cast"] == 300);
  CHECK(pair["set_aside"]["total"] == 0);
  CHECK(text_of(client, test::kBundledComparison).find("set aside") == std::string::npos);
}

TEST_CASE("counting: a vote without its page's token, with another target's, or from a page "
          "over a day old is refused with a page that says so, and nothing is written") {
  std::atomic<int64_t> now{1795500000};
  test::SiteServer site(
      [&now](App &app) { app.clock = Clock::in_seconds([&now] { return now.load(); }); });
  auto client = site.client();
  const auto post = [&](const std::string &path, const std::string &body) {
    auto res = client.Post(path.c_str(), {{"Sec-Fetch-Site", "same-origin"}}, body,
                           "application/x-www-form-urlencoded");
    REQUIRE(res);
    return res;
  };
  const auto page = client.Get(test::kBundledComparison.c_str())->body;
  const auto tool_token = test::vote_token_in(page, kToolVote);
  const auto pair_token = test::vote_token_in(page, kPairVote);
  REQUIRE_FALSE(tool_token.empty());
  REQUIRE_FALSE(pair_token.empty());
  REQUIRE(tool_token != pair_token);
  now += 60;

  struct Case {
    std::string path, body, says;
  };
  const std::vector<Case> cases = {
      {kToolVote, "verdict=ship", "came without one"},
      {kToolVote, "verdict=ship&token=", "came without one"},
      {kToolVote, "verdict=ship&token=" + pair_token, "not made by this site for this vote"},
      {kPairVote, "pick=a&token=" + tool_token, "not made by this site for this vote"},
      {"/tools/code-llama-4/vote", "verdict=ship&token=" + tool_token, "not made by this site"},
      {kToolVote, "verdict=ship&token=1795500000.00000000000000000000000000000000", "not made"},
      {kToolVote, "verdict=ship&token=junk", "not made by this site"},
  };
  for (const auto &c : cases) {
    INFO(c.path << " " << c.body);
    const auto res = post(c.path, c.body);
    CHECK(res->status == 403);
    CHECK(test::visible_text(res->body).find(c.says) != std::string::npos);
    CHECK(res->body.find("Back to the page") != std::string::npos);
    CHECK_FALSE(res->has_header("Set-Cookie"));
  }
  now += kVotePageLifetimeSeconds; // the page is now over a day old
  const auto stale = post(kToolVote, "verdict=ship&token=" + tool_token);
  CHECK(stale->status == 403);
  CHECK(test::visible_text(stale->body).find("more than 24 hours ago") != std::string::npos);

  const auto tool = api(client, "/api/tools/codestral-2-1");
  CHECK(tool["cast"] == 0);
  CHECK(api(client, "/api/compare/" + test::kBundledPair)["cast"] == 0);
  CHECK(site.store().figures().tool_votes == 0);
}

TEST_CASE("counting: a vote sent faster than a person reads the page is stored, set aside and "
          "shown to its reader with why, and counts when sent again later") {
  std::atomic<int64_t> now{1795500000};
  test::SiteServer site(
      [&now](App &app) { app.clock = Clock::in_seconds([&now] { return now.load(); }); });
  auto client = site.client();
  const auto token = test::vote_token_in(client.Get("/tools/codestral-2-1")->body, kToolVote);
  now += kSecondsToReadAPage - 1;
  const auto quick =
      client.Post(kToolVote.c_str(), {{"Sec-Fetch-Site", "same-origin"}},
                  "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
  REQUIRE(quick->status == 303);
  const auto voter = test::cookie_from(quick);
  REQUIRE(voter.size() == 32);
  auto tool = api(client, "/api/tools/codestral-2-1");
  CHECK(tool["community"]["votes"] == 0);
  CHECK(tool["cast"] == 1);
  CHECK(tool["set_aside"]["reasons"].at(0).at("reason") == "too_fast");
  const auto own = client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + voter}});
  const auto own_text = test::visible_text(own->body);
  CHECK(own->body.find("aria-pressed=\"true\" aria-label=\"Ship Codestral 2.1\"") !=
        std::string::npos);
  CHECK(own_text.find("Your Ship vote is stored but not counted: sent less than 2 seconds after "
                      "the page was loaded.") != std::string::npos);
  CHECK(text_of(client, "/tools/codestral-2-1")
            .find("1 cast, 1 set aside: sent less than 2 seconds after the page was loaded") !=
        std::string::npos);

  CHECK(text_of(client, test::kBundledComparison)
            .find("No votes counted yet (1 cast, 1 set aside: sent less than 2 seconds") !=
        std::string::npos);

  now += 60;
  const auto again = client.Post(
      kToolVote.c_str(), {{"Sec-Fetch-Site", "same-origin"}, {"Cookie", "verdict_voter=" + voter}},
      "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
  REQUIRE(again->status == 303);
  tool = api(client, "/api/tools/codestral-2-1");
  CHECK(tool["community"]["votes"] == 1);
  CHECK(tool["cast"] == 1);
  CHECK(tool["set_aside"]["total"] == 0);
  const auto counted = client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + voter}});
  CHECK(test::visible_text(counted->body).find("stored but not counted") == std::string::npos);
}

TEST_CASE("counting: a reader counted in two networks of one wider network takes one of its "
          "places, not two") {
  test::SiteServer site;
  auto client = site.client();
  const auto before = api(client, "/api/tools/codestral-2-1");
  // One reader votes from one /24 of a /16, then changes their vote from another: counted in
  // both networks, one voter of the wider one.
  const auto first = test::post_form(client, kToolVote, "verdict=ship", "", "198.18.1.7");
  REQUIRE(first->status == 303);
  const auto reader = test::cookie_from(first);
  REQUIRE(test::post_form(client, kToolVote, "verdict=skip", reader, "198.18.2.7")->status == 303);
  // The wider network's other places, one reader from each further /24: every one counted.
  for (int64_t i = 0; i < kCountedVotersPerWiderNetwork - 1; ++i)
    CHECK(scripted_vote(client, kToolVote, "verdict=ship",
                        "198.18." + std::to_string(10 + i) + ".7") == 303);
  const auto full = api(client, "/api/tools/codestral-2-1");
  CHECK(full["community"]["votes"].get<int64_t>() - before["community"]["votes"].get<int64_t>() ==
        kCountedVotersPerWiderNetwork);
  CHECK(full["set_aside"]["total"] == before["set_aside"]["total"]);
  // And then it is full.
  CHECK(scripted_vote(client, kToolVote, "verdict=ship", "198.18.200.7") == 303);
  const auto after = api(client, "/api/tools/codestral-2-1");
  CHECK(after["community"]["votes"] == full["community"]["votes"]);
  CHECK(after["set_aside"]["total"].get<int64_t>() - full["set_aside"]["total"].get<int64_t>() ==
        1);
}

TEST_CASE("counting: a counted reader who changes their vote keeps their place, and a fourth "
          "reader of the network sees theirs set aside with why") {
  test::SiteServer site;
  auto client = site.client();
  const std::string office = "198.51.100.";
  std::vector<std::string> readers;
  for (int i = 1; i <= 4; ++i) {
    const auto res =
        test::post_form(client, kToolVote, "verdict=ship", "", office + std::to_string(i));
    REQUIRE(res->status == 303);
    readers.push_back(test::cookie_from(res));
  }
  // The first reader changes their mind: still counted, and the fourth is still set aside.
  REQUIRE(test::post_form(client, kToolVote, "verdict=skip", readers[0], office + "1")->status ==
          303);
  const auto tool = api(client, "/api/tools/codestral-2-1");
  CHECK(tool["community"]["votes"] == 3);
  CHECK(tool["community"]["ships"] == 2);
  CHECK(tool["set_aside"]["total"] == 1);
  const auto fourth =
      client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + readers[3]}})->body;
  CHECK(test::visible_text(fourth).find(
            "Your Ship vote is stored but not counted: too many from one network.") !=
        std::string::npos);
  const auto first =
      client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + readers[0]}})->body;
  CHECK(test::visible_text(first).find("stored but not counted") == std::string::npos);
}

TEST_CASE("counting: every page type, image, feed, API answer and the digest that shows a "
          "community number says how many were set aside and why") {
  test::SiteServer site;
  auto client = site.client();
  // Five readers from five networks, then a script from the first one's network: two more
  // of its votes are counted there (three a network), the other six set aside.
  for (int i = 1; i <= 5; ++i) {
    REQUIRE(scripted_vote(client, kToolVote, "verdict=ship", "10.20." + std::to_string(i) + ".1") ==
            303);
    REQUIRE(scripted_vote(client, kPairVote, "pick=b", "10.20." + std::to_string(i) + ".1") == 303);
  }
  for (int i = 0; i < 8; ++i) {
    REQUIRE(scripted_vote(client, kToolVote, "verdict=skip", "10.20.1.99") == 303);
    REQUIRE(scripted_vote(client, kPairVote, "pick=a", "10.20.1.99") == 303);
  }
  const std::string why = "13 cast, 6 set aside: too many from one network";
  const auto codestral = site.store().tool_by_slug("codestral-2-1");
  REQUIRE(codestral->community.total == 7);
  REQUIRE(codestral->community_set_aside.network == 6);

  for (const auto &path :
       std::vector<std::string>{"/", "/tools", "/tools/codestral-2-1", test::kBundledComparison,
                                "/categories/" + codestral->category.slug}) {
    INFO(path);
    CHECK(text_of(client, path).find(why) != std::string::npos);
  }
  // The comparison's glance, its head-to-head and the tool's card each say it.
  const auto comparison = text_of(client, test::kBundledComparison);
  CHECK(comparison.find("71% ship · 7 votes · " + interval_phrase(5, 7) + " (" + why + ")") !=
        std::string::npos);
  CHECK(comparison.find("7 readers have picked (" + why + ")") != std::string::npos);

  const auto body_of = [&](const std::string &path) {
    const auto res = client.Get(path.c_str());
    REQUIRE(res);
    REQUIRE(res->status == 200);
    return res->body;
  };
  CHECK(body_of(test::kBundledComparison + "/card.svg").find("6 set aside") != std::string::npos);
  CHECK(body_of(test::kBundledComparison + "/card.svg").find("too many from one network") !=
        std::string::npos);
  CHECK(body_of("/tools/codestral-2-1/badge.svg").find(why) != std::string::npos);
  CHECK(body_of(test::kBundledComparison + "/badge.svg").find(why) != std::string::npos);
  CHECK(body_of("/feed.xml").find(why) != std::string::npos);
  CHECK(body_of("/tools/codestral-2-1/feed.xml").find(why) != std::string::npos);

  const auto listed = api(client, "/api/tools");
  bool found = false;
  for (const auto &tool : listed["tools"])
    if (tool["slug"] == "codestral-2-1") {
      found = true;
      CHECK(tool["cast"] == 13);
      CHECK(tool["set_aside"]["reasons"].at(0).at("why") == "too many from one network");
    }
  CHECK(found);

  const auto detail = site.store().comparison_detail(test::kBundledPair);
  REQUIRE(detail);
  const auto mail =
      mail::digest(site.app().views, site.store().site_copy(), {DigestItem{1, detail->comparison}},
                   7, "https://verdict.example", "https://verdict.example/unsubscribe/1-x");
  CHECK(mail.text.find(why) != std::string::npos);
  CHECK(mail.html.find(why) != std::string::npos);
}

namespace {

// The verdict binary serving `db`, its clock `days` ahead, trusting 127.0.0.1 as its proxy.
std::unique_ptr<test::Server> server_days_ahead(const std::string &db, int days) {
  return test::server_with_clock(
      {"--db", db, "--port", "0", "--rate-limit", "0", "--trusted-proxy", "127.0.0.1"},
      "+" + std::to_string(days) + "d");
}

} // namespace

TEST_CASE(
    "counting: four months of one office's readers (libfaketime): its /24, and the 6to4 "
    "networks of its addresses, never stand counted more than three on a tool, and a withdrawal "
    "lets the oldest waiting vote in") {
  REQUIRE(std::filesystem::exists(test::kLibFaketime));
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  std::optional<int64_t> counted_before, set_aside_before;
  std::string first_reader; // the cookie of the office's first counted reader
  int reader = 0;
  for (int round = 0; round < 4; ++round) {
    INFO("round " << round << ", " << 31 * round << " days on");
    const auto server = server_days_ahead(db, 31 * round);
    httplib::Client client("127.0.0.1", server->port);
    client.set_read_timeout(30);
    const auto tool = api(client, "/api/tools/codestral-2-1");
    if (!counted_before) {
      counted_before = tool["community"]["votes"].get<int64_t>();
      set_aside_before = tool["set_aside"]["total"].get<int64_t>();
    }
    // Each round, three new readers from the office's /24 and two through 6to4 from its
    // addresses (2002:c633:64xx::/48 carries 198.51.100.xx): each reads the page, then votes.
    std::vector<std::pair<std::string, std::string>> readers; // address, form token
    for (int i = 0; i < 5; ++i, ++reader) {
      char address[64];
      if (i < 3)
        std::snprintf(address, sizeof address, "198.51.100.%d", reader + 1);
      else
        std::snprintf(address, sizeof address, "2002:c633:64%02x::1", reader + 1);
      const auto page = client.Get("/tools/codestral-2-1");
      REQUIRE(page);
      REQUIRE(page->status == 200);
      readers.emplace_back(address, test::vote_token_in(page->body, kToolVote));
      REQUIRE_FALSE(readers.back().second.empty());
    }
    // A person reads before voting (kSecondsToReadAPage): a vote sooner is set aside as too
    // fast, which this case is not about.
    std::this_thread::sleep_for(std::chrono::seconds(kSecondsToReadAPage) +
                                std::chrono::milliseconds(1100));
    for (const auto &[address, token] : readers) {
      const auto voted = client.Post(
          kToolVote.c_str(), {{"Sec-Fetch-Site", "same-origin"}, {"X-Forwarded-For", address}},
          "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
      REQUIRE(voted);
      CHECK(voted->status == 303);
      if (first_reader.empty()) first_reader = test::cookie_from(voted);
    }
    const auto after = api(client, "/api/tools/codestral-2-1");
    CHECK(after["community"]["votes"].get<int64_t>() == *counted_before + 3);
    CHECK(after["set_aside"]["total"].get<int64_t>() == *set_aside_before + 5 * (round + 1) - 3);
    if (round < 3) continue;
    // The office's first reader withdraws, four months on: the oldest waiting vote is counted
    // in their place, and the office still stands at three.
    const auto page =
        client.Get("/tools/codestral-2-1", {{"Cookie", "verdict_voter=" + first_reader}});
    REQUIRE(page);
    const auto token = test::vote_token_in(page->body, kToolVote);
    std::this_thread::sleep_for(std::chrono::seconds(kSecondsToReadAPage) +
                                std::chrono::milliseconds(1100));
    const auto withdrawn =
        client.Post(kToolVote.c_str(),
                    {{"Sec-Fetch-Site", "same-origin"},
                     {"X-Forwarded-For", "198.51.100.1"},
                     {"Cookie", "verdict_voter=" + first_reader}},
                    "verdict=withdraw&token=" + token, "application/x-www-form-urlencoded");
    REQUIRE(withdrawn);
    CHECK(withdrawn->status == 303);
    const auto last = api(client, "/api/tools/codestral-2-1");
    CHECK(last["community"]["votes"].get<int64_t>() == *counted_before + 3);
    CHECK(last["set_aside"]["total"].get<int64_t>() == *set_aside_before + 5 * 4 - 3 - 1);
  }
}
