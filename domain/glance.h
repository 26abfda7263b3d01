// The verdict at a glance: what a comparison's numbers say, in plain sentences, computed from
// the data. Pure, so every rule is tested without a database.
//
//   panel             | readers (each tool ≥ kMinVotesForInterval votes) | the statement
//   leads A           | lead A                                           | agree: A
//   leads A           | lead B                                           | disagree, both named
//   leads A           | level                                            | panel A, readers split
//   level             | lead B                                           | panel split, readers B
//   level             | level                                            | neither leads
//   any               | too few votes on either tool                     | panel's lead, and too
//                     |                                                  | few votes to say more
// A side leads when its whole percent is higher; equal percents are level. Readers answer two
// questions: would you ship it (ship or skip, on each tool) and which one (a head-to-head
// pick). Ship-or-skip votes lead while each tool has enough; without them, kMinVotesForInterval
// head-to-head picks do ("readers' picks favour B"). Any pick is said after the statement, so a
// reader who picked sees their vote counted on the glance too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/model.h"

namespace verdict {

struct Glance {
  // Who leads by the table above, for a shorter wording (a badge): unknown for the panel
  // until it reviewed both, for readers until each tool has kMinVotesForInterval votes.
  enum class Lead { a, b, level, unknown };
  Lead panel_lead = Lead::unknown, readers_lead = Lead::unknown;
  // One persona's two verdicts, in panel order: "Maya Chen", "Builder", "ships A, skips B".
  struct Lens {
    std::string reviewer, lens, said;
  };
  std::vector<Lens> lenses;
  std::string statement; // the plain answer, e.g. "The panel and readers agree: Codestral 2.1."
  std::string panel_a, panel_b;         // "75% ship · 3 of 4 reviews" or "No reviews yet"
  std::string community_a, community_b; // "67% ship · 3 votes" or "No votes yet"
  std::string picks_a, picks_b;         // "3 of 4 picks", "None of 4 picks" or "No picks yet"
};

Glance glance_of(const Comparison &comparison, const std::vector<Review> &reviews_a,
                 const std::vector<Review> &reviews_b);

// Who leads by the table above, from the numbers alone. `by_picks`: the readers' lead is their
// head-to-head picks' (too few ship-or-skip votes on a tool to say).
struct Leads {
  Glance::Lead panel = Glance::Lead::unknown, readers = Glance::Lead::unknown;
  bool by_picks = false;
};
Leads leads_of(const PairNumbers &numbers);
PairNumbers numbers_of(const Comparison &comparison);

// The two short lines every list of comparisons shows under a title, by the same rules:
//   "Panel favours Codestral 2.1: 3 of 4 reviews ship it, Cursor 1 of 4"
//   "Readers favour Cursor: 7 of 10 head-to-head picks"
//   "Panel: tied, 2 of 4 reviews ship each"       "Readers: too few votes yet, 3 counted"
//   "Panel: has not reviewed both yet"             "Readers: no votes yet"
struct LeadLines {
  std::string panel, readers;
};
LeadLines lead_lines(const std::string &a, const std::string &b, const PairNumbers &numbers);

} // namespace verdict
