// The verdict at a glance: each row of domain/glance.h's table, and the lens-by-lens lines.
#include <catch2/catch.hpp>

#include "domain/glance.h"
#include "test_support.h"

using namespace verdict;

namespace {

Comparison pair_with(ShipTally panel_a, ShipTally panel_b, ShipTally readers_a,
                     ShipTally readers_b) {
  Comparison c;
  c.a.name = "Alpha";
  c.b.name = "Beta";
  c.a.panel = panel_a;
  c.b.panel = panel_b;
  c.a.community = readers_a;
  c.b.community = readers_b;
  return c;
}

Review review(const char *reviewer, const char *lens, Verdict verdict) {
  Review r;
  r.reviewer_slug = reviewer;
  r.reviewer_name = reviewer;
  r.reviewer_lens = lens;
  r.verdict = verdict;
  return r;
}

std::string statement(ShipTally pa, ShipTally pb, ShipTally ra, ShipTally rb) {
  return glance_of(pair_with(pa, pb, ra, rb), {}, {}).statement;
}

} // namespace

TEST_CASE("glance: the panel and readers agree, disagree, or are level") {
  CHECK(statement({3, 4}, {1, 4}, {8, 10}, {2, 10}) == "The panel and readers agree: Alpha.");
  CHECK(statement({3, 4}, {1, 4}, {2, 10}, {8, 10}) ==
        "The panel and readers disagree: the panel favours Alpha, readers favour Beta.");
  CHECK(statement({3, 4}, {1, 4}, {5, 10}, {5, 10}) ==
        "The panel favours Alpha; readers rate them alike.");
  CHECK(statement({2, 4}, {2, 4}, {2, 10}, {8, 10}) ==
        "The panel rates them alike; readers favour Beta.");
  CHECK(statement({2, 4}, {2, 4}, {5, 10}, {5, 10}) ==
        "Neither leads: the panel and readers rate them alike.");
  CHECK(statement({0, 0}, {1, 4}, {2, 10}, {8, 10}) ==
        "The panel has not reviewed both yet; readers favour Beta.");
}

TEST_CASE("glance: with too few reader votes it says so instead of reading a lead into them") {
  CHECK(statement({3, 4}, {1, 4}, {4, 4}, {0, 9}) ==
        "The panel favours Alpha. Too few reader votes to say what readers think: 5 on each "
        "tool, or 5 head-to-head picks, are needed.");
  CHECK(statement({1, 4}, {3, 4}, {0, 0}, {0, 0}) ==
        "The panel favours Beta. Too few reader votes to say what readers think: 5 on each "
        "tool, or 5 head-to-head picks, are needed.");
  const auto empty = glance_of(pair_with({0, 0}, {0, 0}, {0, 0}, {0, 0}), {}, {});
  CHECK(empty.panel_a == "No reviews yet");
  CHECK(empty.community_b == "No votes yet");
}

TEST_CASE("glance: head-to-head picks are readers' votes: counted, said, and leading when "
          "ship-or-skip votes are too few") {
  const auto with_picks = [](ShipTally ra, ShipTally rb, int64_t on_a, int64_t on_b) {
    auto c = pair_with({3, 4}, {1, 4}, ra, rb);
    c.picks = {on_a, on_b, {}};
    return glance_of(c, {}, {});
  };
  // One pick: counted on the glance, and the side nobody picked reads no 0%.
  const auto one = with_picks({}, {}, 0, 1);
  CHECK(one.picks_a == "None of 1 pick");
  CHECK(one.picks_b == "1 of 1 pick");
  CHECK(one.statement.find("Too few reader votes") != std::string::npos);
  // Enough picks lead where ship-or-skip votes are too few, and say they are picks.
  const auto picked = with_picks({1, 1}, {}, 2, 6);
  CHECK(picked.readers_lead == Glance::Lead::b);
  CHECK(picked.statement == "The panel and readers disagree: the panel favours Alpha, readers' "
                            "picks favour Beta. Head to head, 2 readers picked Alpha and 6 "
                            "picked Beta.");
  CHECK(picked.picks_b.starts_with("75% · 6 of 8 picks · 95% interval "));
  // Ship-or-skip votes still lead when there are enough; the picks are said after them.
  CHECK(with_picks({8, 10}, {2, 10}, 0, 3).statement ==
        "The panel and readers agree: Alpha. Head to head, 3 readers picked Beta.");
  CHECK(with_picks({}, {}, 2, 2).statement.starts_with("The panel favours Alpha. Too few"));
  CHECK(with_picks({}, {}, 4, 4).statement ==
        "The panel favours Alpha; readers' picks are split evenly. Head to head, 4 readers "
        "picked Alpha and 4 picked Beta.");
}

