// Tools ranked by readers' head-to-head picks: a Bradley–Terry fit with 95% intervals, and the
// tiers a reader can trust. Pure, so each number is tested against values worked by hand.
//
// The model: each tool i has a strength θi, and a reader choosing between i and j picks i with
// chance σ(θi − θj), σ(x) = 1 / (1 + e^−x). The fit finds the θ that make the counted picks
// most likely. Two things keep it honest on thin data:
//   - Every tool also "plays" one win and one loss against an average tool (θ = 0). A tool no
//     one has picked against stays at 0 with a wide interval, instead of an infinite strength
//     after one win; the more real picks, the less this matters.
//   - The interval is θi ± 1.96 standard errors, read from the curvature of the likelihood at
//     the fit (the inverse of its Hessian, opponents' uncertainty included).
// What a reader sees is σ(θi): the chance the tool is picked over an average tool, with its
// interval, e.g. "picked over an average alternative 62% of the time (95%: 48–74%)".
//
// Worked example (the unit tests hold these numbers):
//   One tool, no picks: θ = 0, and the only curvature is the prior's, 2 · ¼ = ½, so the
//   variance is 2, the standard error √2 = 1.414, and the interval σ(±1.96 · 1.414) =
//   σ(±2.772) = 5.9%–94.1%: "we know nothing yet".
//   Two tools that each picked the other 5 times: by symmetry θ = 0 for both. The Hessian is
//   [[10·¼ + ½, −10·¼], [−10·¼, 10·¼ + ½]] = [[3, −2.5], [−2.5, 3]]; its inverse's diagonal is
//   3 / (9 − 6.25) = 1.0909, the standard error 1.0445, the interval σ(±2.047) = 11.4%–88.6%.
//   Ten picks between them say they are level, not how either fares against anyone else.
//
// Tiers: down the ranking, a tool joins the tier of the tool heading it while its interval's
// top reaches that tool's interval's bottom; the first that does not heads the next tier. Tools
// in one tier are shown as tied: the data cannot order them (Chatbot Arena's lesson that such
// rankings are fragile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace verdict {

// Counted picks between tools `a` and `b` (indexes into the fit's tools).
struct HeadToHead {
  size_t a = 0, b = 0;
  int64_t a_picks = 0, b_picks = 0;
};

// A tool's fitted strength, as the chance it is picked over an average tool, with its 95%
// interval (0 to 1).
struct Strength {
  double chance = 0.5, low = 0, high = 1;
  int64_t picks = 0; // counted picks it was in, won or lost
};

// The fit for `tools` tools from their head-to-heads; one Strength per tool, in index order.
std::vector<Strength> bradley_terry(size_t tools, const std::vector<HeadToHead> &head_to_heads);

// The tier of each tool in `ranked` (strengths in ranking order, strongest first), from 1.
std::vector<int> tiers_of(const std::vector<Strength> &ranked);

} // namespace verdict
