#include "domain/alternatives.h"

#include <algorithm>
#include <map>

#include "domain/numbers.h"

namespace verdict {

RankedAlternatives rank_alternatives(const AlternativesData &data) {
  // The fit's tools: the page's tool at 0, then each candidate.
  std::map<int64_t, size_t> index_of{{data.tool.id, 0}};
  for (size_t i = 0; i < data.candidates.size(); ++i)
    index_of.emplace(data.candidates[i].tool.id, i + 1);
  std::vector<HeadToHead> games;
  std::map<int64_t, PairTally> versus; // by candidate id: the page's tool's picks, then its
  for (const auto &picks : data.picks) {
    const auto low = index_of.find(picks.low_id), high = index_of.find(picks.high_id);
    if (low == index_of.end() || high == index_of.end()) continue;
    games.push_back({low->second, high->second, picks.low_picks, picks.high_picks});
    if (picks.low_id == data.tool.id)
      versus[picks.high_id] = {picks.low_picks, picks.high_picks, {}};
    if (picks.high_id == data.tool.id)
      versus[picks.low_id] = {picks.high_picks, picks.low_picks, {}};
  }
  const auto fit = bradley_terry(data.candidates.size() + 1, games);

  RankedAlternatives result{data.tool, fit[0], {}};
  for (size_t i = 0; i < data.candidates.size(); ++i) {
    const auto &candidate = data.candidates[i];
    const auto &panel = candidate.tool.panel;
    const auto found = versus.find(candidate.tool.id);
    result.ranked.push_back({candidate, fit[i + 1], 1, wilson_lower_bound(panel.ships, panel.total),
                             found == versus.end() ? PairTally{} : found->second});
  }
  std::stable_sort(result.ranked.begin(), result.ranked.end(),
                   [](const RankedAlternative &x, const RankedAlternative &y) {
                     if (x.strength.chance != y.strength.chance)
                       return x.strength.chance > y.strength.chance;
                     if (x.panel_lower != y.panel_lower) return x.panel_lower > y.panel_lower;
                     return x.candidate.tool.name < y.candidate.tool.name;
                   });
  std::vector<Strength> in_order;
  for (const auto &row : result.ranked)
    in_order.push_back(row.strength);
  const auto tiers = tiers_of(in_order);
  for (size_t i = 0; i < tiers.size(); ++i)
    result.ranked[i].tier = tiers[i];
  return result;
}

} // namespace verdict