TEST_CASE("glance: the panel lens by lens, in panel order, each persona once") {
  const auto g = glance_of(
      pair_with({2, 3}, {1, 2}, {}, {}),
      {review("maya", "Builder", Verdict::ship), review("victor", "Skeptic", Verdict::skip),
       review("elena", "Futurist", Verdict::ship)},
      {review("maya", "Builder", Verdict::skip), review("victor", "Skeptic", Verdict::skip),
       review("aiko", "Creative", Verdict::ship)});
  REQUIRE(g.lenses.size() == 4);
  CHECK(g.lenses[0].said == "ships Alpha, skips Beta");
  CHECK(g.lenses[0].lens == "Builder");
  CHECK(g.lenses[1].said == "skips both");
  CHECK(g.lenses[2].said == "ships Alpha; has not reviewed Beta");
  CHECK(g.lenses[3].said == "ships Beta; has not reviewed Alpha");
  CHECK(g.panel_a == "2 of 3 reviews say ship");
}

TEST_CASE("glance: every comparison page opens with its verdict at a glance") {
  test::SiteServer site;
  auto client = site.client();
  const auto page = client.Get("/compare/cursor-background-agent-vs-codestral-2-1");
  REQUIRE(page->status == 200);
  const auto text = test::visible_text(page->body);
  const auto at = text.find("Verdict at a glance");
  REQUIRE(at != std::string::npos);
  CHECK(at < text.find("Reviewer scorecard"));
  CHECK(text.find("Too few reader votes to say what readers think", at) != std::string::npos);
  const auto a = site.store().tool_by_slug("cursor-background-agent");
  REQUIRE(a);
  CHECK(text.find(std::to_string(a->panel.ships) + " of " + std::to_string(a->panel.total) +
                      " reviews",
                  at) != std::string::npos);
}

TEST_CASE("comparison: with no picks and no votes no bar is drawn that could be read as data") {
  test::SiteServer site;
  auto client = site.client();
  const std::string path = "/compare/cursor-background-agent-vs-codestral-2-1";
  const auto before = client.Get(path.c_str())->body;
  CHECK(before.find("class=\"split-bar\"") == std::string::npos);
  CHECK(before.find("class=\"ship-bar\"") == std::string::npos);
  CHECK(test::visible_text(before).find("No picks yet — yours will be the first.") !=
        std::string::npos);

  REQUIRE(test::post_form(client, path + "/vote", "pick=a")->status == 303);
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=skip")->status == 303);
  const auto after = client.Get(path.c_str())->body;
  CHECK(after.find("<meter class=\"split-bar few\" min=\"0\" max=\"100\" value=\"100\"") !=
        std::string::npos);
  CHECK(after.find("<meter class=\"ship-bar few\" min=\"0\" max=\"100\" value=\"0\"") !=
        std::string::npos);
  CHECK(after.find("aria-label=\"Share of readers voting ship on Cursor Background Agent\"") ==
        std::string::npos); // still no votes on that one
}

TEST_CASE("glance: a list's two lines say who leads by the same rules, with the counts behind it") {
  const auto lines = [](ShipTally pa, ShipTally pb, ShipTally ra, ShipTally rb,
                        PairTally picks = {}) {
    return lead_lines("Alpha", "Beta", PairNumbers{pa, pb, ra, rb, picks});
  };
  // The panel: 3 of 4 is 75%, 2 of 4 is 50%: Alpha leads.
  CHECK(lines({3, 4}, {2, 4}, {}, {}).panel ==
        "Panel favours Alpha: 3 of 4 reviews ship it, Beta 2 of 4");
  CHECK(lines({1, 4}, {2, 3}, {}, {}).panel ==
        "Panel favours Beta: 2 of 3 reviews ship it, Alpha 1 of 4");
  // 1 of 2 and 2 of 4 are both 50%: tied, each count said.
  CHECK(lines({1, 2}, {2, 4}, {}, {}).panel ==
        "Panel: tied, Alpha 1 of 2 reviews ship it, Beta 2 of 4");
  CHECK(lines({4, 4}, {4, 4}, {}, {}).panel == "Panel: tied, 4 of 4 reviews ship each");
  CHECK(lines({4, 4}, {}, {}, {}).panel == "Panel: has not reviewed both yet");

  // Readers by ship-or-skip votes once each tool has five: 4 of 5 (80%) against 3 of 6 (50%).
  CHECK(lines({}, {}, {4, 5}, {3, 6}).readers ==
        "Readers favour Alpha: 4 of 5 votes ship it, Beta 3 of 6");
  CHECK(lines({}, {}, {3, 6}, {5, 10}).readers ==
        "Readers: tied, Alpha 3 of 6 votes ship it, Beta 5 of 10");
  // Too few on a tool: the picks decide from five on; under that, the count so far.
  CHECK(lines({}, {}, {4, 4}, {1, 1}, {2, 5, {}}).readers ==
        "Readers favour Beta: 5 of 7 head-to-head picks");
  CHECK(lines({}, {}, {}, {}, {3, 3, {}}).readers ==
        "Readers: tied, 3 of 6 head-to-head picks each");
  CHECK(lines({}, {}, {4, 4}, {1, 1}, {1, 2, {}}).readers ==
        "Readers: too few votes yet, 8 counted");
  CHECK(lines({}, {}, {}, {}).readers == "Readers: no votes yet");
}
