// The published tallies (domain/tallies.h, /data/tallies.csv and .json): the vote log
// replayed per target per UTC day, and the last day's figures the same as the pages'.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <ctime>
#include <random>
#include <sstream>

#include "domain/tallies.h"
#include "test_support.h"

using namespace verdict;
using nlohmann::json;

namespace {

const VoteTarget kTool{false, 7, 7};
const VoteTarget kPairTarget{true, 3, 7};

VoteEvent event(const std::string &day, const VoteTarget &target, const std::string &voter,
                std::optional<bool> first, std::optional<SetAsideReason> set_aside = {}) {
  return {day, target, voter, first, set_aside, {}, {}};
}

struct Expected {
  std::string day;
  int64_t first, second, network, too_fast;
};

void check_days(const TargetTallies &tallies, const std::vector<Expected> &expected) {
  REQUIRE(tallies.days.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto &day = tallies.days[i];
    INFO(vote_target_code(tallies.target) << " on " << day.day);
    CHECK(day.day == expected[i].day);
    CHECK(day.first == expected[i].first);
    CHECK(day.second == expected[i].second);
    CHECK(day.set_aside.network == expected[i].network);
    CHECK(day.set_aside.too_fast == expected[i].too_fast);
    CHECK(day.cast() == day.first + day.second + day.set_aside.total());
  }
}

// A CSV line's fields, unquoted (the tallies' fields hold no comma, quote or line break).
std::vector<std::string> csv_fields(const std::string &line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');)
    fields.push_back(field.size() >= 2 && field.front() == '"' ? field.substr(1, field.size() - 2)
                                                               : field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

// The CSV's lines as header name -> field, the header line left out.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string &csv) {
  std::vector<std::map<std::string, std::string>> rows;
  std::stringstream in(csv);
  std::string line;
  std::getline(in, line);
  const auto header = csv_fields(line.substr(0, line.size() - 1));
  while (std::getline(in, line)) {
    REQUIRE(line.back() == '\r');
    const auto fields = csv_fields(line.substr(0, line.size() - 1));
    REQUIRE(fields.size() == header.size());
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size(); ++i)
      row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

std::string voter(int n) {
  auto id = std::to_string(n);
  return std::string(32 - id.size(), 'a') + id;
}

int64_t set_aside_for(const json &set_aside, const std::string &reason) {
  for (const auto &r : set_aside["reasons"])
    if (r["reason"] == reason) return r["votes"].get<int64_t>();
  return 0;
}

// The tallies the file keeps with each vote are the log's replay: the same targets, days
// and figures, row for row.
void check_kept_is_replay(Store &store) {
  TallyReplay replay;
  const auto entries = store.vote_events([&](const VoteEvent &event) { replay.add(event); });
  const auto replayed = std::move(replay).finish();
  const auto kept = store.tallies_by_day();
  CHECK(kept.log_entries == entries);
  REQUIRE(kept.targets.size() == replayed.size());
  for (size_t t = 0; t < replayed.size(); ++t) {
    INFO(vote_target_code(replayed[t].target));
    REQUIRE(kept.targets[t].target == replayed[t].target);
    REQUIRE(kept.targets[t].days.size() == replayed[t].days.size());
    for (size_t d = 0; d < replayed[t].days.size(); ++d) {
      const auto &want = replayed[t].days[d], &got = kept.targets[t].days[d];
      INFO(want.day);
      CHECK(got.day == want.day);
      CHECK(got.first == want.first);
      CHECK(got.second == want.second);
      CHECK(got.set_aside.network == want.set_aside.network);
      CHECK(got.set_aside.too_fast == want.set_aside.too_fast);
    }
  }
}

} // namespace

TEST_CASE("tallies: a target's row per day is its standing at the day's end — a voter's last "
          "entry is their vote, a withdrawn vote no longer stands, set-aside ones by reason") {
  TallyReplay replay;
  replay.add(event("2026-11-01", kTool, "v1", true));
  replay.add(event("2026-11-01", kTool, "v2", true));
  replay.add(event("2026-11-01", kTool, "v3", false, SetAsideReason::too_fast));
  replay.add(event("2026-11-01", kTool, "v2", false));        // changed the same day: only the last
  replay.add(event("2026-11-01", kPairTarget, "v1", false));  // a pick of the higher id
  replay.add(event("2026-11-02", kTool, "v1", std::nullopt)); // withdrawn
  replay.add(event("2026-11-02", kTool, "v3", true));         // sent again, counted now
  replay.add(event("2026-11-02", kTool, "v4", true, SetAsideReason::network));
  replay.add(
      event("2026-11-02", kTool, "v9", std::nullopt)); // withdrew nothing: a day all the same
  replay.add(event("2026-11-04", kPairTarget, "v2", true, SetAsideReason::network));
  replay.add(event("2026-11-04", kPairTarget, "v1", std::nullopt));
  const auto tallies = std::move(replay).finish();
  REQUIRE(tallies.size() == 2);
  CHECK(tallies[0].target == kTool); // tools first, then pairs
  check_days(tallies[0], {{"2026-11-01", 1, 1, 0, 1}, {"2026-11-02", 1, 1, 1, 0}});
  CHECK(tallies[1].target == kPairTarget);
  check_days(tallies[1], {{"2026-11-01", 0, 1, 0, 0}, {"2026-11-04", 0, 0, 1, 0}});
}

TEST_CASE("tallies: an entry dated before one already replayed on its target counts in the "
          "later day, so the last row is the standing after the whole log") {
  TallyReplay replay;
  replay.add(event("2026-11-03", kTool, "v1", true));
  replay.add(event("2026-11-01", kTool, "v2", true)); // a bulk load's older time
  replay.add(event("2026-11-04", kTool, "v3", false));
  const auto tallies = std::move(replay).finish();
  REQUIRE(tallies.size() == 1);
  check_days(tallies[0], {{"2026-11-03", 2, 0, 0, 0}, {"2026-11-04", 2, 1, 0, 0}});
}

TEST_CASE("tallies: targets read and written as the log names them") {
  CHECK(vote_target_from_code("tool:12") == VoteTarget{false, 12, 12});
  CHECK(vote_target_from_code("pair:3-17") == VoteTarget{true, 3, 17});
  CHECK(vote_target_code(VoteTarget{true, 3, 17}) == "pair:3-17");
  CHECK(vote_target_code(VoteTarget{false, 12, 12}) == "tool:12");
  for (const auto *bad :
       {"tool:", "tool:x", "tool:-1", "pair:7-3", "pair:3", "pair:3-3", "pair:3-4x", "vote:1", ""})
    CHECK_FALSE(vote_target_from_code(bad));
}

TEST_CASE("tallies: the open data names each tool by its slug of the moment, though the slugs "
          "are kept between files: a tool renamed, added or deleted since is named anew") {
  test::SiteServer site;
  auto &store = site.store();
  const auto id = store.tool_by_slug("codestral-2-1")->id;
  const auto first = store.tool_slugs();
  REQUIRE(first->find(id));
  CHECK(*first->find(id) == "codestral-2-1");
  CHECK(store.tool_slugs() == first); // nothing changed: the same slugs, not read again

  auto tool = *store.tool_content("codestral-2-1");
  tool.slug = "codestral-2-2";
  test::update_tool(store, "codestral-2-1", tool, test::kEditorEmail);
  const auto renamed = store.tool_slugs();
  REQUIRE(renamed->find(id));
  CHECK(*renamed->find(id) == "codestral-2-2");
  CHECK(*first->find(id) == "codestral-2-1"); // a file being made meanwhile keeps its own

  tool.slug = "a-new-tool";
  tool.name = "A new tool";
  test::create_tool(store, tool, test::kEditorEmail);
  const auto added = store.tool_by_slug("a-new-tool")->id;
  REQUIRE(store.tool_slugs()->find(added));
  CHECK(*store.tool_slugs()->find(added) == "a-new-tool");
  test::delete_tool(store, "a-new-tool", test::kEditorEmail);
  CHECK_FALSE(store.tool_slugs()->find(added));

  test::cast_tool_vote(store, test::ballot_of(voter(1)), id, Verdict::ship);
  const auto csv = site.client().Get("/data/tallies.csv");
  REQUIRE(csv);
  CHECK(csv->body.find("\"codestral-2-2\"") != std::string::npos);
  CHECK(csv->body.find("codestral-2-1") == std::string::npos);
}

TEST_CASE("tallies: /data/tallies.csv and .json replay the log into yesterday's and today's "
          "rows, and today's are the numbers /api/tools and /api/compare give") {
  test::SiteServer site;
  auto &store = site.store();
  const auto a = store.tool_by_slug("cursor-background-agent")->id;
  const auto b = store.tool_by_slug("codestral-2-1")->id;
  const auto low = std::min(a, b);
  const auto tool_code = "tool:" + std::to_string(b);
  const auto pair_code = "pair:" + std::to_string(low) + "-" + std::to_string(std::max(a, b));

  // Yesterday, loaded in bulk: two counted votes on the tool, one pick of a on the pair.
  const auto yesterday = static_cast<int64_t>(std::time(nullptr)) - 86400;
  VoteLoad load;
  for (int i = 1; i <= 3; ++i)
    load.voters.push_back(voter(i));
  load.tools = {"cursor-background-agent", "codestral-2-1"};
  load.tool_votes = {{0, 1, true, yesterday}, {1, 1, false, yesterday}};
  load.pair_picks = {{2, 0, 1, 0, yesterday}};
  store.load_votes(load);

  // Today: a change, a withdrawal, one too quick, four from one network (the fourth set aside).
  test::cast_tool_vote(store, test::ballot_of(voter(1)), b, Verdict::skip);
  test::cast_tool_vote(store, test::ballot_of(voter(2)), b, std::nullopt);
  auto quick = test::ballot_of(voter(4));
  quick.seconds_on_page = 0;
  REQUIRE(test::cast_tool_vote(store, quick, b, Verdict::ship) == SetAsideReason::too_fast);
  for (int i = 5; i <= 8; ++i)
    test::cast_tool_vote(store, test::ballot_of(voter(i), "office"), b, Verdict::ship);
  test::cast_pair_vote(store, test::ballot_of(voter(3)), a, b, b);
  test::cast_pair_vote(store, test::ballot_of(voter(9)), a, b, b);
  auto quick_pick = test::ballot_of(voter(10));
  quick_pick.seconds_on_page = 0;
  test::cast_pair_vote(store, quick_pick, a, b, a);

  auto client = site.client();
  const auto json_res = client.Get("/data/tallies.json");
  REQUIRE(json_res);
  REQUIRE(json_res->status == 200);
  CHECK(json_res->get_header_value("Content-Type") == "application/json; charset=utf-8");
  CHECK(json_res->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(json_res->get_header_value("Link") ==
        "<https://creativecommons.org/licenses/by/4.0/>; rel=\"license\"");
  const auto data = json::parse(json_res->body);
  CHECK(data["licence"] == "CC BY 4.0");
  CHECK(data["log_entries"] == store.vote_log_head().size);
  json tool_days, pair_days;
  for (const auto &target : data["targets"]) {
    if (target["target"] == tool_code) {
      CHECK(target["slug"] == "codestral-2-1");
      CHECK(target["url"] == "/tools/codestral-2-1");
      tool_days = target["days"];
    }
    if (target["target"] == pair_code) {
      const auto slug = low == a ? "cursor-background-agent-vs-codestral-2-1"
                                 : "codestral-2-1-vs-cursor-background-agent";
      CHECK(target["slug"] == slug);
      pair_days = target["days"];
    }
  }
  REQUIRE(tool_days.size() == 2);
  REQUIRE(pair_days.size() == 2);
  CHECK(tool_days[0]["day"] < tool_days[1]["day"]);
  CHECK(tool_days[0]["cast"] == 2);
  CHECK(tool_days[0]["ships"] == 1);
  CHECK(tool_days[0]["ship_percent"] == 50);
  CHECK(pair_days[0]["cast"] == 1);
  CHECK(pair_days[0][low == a ? "low_picks" : "high_picks"] == 1);

  // Today's rows are the API's numbers, which are the pages'.
  const auto tool = json::parse(client.Get("/api/tools/codestral-2-1")->body);
  const auto &today = tool_days[1];
  CHECK(today["cast"] == 6);
  CHECK(today["cast"] == tool["cast"]);
  CHECK(today["counted"] == tool["community"]["votes"]);
  CHECK(today["ships"] == tool["community"]["ships"]);
  CHECK(today["ship_percent"] == tool["community"]["percent"]);
  CHECK(today["set_aside"]["network"] == set_aside_for(tool["set_aside"], "network"));
  CHECK(today["set_aside"]["too_fast"] == set_aside_for(tool["set_aside"], "too_fast"));
  CHECK(today["set_aside"]["network"] == 1);

  const auto pair =
      json::parse(client.Get("/api/compare/cursor-background-agent-vs-codestral-2-1")->body);
  const auto &pair_today = pair_days[1];
  CHECK(pair_today["cast"] == 3);
  CHECK(pair_today["cast"] == pair["cast"]);
  CHECK(pair_today["counted"] == pair["picks"]["total"]);
  CHECK(pair_today[low == a ? "low_picks" : "high_picks"] == pair["picks"]["a"]);
  CHECK(pair_today[low == a ? "high_picks" : "low_picks"] == pair["picks"]["b"]);
  CHECK(pair_today["set_aside"]["too_fast"] == set_aside_for(pair["set_aside"], "too_fast"));

  // The CSV says the same, line for line.
  const auto csv_res = client.Get("/data/tallies.csv");
  REQUIRE(csv_res->status == 200);
  CHECK(csv_res->get_header_value("Content-Type") == "text/csv; charset=utf-8");
  CHECK(csv_res->get_header_value("Link") == json_res->get_header_value("Link"));
  size_t lines = 0;
  for (const auto &row : csv_rows(csv_res->body)) {
    const auto &days = row.at("target") == tool_code   ? tool_days
                       : row.at("target") == pair_code ? pair_days
                                                       : json();
    if (days.is_null()) continue;
    const auto &day = days[row.at("day") == days[0]["day"] ? 0 : 1];
    INFO(row.at("target") << " " << row.at("day"));
    CHECK(row.at("day") == day["day"]);
    CHECK(row.at("cast") == day["cast"].dump());
    CHECK(row.at("counted") == day["counted"].dump());
    CHECK(row.at("set_aside_network") == day["set_aside"]["network"].dump());
    CHECK(row.at("set_aside_too_fast") == day["set_aside"]["too_fast"].dump());
    if (row.at("target") == tool_code) {
      CHECK(row.at("slug") == "codestral-2-1");
      CHECK(row.at("ships") == day["ships"].dump());
      CHECK(row.at("ship_percent") == day["ship_percent"].dump());
      CHECK(row.at("low_picks").empty());
    } else {
      CHECK(row.at("low_picks") == day["low_picks"].dump());
      CHECK(row.at("high_picks") == day["high_picks"].dump());
      CHECK(row.at("ships").empty());
    }
    ++lines;
  }
  CHECK(lines == 4);

  // Kept and answered like the API: an ETag answers 304.
  const auto again =
      client.Get("/data/tallies.csv", {{"If-None-Match", csv_res->get_header_value("ETag")}});
  CHECK(again->status == 304);
}

TEST_CASE("tallies: the figures kept per day with each vote are the log's replay, row for row: "
          "casts, changes, set-asides and withdrawals over days, a bulk load dated before them, "
          "and a tool deleted with its votes") {
  test::TempDir dir;
  Store store((dir.path / "site.db").string());
  test::import_content(store, test::seeded_store()->export_content());
  std::vector<int64_t> tools;
  for (const auto &tool : store.tools_by_name())
    tools.push_back(tool.id);
  REQUIRE(tools.size() >= 3);
  std::mt19937 random(20261127);
  const auto pick = [&random](size_t n) { return static_cast<size_t>(random() % n); };
  const int64_t first_day = 1767268800; // 2026-01-01T12:00:00Z
  uint64_t sequence = 0;
  for (int day = 0; day < 6; ++day) {
    const auto date = "2026-01-0" + std::to_string(day + 1);
    for (int i = 0; i < 40; ++i) {
      // Each write taken at its own time of that day (the stream's time), as a node applies it.
      const WriteContext taken{(first_day + day * 86400 + i) * 1000, date};
      auto ballot = test::ballot_of(voter(static_cast<int>(pick(12))),
                                    std::string("network ") + std::to_string(pick(3)), date);
      if (pick(8) == 0) ballot.seconds_on_page = 0; // too fast: stored and set aside
      const auto first = pick(3);
      const auto a = tools[first], b = tools[(first + 1 + pick(2)) % 3];
      const bool withdraw = pick(6) == 0;
      const auto write =
          pick(2) == 0
              ? Write(CastToolVote{ballot, a,
                                   withdraw
                                       ? std::nullopt
                                       : std::optional(pick(2) ? Verdict::ship : Verdict::skip)})
              : Write(CastPairVote{ballot, a, b,
                                   withdraw ? std::nullopt : std::optional(pick(2) ? a : b)});
      REQUIRE(test::apply_entry_now(store, ++sequence, {{write, taken}}).entry.done());
    }
  }
  // Loaded afterwards but dated before: counted in each target's latest day, as replayed.
  VoteLoad load;
  load.voters = {voter(50), voter(51)};
  load.tools = {store.tools_by_name().at(0).slug, store.tools_by_name().at(1).slug};
  load.tool_votes = {{0, 0, true, first_day}, {1, 1, false, first_day}};
  load.pair_picks = {{0, 0, 1, 1, first_day}};
  store.load_votes(load);
  check_kept_is_replay(store);
  // A tool deleted: its votes withdrawn, today, on its targets' rows.
  test::delete_tool(store, store.tools_by_name().at(2).slug, test::kEditorEmail);
  check_kept_is_replay(store);
  const auto kept = store.tallies_by_day();
  size_t days = 0;
  for (const auto &target : kept.targets)
    days += target.days.size();
  CHECK(days > 12); // several targets over several days
}

TEST_CASE("tallies: a site from before the tallies were kept per day has them made from its "
          "log when it is upgraded") {
  test::TempDir dir;
  const auto path = test::write_version_1_site(
      dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
           "INSERT INTO tools (slug, name, category_id, tagline, description, entry) VALUES "
           "('one', 'One', 1, 't', 'd', 'Free'), ('two', 'Two', 1, 't', 'd', 'Free');"
           "INSERT INTO tool_votes (voter, tool_id, verdict, cast_at) VALUES ('" +
               voter(1) + "', 2, 'skip', '2026-01-02T00:00:00Z'), ('" + voter(2) +
               "', 2, 'ship', '2026-01-03T00:00:00Z'), ('" + voter(2) +
               "', 1, 'ship', '2026-01-01T00:00:00Z');"
               "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id, "
               "cast_at) VALUES ('" +
               voter(1) + "', 1, 2, 2, '2026-01-01T00:00:00Z');");
  Store store(path);
  check_kept_is_replay(store);
  const auto kept = store.tallies_by_day();
  REQUIRE(kept.targets.size() == 3);
  REQUIRE(kept.targets[1].target == tool_target(2));
  check_days(kept.targets[1], {{"2026-01-02", 0, 1, 0, 0}, {"2026-01-03", 1, 1, 0, 0}});
  // And kept from there with each vote.
  test::cast_tool_vote(store, test::ballot_of(voter(3)), 2, Verdict::ship);
  check_kept_is_replay(store);
  CHECK(store.tallies_by_day().targets[1].days.back().first == 2);
}
