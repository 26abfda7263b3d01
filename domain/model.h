// The content model as plain structs: what the store returns and the presenters read.
// Nothing here knows about SQL or HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace verdict {

enum class Verdict { ship, skip };

struct Category {
  std::string slug;
  std::string name;
};

// Ships out of all opinions counted, for the panel (reviews) or the community (votes).
struct ShipTally {
  int64_t ships = 0;
  int64_t total = 0;
};

struct Tool {
  int64_t id = 0;
  std::string slug; // identity: two tools may share a name, never a slug
  std::string name;
  Category category;
  std::string tagline;
  std::string description;
  std::string entry; // Free, Paid, Freemium, Open weights
  std::string vendor;
  std::string url;
  std::string pricing_notes;      // the "pricing read"
  std::string pricing_checked_on; // YYYY-MM-DD, empty when never checked
  std::string pricing_source;     // where the pricing was read
  ShipTally panel;                // from reviews
  ShipTally community;            // from reader votes
};

struct Reviewer {
  int64_t id = 0;
  std::string slug;
  std::string name;
  std::string lens; // the angle this persona reviews from, e.g. "Skeptic"
  std::string bio;
  ShipTally verdicts; // this reviewer's ships across every tool reviewed
};

struct Review {
  std::string tool_slug;
  std::string tool_name;
  std::string reviewer_slug;
  std::string reviewer_name;
  std::string reviewer_lens;
  Verdict verdict = Verdict::ship;
  std::string quote;
};

// An ordered pair of tools as the editor published it (or as first viewed, if never published).
struct Comparison {
  Tool a;
  Tool b;
  bool published = false;
  std::string published_on; // YYYY-MM-DD when published
  std::string intro;        // optional editor's intro
};

struct ComparisonSummary {
  std::string a_slug, a_name;
  std::string b_slug, b_name;
  std::string published_on;
};

// Head-to-head picks on a pair, in the order the page shows the pair.
struct PairTally {
  int64_t a = 0;
  int64_t b = 0;
};

// What one visitor has already said, so a page can show their own vote.
struct VoterChoices {
  std::optional<Verdict> on_a;
  std::optional<Verdict> on_b;
  std::optional<int64_t> pick; // tool id picked head-to-head
};

// Site copy that belongs to the publication, not the code (eyebrow, dek, newsletter pitch).
struct SiteCopy {
  std::string site_name;
  std::string site_tagline;
  std::string comparison_eyebrow;
  std::string comparison_dek;
  std::string newsletter_title;
  std::string newsletter_lead;
  std::string newsletter_pitch;
};

} // namespace verdict

namespace verdict {

// Everything a comparison page shows, read in one go.
struct ComparisonDetail {
  Comparison comparison;       // a and b in the order the URL named them
  bool canonical_order = true; // false when the page's address is the other order
  std::vector<Review> reviews_a;
  std::vector<Review> reviews_b;
  PairTally picks;
  VoterChoices voter;
};

// Everything a tool page shows.
struct ToolDetail {
  Tool tool;
  std::vector<Review> reviews;
  std::vector<ComparisonSummary> comparisons;
  std::optional<Verdict> voter_verdict;
  std::vector<Tool> others; // every other tool, for the compare-with picker
};

} // namespace verdict
