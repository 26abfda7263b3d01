#include "domain/glance.h"

#include "domain/numbers.h"
#include "domain/share_phrase.h"

namespace verdict {

namespace {

using Lead = Glance::Lead;

Lead lead_of(const ShipTally &a, const ShipTally &b, int64_t at_least) {
  if (a.total < at_least || b.total < at_least || a.total == 0 || b.total == 0)
    return Lead::unknown;
  const auto pa = whole_percent(a.ships, a.total), pb = whole_percent(b.ships, b.total);
  return pa > pb ? Lead::a : pb > pa ? Lead::b : Lead::level;
}

const char *said(std::optional<Verdict> v) {
  return !v ? nullptr : *v == Verdict::ship ? "ships" : "skips";
}

} // namespace

Glance glance_of(const Comparison &comparison, const std::vector<Review> &reviews_a,
                 const std::vector<Review> &reviews_b) {
  const auto &a = comparison.a, &b = comparison.b;
  Glance glance;
  glance.panel_a = share_phrase(kGlancePanel, a.panel.ships, a.panel.total);
  glance.panel_b = share_phrase(kGlancePanel, b.panel.ships, b.panel.total);
  glance.community_a =
      share_phrase(kGlanceCommunity, a.community.ships, a.community.total, a.community_set_aside);
  glance.community_b =
      share_phrase(kGlanceCommunity, b.community.ships, b.community.total, b.community_set_aside);

  // Lens by lens, in panel order: each persona who reviewed either tool.
  std::vector<const Review *> order;
  for (const auto *reviews : {&reviews_a, &reviews_b})
    for (const auto &review : *reviews) {
      bool seen = false;
      for (const auto *known : order)
        seen = seen || known->reviewer_slug == review.reviewer_slug;
      if (!seen) order.push_back(&review);
    }
  for (const auto *reviewer : order) {
    std::optional<Verdict> on_a, on_b;
    for (const auto &r : reviews_a)
      if (r.reviewer_slug == reviewer->reviewer_slug) on_a = r.verdict;
    for (const auto &r : reviews_b)
      if (r.reviewer_slug == reviewer->reviewer_slug) on_b = r.verdict;
    std::string line;
    if (on_a && on_b && *on_a == *on_b)
      line = std::string(said(on_a)) + " both";
    else if (on_a && on_b)
      line = std::string(said(on_a)) + " " + a.name + ", " + said(on_b) + " " + b.name;
    else if (on_a)
      line = std::string(said(on_a)) + " " + a.name + "; has not reviewed " + b.name;
    else
      line = std::string(said(on_b)) + " " + b.name + "; has not reviewed " + a.name;
    glance.lenses.push_back({reviewer->reviewer_name, reviewer->reviewer_lens, line});
  }

  glance.panel_lead = lead_of(a.panel, b.panel, 1);
  glance.readers_lead = lead_of(a.community, b.community, kMinVotesForInterval);
  const auto panel = glance.panel_lead, readers = glance.readers_lead;
  const auto name = [&](Lead lead) { return lead == Lead::a ? a.name : b.name; };
  const std::string panel_says = panel == Lead::unknown ? "The panel has not reviewed both yet"
                                 : panel == Lead::level ? "The panel rates them alike"
                                                        : "The panel favours " + name(panel);
  if (readers == Lead::unknown) {
    glance.statement = panel_says + ". Too few reader votes to say what readers think: " +
                       count_phrase(a.community.total, "vote", "votes") + " on " + a.name + ", " +
                       count_phrase(b.community.total, "vote", "votes") + " on " + b.name + " (" +
                       std::to_string(kMinVotesForInterval) + " each are needed).";
  } else if (readers == panel && readers != Lead::level) {
    glance.statement = "The panel and readers agree: " + name(readers) + ".";
  } else if (readers == Lead::level && panel == Lead::level) {
    glance.statement = "Neither leads: the panel and readers rate them alike.";
  } else if (readers == Lead::level) {
    glance.statement = panel_says + "; readers rate them alike.";
  } else if (panel == Lead::level || panel == Lead::unknown) {
    glance.statement = panel_says + "; readers favour " + name(readers) + ".";
  } else {
    glance.statement = "The panel and readers disagree: the panel favours " + name(panel) +
                       ", readers favour " + name(readers) + ".";
  }
  return glance;
}

} // namespace verdict
