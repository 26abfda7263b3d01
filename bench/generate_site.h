// A made-up site at any size, for measuring Verdict at a thousand times its bundled content:
// tools, reviewers, reviews, published comparisons and readers' votes, all drawn from one
// seed, so the same seed always gives the same content and the same votes. Popularity is
// skewed as on a real site (Zipf-like): a few tools are reviewed by much of the panel and
// compared often, a few comparisons and a few readers bring most of the votes.
#pragma once

#include <cstdint>

#include "domain/content.h"

namespace verdict {

class Store;

struct SiteSize {
  int tools = 10'000;
  int reviewers = 1'000;
  int reviews = 100'000;   // at most tools × reviewers (one review per tool and reviewer)
  int comparisons = 5'000; // published pairs
  int votes = 1'000'000;   // tool ships/skips and head-to-head picks together
  int voters = 250'000;    // readers those votes come from
};

struct GeneratedSite {
  Content content;
  VoteLoad votes;
};

// Throws std::invalid_argument when the size cannot be met (more reviews than tool and
// reviewer pairs, more comparisons than pairs of tools, more votes than voters can cast).
GeneratedSite generate_site(uint64_t seed, const SiteSize &size);

// Writes a generated site into `store` (a fresh database): its content, then its votes.
void write_site(Store &store, const GeneratedSite &site);

} // namespace verdict
