// The published tallies as files anyone may fetch and check (/data/tallies.csv and
// /data/tallies.json): each target's standing at the end of each day it had a vote event, made
// by replaying the vote log (domain/tallies.h defines every figure). docs/NUMBERS.md ("Open
// data") documents both shapes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "domain/tallies.h"

namespace verdict::open_data {

struct PublishedTallies {
  std::vector<TargetTallies> targets;     // the log's replay (Store::tallies_by_day)
  std::shared_ptr<const ToolSlugs> slugs; // every tool's slug now
  uint64_t log_entries = 0;               // how many entries the log held then
};

// How a target is published besides its log code: a tool by its slug, a pair as
// "<lower id's slug>-vs-<higher id's slug>" (an address /compare/ takes, whichever order the
// editor's comparison names them in). "" when a tool of it is gone.
std::string target_slug(const VoteTarget &target, const ToolSlugs &slugs);

// The CSV file, made row by row as the rows are read (the targets in order, each target's days
// oldest first), without holding them: one header line, then one line per target per day
// (RFC 4180, CRLF), tools' columns and pairs' columns side by side, empty where they do not
// apply:
// day,target,slug,cast,counted,set_aside_network,set_aside_too_fast,ships,skips,ship_percent,
// low_picks,high_picks,low_percent,high_percent
class TalliesCsv {
public:
  explicit TalliesCsv(std::shared_ptr<const ToolSlugs> slugs);
  void add(const VoteTarget &target, const DayTally &day);
  std::string text() &&;

private:
  std::shared_ptr<const ToolSlugs> slugs_;
  std::string csv_;
  std::optional<VoteTarget> target_; // the target of the rows added last
  std::string named_;                // its fields every row repeats: ,"target","slug",
};

// {"licence", "licence_url", "definition", "log_entries", "targets": [{"target", "kind",
// "slug", "url", "days": [...]}]}
std::string tallies_json(const PublishedTallies &tallies);

} // namespace verdict::open_data
