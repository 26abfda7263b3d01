// The alternatives to a tool, ranked: by readers' counted head-to-head picks through a
// Bradley–Terry fit over the tool and its candidates (domain/ranking.h), ties in the fit broken
// by the panel's ship rate's Wilson lower bound, then by name. Tools whose intervals overlap
// share a tier: the page shows them as tied. Pure, so the order is tested without a database.
#pragma once

#include <vector>

#include "domain/model.h"
#include "domain/ranking.h"

namespace verdict {

// The most candidates a tool's alternatives weigh and show (its page and the API alike).
constexpr size_t kMostAlternatives = 30;

struct RankedAlternative {
  AlternativesData::Candidate candidate;
  Strength strength;        // picked over an average one of these tools, with its interval
  int tier = 1;             // from 1; equal tiers are shown as tied
  double panel_lower = 0.0; // the panel's ship rate's 95% Wilson lower bound (0 to 1)
  PairTally versus;         // counted picks between the page's tool (a) and this one (b)
};

struct RankedAlternatives {
  Tool tool;
  Strength strength; // the page's tool's own, in the same fit
  std::vector<RankedAlternative> ranked;
};

RankedAlternatives rank_alternatives(const AlternativesData &data);

} // namespace verdict
