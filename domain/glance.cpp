#include "domain/glance.h"

#include "domain/counting.h"
#include "domain/numbers.h"

namespace verdict {

namespace {

using Lead = Glance::Lead;

Lead lead_of(const ShipTally &a, const ShipTally &b, int64_t at_least) {
  if (a.total < at_least || b.total < at_least || a.total == 0 || b.total == 0)
    return Lead::unknown;
  const auto pa = whole_percent(a.ships, a.total), pb = whole_percent(b.ships, b.total);
  return pa > pb ? Lead::a : pb > pa ? Lead::b : Lead::level;
}

std::string share(const ShipTally &t, const char *one, const char *many, const char *none) {
  if (t.total == 0) return none;
  return std::to_string(whole_percent(t.ships, t.total)) + "% ship · " +
         (t.total == 1 ? "1 " + std::string(one)
                       : std::to_string(t.ships) + " of " + std::to_string(t.total) + " " + many) +
         with_interval(t.ships, t.total);
}

std::string community_share(const Tool &tool) {
  const auto &t = tool.community;
  if (t.total == 0 && tool.community_set_aside.total() == 0) return "No votes yet";
  if (t.total == 0) return "No votes counted yet" + with_set_aside(tool.community_set_aside, 0);
  return std::to_string(whole_percent(t.ships, t.total)) + "% ship · " +
         count_phrase(t.total, "vote", "votes") + with_interval(t.ships, t.total) +
         with_set_aside(tool.community_set_aside, t.total);
}

const char *said(std::optional<Verdict> v) {
  return !v ? nullptr : *v == Verdict::ship ? "ships" : "skips";
}

} // namespace

Glance glance_of(const Comparison &comparison, const std::vector<Review> &reviews_a,
                 const std::vector<Review> &reviews_b) {
  const auto &a = comparison.a, &b = comparison.b;
  Glance glance;
  glance.panel_a = share(a.panel, "review", "reviews", "No reviews yet");
  glance.panel_b = share(b.panel, "review", "reviews", "No reviews yet");
  glance.community_a = community_share(a);
  glance.community_b = community_share(b);

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
