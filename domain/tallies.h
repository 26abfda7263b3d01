// The published tallies (/data/tallies.csv and .json): the vote log (store/vote_log.h)
// replayed, so anyone holding the log can make the same numbers and check them against the
// pages. A pure function of the log's entries, with no database and no JSON.
//
// The figures, for each target (a tool, or a head-to-head pair) and each UTC day on which the
// log has an entry for it: the standing at the END of that day. The target's entries are
// replayed in leaf order (the order the votes were written); each entry is the whole vote of
// its voter on its target from then on (cast or changed: its choice and set_aside; withdrawn:
// no vote), so the last entry of a voter on a target is their vote. Then, over the votes
// standing at the end of the day:
//
//   | figure              | tool                              | pair                        |
//   |---------------------|-----------------------------------|-----------------------------|
//   | cast                | votes standing                    | picks standing              |
//   | set_aside, by reason| those with set_aside network /    | the same                    |
//   |                     | too_fast                          |                             |
//   | counted             | cast − set_aside (set_aside null) | the same                    |
//   | first               | ships among counted               | picks of the lower id       |
//   | second              | skips among counted               | picks of the higher id      |
//   | share               | whole_percent(ships, counted)     | whole_percent of each side  |
//
// An entry's day is the UTC date of its "at", but never earlier than the day of an entry
// before it on the same target: a day's row is the standing once the log has moved past it,
// even where a bulk load wrote older times after newer ones. So the last day's row of each
// target is what the pages show now: a vote's log entries and the tallies the pages read are
// written in the same transaction (migrations/0010-vote-log.sql).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "domain/model.h"

namespace verdict {

// The published tallies' licence: anyone may reuse them, saying where they came from.
constexpr const char *kTalliesLicence = "CC BY 4.0";
constexpr const char *kTalliesLicenceUrl = "https://creativecommons.org/licenses/by/4.0/";

// What a vote is on, as the log names it: "tool:12" or "pair:3-7" (lower id first).
struct VoteTarget {
  bool pair = false;
  int64_t low = 0;  // the tool, or the pair's lower id
  int64_t high = 0; // the pair's higher id; the tool's id again for a tool
  auto operator<=>(const VoteTarget &) const = default;
};
std::optional<VoteTarget> vote_target_from_code(std::string_view code);
std::string vote_target_code(const VoteTarget &target);
VoteTarget tool_target(int64_t tool_id);
VoteTarget pair_target(int64_t a_id, int64_t b_id); // either order: the same pair

// One entry of the log, as the replay needs it.
struct VoteEvent {
  std::string day; // YYYY-MM-DD (UTC), from the entry's "at"
  VoteTarget target;
  std::string voter;         // the voter's pseudonym
  std::optional<bool> first; // ship or the lower id (true); empty: withdrawn
  std::optional<SetAsideReason> set_aside;
  // A "rekeyed" entry's: the pseudonym the voter's vote had before (migrations/0014), whose
  // vote this one takes over; empty for every other entry.
  std::string was;
  std::string network; // the network's pseudonym; empty when the entry has none
  // The log's format from migrations/0021-standing-places.sql on: the entry says which of its
  // network's places it holds (`place`, a pseudonym; empty when it holds none), never its
  // network; and the entries that carried the votes standing then into it are "rekeyed".
  bool names_places = false;
  std::string place = {};
  bool rekeyed = false;
};

// A target's standing at the end of one day (the table above).
struct DayTally {
  std::string day;
  int64_t first = 0;  // counted ships, or counted picks of the lower id
  int64_t second = 0; // counted skips, or counted picks of the higher id
  SetAside set_aside;
  int64_t counted() const { return first + second; }
  int64_t cast() const { return counted() + set_aside.total(); }
};

// What the site shows now, in the log's terms (its day left empty): a tool's counted votes,
// and a pair's picks, given in the order its page names the tools, with the lower id's first.
DayTally tool_standing(const Tool &tool);
DayTally pair_standing(int64_t a_id, int64_t b_id, const PairTally &picks);

struct TargetTallies {
  VoteTarget target;
  std::vector<DayTally> days; // oldest first
};

// Every tool's slug by its id, as the open data names targets: sorted by id, so looking a
// tool up is a search through one block of memory (the open data of a site of ten thousand
// tools looks one up for each target: a hash map's scattered nodes cost more than the rest).
class ToolSlugs {
public:
  explicit ToolSlugs(std::vector<std::pair<int64_t, std::string>> by_id); // any order
  const std::string *find(int64_t id) const; // none for a tool not (or no longer) there

private:
  std::vector<std::pair<int64_t, std::string>> by_id_;
};

// Every target's rows, in the order finish() gives them, and how many entries the log held.
struct TalliesByDay {
  std::vector<TargetTallies> targets;
  uint64_t log_entries = 0;
};

// Feed it the log's entries in leaf order, then take the rows: targets in order (tools by id,
// then pairs by their ids).
class TallyReplay {
public:
  void add(const VoteEvent &event);
  // The target's standing after the entries added so far: all zero when it has none.
  DayTally standing(const VoteTarget &target) const;
  std::vector<TargetTallies> finish() &&;

private:
  struct Vote {
    bool first;
    std::optional<SetAsideReason> set_aside;
  };
  struct Target {
    DayTally now; // the standing after the latest entry; its day is the latest entry's
    std::vector<DayTally> days;
    std::unordered_map<std::string, Vote> votes; // by voter
  };
  std::map<VoteTarget, Target> targets_;
};

// The counting rule (domain/counting.h) as the log lets anyone check it, target by target.
// Entries that name places (the rule's ceiling): no place is held by two standing votes at
// once, and a counted entry names the place it holds (but a vote counted before the rule, or
// carried over by a rekeyed entry, which holds none). Entries that name networks (the rule
// before it): within any kCountingWindowDays UTC days, at most kCountedVotersPerNetwork voters
// of one network take a place on a target; a counted entry needs a place unless its voter
// holds one (counted in the window) or it leaves a counted vote unchanged, and a rekeyed entry
// judges nothing. Entries without either (cast before the rule) are not checked. Not
// checkable from the log: how many places a network has (a place names no network, so that
// one reader's entry shows nothing of their network's others), the wider network's quota, and
// "too fast" (an entry does not say how long a page was open).
class CountingRuleCheck {
public:
  // Feed entries in leaf order; returns what the entry breaks, or empty.
  std::string add(const VoteEvent &event);

private:
  struct Vote {
    bool counted = false;
    std::optional<bool> first;
    std::string place; // the place a counted vote holds, in the format that names them
  };
  std::string check_place(const VoteEvent &event, const Vote &was, bool counted_now);
  std::string check_network(const VoteEvent &event, const Vote &was, bool counted_now);

  // Each target's standing votes, by voter.
  std::map<VoteTarget, std::unordered_map<std::string, Vote>> votes_;
  // Each target's places held, by place: the voter holding it.
  std::map<VoteTarget, std::unordered_map<std::string, std::string>> holders_;
  // The day each voter last took a place on, by target and network: {voter: day number}.
  std::map<std::pair<VoteTarget, std::string>, std::unordered_map<std::string, int64_t>> places_;
};

} // namespace verdict
