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

// "3 readers picked A and 1 picked B", "1 reader picked B".
std::string picks_said(const std::string &a, int64_t on_a, const std::string &b, int64_t on_b) {
  if (on_a == 0 || on_b == 0) {
    const auto on = on_a == 0 ? on_b : on_a;
    return count_phrase(on, "reader", "readers") + " picked " + (on_a == 0 ? b : a);
  }
  return count_phrase(on_a, "reader", "readers") + " picked " + a + " and " + std::to_string(on_b) +
         " picked " + b;
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
  const auto &picks = comparison.picks;
  const auto picked = picks.a + picks.b;
  glance.picks_a = share_phrase(kPickShare, picks.a, picked);
  glance.picks_b = share_phrase(kPickShare, picks.b, picked);

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

  const auto leads = leads_of(numbers_of(comparison));
  glance.panel_lead = leads.panel;
  glance.readers_lead = leads.readers;
  const bool by_picks = leads.by_picks;
  const auto panel = glance.panel_lead, readers = glance.readers_lead;
  const auto name = [&](Lead lead) { return lead == Lead::a ? a.name : b.name; };
  const std::string readers_favour = by_picks ? "readers' picks favour " : "readers favour ";
  const std::string readers_alike =
      by_picks ? "readers' picks are split evenly" : "readers rate them alike";
  const std::string panel_says = panel == Lead::unknown ? "The panel has not reviewed both yet"
                                 : panel == Lead::level ? "The panel rates them alike"
                                                        : "The panel favours " + name(panel);
  if (readers == Lead::unknown) {
    // The counts are in the table under it; this says what would be enough.
    const auto needed = std::to_string(kMinVotesForInterval);
    glance.statement = panel_says + ". Too few reader votes to say what readers think: " + needed +
                       " on each tool, or " + needed + " head-to-head picks, are needed.";
  } else if (readers == panel && readers != Lead::level) {
    glance.statement = "The panel and readers agree: " + name(readers) + ".";
  } else if (readers == Lead::level && panel == Lead::level) {
    glance.statement = by_picks
                           ? "Neither leads: the panel rates them alike, and " + readers_alike + "."
                           : "Neither leads: the panel and readers rate them alike.";
  } else if (readers == Lead::level) {
    glance.statement = panel_says + "; " + readers_alike + ".";
  } else if (panel == Lead::level || panel == Lead::unknown) {
    glance.statement = panel_says + "; " + readers_favour + name(readers) + ".";
  } else {
    glance.statement = "The panel and readers disagree: the panel favours " + name(panel) + ", " +
                       readers_favour + name(readers) + ".";
  }
  if (picked > 0 && readers != Lead::unknown)
    glance.statement += " Head to head, " + picks_said(a.name, picks.a, b.name, picks.b) + ".";
  return glance;
}

PairNumbers numbers_of(const Comparison &comparison) {
  return {comparison.a.panel, comparison.b.panel, comparison.a.community, comparison.b.community,
          comparison.picks};
}

Leads leads_of(const PairNumbers &numbers) {
  Leads leads;
  leads.panel = lead_of(numbers.panel_a, numbers.panel_b, 1);
  leads.readers = lead_of(numbers.readers_a, numbers.readers_b, kMinVotesForInterval);
  const auto &picks = numbers.picks;
  leads.by_picks = leads.readers == Lead::unknown && picks.a + picks.b >= kMinVotesForInterval;
  if (leads.by_picks)
    leads.readers = picks.a > picks.b ? Lead::a : picks.b > picks.a ? Lead::b : Lead::level;
  return leads;
}

namespace {

// "3 of 4 reviews ship it, Cursor 1 of 4" after the leader's name; when level, "2 of 4 reviews
// ship each" or "Codestral 2.1 2 of 4 reviews ship it, Cursor 1 of 2".
std::string ship_counts(Lead lead, const std::string &a, const ShipTally &on_a,
                        const std::string &b, const ShipTally &on_b, const char *what) {
  const auto of = [](const ShipTally &t) {
    return std::to_string(t.ships) + " of " + std::to_string(t.total);
  };
  if (lead == Lead::b) return of(on_b) + " " + what + " ship it, " + a + " " + of(on_a);
  if (lead == Lead::a) return of(on_a) + " " + what + " ship it, " + b + " " + of(on_b);
  if (on_a.ships == on_b.ships && on_a.total == on_b.total)
    return of(on_a) + " " + what + " ship each";
  return a + " " + of(on_a) + " " + what + " ship it, " + b + " " + of(on_b);
}

} // namespace

LeadLines lead_lines(const std::string &a, const std::string &b, const PairNumbers &numbers) {
  const auto leads = leads_of(numbers);
  const auto name = [&](Lead lead) { return lead == Lead::a ? a : b; };
  LeadLines lines;
  const auto panel_counts =
      ship_counts(leads.panel, a, numbers.panel_a, b, numbers.panel_b, "reviews");
  lines.panel = leads.panel == Lead::unknown ? "Panel: has not reviewed both yet"
                : leads.panel == Lead::level
                    ? "Panel: tied, " + panel_counts
                    : "Panel favours " + name(leads.panel) + ": " + panel_counts;

  const auto &picks = numbers.picks;
  const auto picked = picks.a + picks.b;
  std::string readers_counts;
  if (leads.by_picks)
    readers_counts =
        leads.readers == Lead::level
            ? std::to_string(picks.a) + " of " + std::to_string(picked) + " head-to-head picks each"
            : std::to_string(std::max(picks.a, picks.b)) + " of " + std::to_string(picked) +
                  " head-to-head picks";
  else
    readers_counts =
        ship_counts(leads.readers, a, numbers.readers_a, b, numbers.readers_b, "votes");
  const auto counted = numbers.readers_a.total + numbers.readers_b.total + picked;
  lines.readers = leads.readers == Lead::unknown
                      ? counted == 0
                            ? std::string("Readers: no votes yet")
                            : "Readers: too few votes yet, " + std::to_string(counted) + " counted"
                  : leads.readers == Lead::level
                      ? "Readers: tied, " + readers_counts
                      : "Readers favour " + name(leads.readers) + ": " + readers_counts;
  return lines;
}

} // namespace verdict
