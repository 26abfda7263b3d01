// The Bradley–Terry fit and its tiers (domain/ranking.h), against values worked by hand there.
#include <catch2/catch.hpp>

#include "domain/alternatives.h"
#include "domain/ranking.h"

using namespace verdict;

TEST_CASE("ranking: a tool nobody has picked against sits at an even chance, its interval wide "
          "open") {
  const auto fit = bradley_terry(1, {});
  REQUIRE(fit.size() == 1);
  CHECK(fit[0].chance == Approx(0.5));
  // Variance 2 from the prior alone: σ(±1.96·√2) = 5.9%–94.1%.
  CHECK(fit[0].low == Approx(0.058867).epsilon(1e-4));
  CHECK(fit[0].high == Approx(0.941133).epsilon(1e-4));
  CHECK(fit[0].picks == 0);
}

TEST_CASE("ranking: two tools level at five picks each are even, their intervals narrower by the "
          "Hessian's inverse") {
  const auto fit = bradley_terry(2, {{0, 1, 5, 5}});
  REQUIRE(fit.size() == 2);
  for (const auto &tool : fit) {
    CHECK(tool.chance == Approx(0.5));
    // Inverse Hessian diagonal 3 / 2.75 = 1.0909: σ(±2.047) = 11.4%–88.6%.
    CHECK(tool.low == Approx(0.114344).epsilon(1e-4));
    CHECK(tool.high == Approx(0.885656).epsilon(1e-4));
    CHECK(tool.picks == 10);
  }
}

TEST_CASE("ranking: three picks to one put the winner ahead, shrunk toward even by the prior") {
  // θa = −θb = t with 4 − 4σ(2t) + 1 − 2σ(t) = 0: t = 0.41962, σ(t) = 60.3%.
  const auto fit = bradley_terry(2, {{1, 0, 1, 3}});
  CHECK(fit[0].chance == Approx(0.603392).epsilon(1e-4));
  CHECK(fit[1].chance == Approx(0.396608).epsilon(1e-4));
  // Variance d / (d² − w²), w = 4σ(2t)(1 − σ(2t)), d = w + 2σ(t)(1 − σ(t)): 1.27572.
  CHECK(fit[0].low == Approx(0.142569).epsilon(1e-4));
  CHECK(fit[0].high == Approx(0.932978).epsilon(1e-4));
  // A tool with no picks of its own stays even, whatever the others did.
  const auto with_a_third = bradley_terry(3, {{1, 0, 1, 3}});
  CHECK(with_a_third[0].chance == Approx(0.603392).epsilon(1e-4));
  CHECK(with_a_third[2].chance == Approx(0.5));
}

TEST_CASE("ranking: many lopsided picks stay finite and order a chain of tools") {
  // a beats b 40 to 0, b beats c 40 to 0: a clear order, every number finite and in (0, 1).
  const auto fit = bradley_terry(3, {{0, 1, 40, 0}, {1, 2, 40, 0}});
  CHECK(fit[0].chance > fit[1].chance);
  CHECK(fit[1].chance > fit[2].chance);
  for (const auto &tool : fit) {
    CHECK(tool.low > 0.0);
    CHECK(tool.high < 1.0);
    CHECK(tool.low <= tool.chance);
    CHECK(tool.chance <= tool.high);
  }
  CHECK(fit[1].chance == Approx(0.5).margin(1e-9)); // symmetric around the middle one
}

TEST_CASE("ranking: tools whose intervals reach the tier's head share its tier") {
  const std::vector<Strength> ranked = {{0.9, 0.80, 0.95},
                                        {0.85, 0.70, 0.92},
                                        {0.6, 0.50, 0.79},
                                        {0.55, 0.40, 0.70},
                                        {0.2, 0.10, 0.30}};
  // 0.92 and 0.79 reach 0.80? 0.92 yes; 0.79 no: the third heads tier 2, which the fourth
  // (0.70 ≥ 0.50) joins; the fifth (0.30 < 0.50) heads tier 3.
  CHECK(tiers_of(ranked) == std::vector<int>{1, 1, 2, 2, 3});
  CHECK(tiers_of({}).empty());
}

TEST_CASE("ranking: alternatives go by readers' picks, then the panel's lower bound, then name, "
          "with the picks against the page's tool the right way round") {
  // A tool with only what the ranking reads: its id, its name (its slug too) and its panel.
  const auto tool = [](int64_t id, const char *name, ShipTally panel) {
    Tool named;
    named.id = id;
    named.slug = named.name = name;
    named.panel = panel;
    return named;
  };
  AlternativesData data;
  data.tool = tool(5, "page", {});
  data.candidates = {{tool(1, "beaten", {4, 4}), false, true},
                     {tool(2, "unpicked well reviewed", {9, 10}), false, true},
                     {tool(3, "unpicked barely reviewed", {1, 1}), false, true},
                     {tool(4, "alpha unpicked", {9, 10}), false, true},
                     {tool(9, "winner", {0, 3}), true, false}};
  // The page's tool (5) beat tool 1 six to one; tool 9 beat the page's tool seven to none.
  data.picks = {{1, 5, 1, 6}, {5, 9, 0, 7}};
  const auto ranked = rank_alternatives(data);
  std::vector<std::string> order;
  for (const auto &row : ranked.ranked)
    order.push_back(row.candidate.tool.name);
  // 9/10 has a higher Wilson lower bound (0.596) than 1/1 (0.207); equal bounds go by name.
  CHECK(order == std::vector<std::string>{"winner", "alpha unpicked", "unpicked well reviewed",
                                          "unpicked barely reviewed", "beaten"});
  CHECK(ranked.ranked.front().versus.a == 0); // the page's tool's picks first
  CHECK(ranked.ranked.front().versus.b == 7);
  CHECK(ranked.ranked.back().versus.a == 6);
  CHECK(ranked.ranked.back().versus.b == 1);
  CHECK(ranked.ranked[1].strength.chance == Approx(0.5));
  CHECK(ranked.ranked[1].panel_lower == Approx(0.5958).epsilon(1e-3));
  CHECK(ranked.ranked.front().tier == 1);
}
