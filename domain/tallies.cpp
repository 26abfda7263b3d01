#include "domain/tallies.h"

#include <algorithm>
#include <charconv>

#include "domain/counting.h"
#include "domain/dates.h"

namespace verdict {

namespace {

std::optional<int64_t> id_in(std::string_view text) {
  int64_t id = 0;
  const auto *end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, id);
  if (error != std::errc() || stop != end || id <= 0) return std::nullopt;
  return id;
}

// Adds (+1) or takes away (-1) one vote's part in a standing.
void count(DayTally &tally, bool first, const std::optional<SetAsideReason> &set_aside,
           int64_t by) {
  if (!set_aside)
    (first ? tally.first : tally.second) += by;
  else
    (*set_aside == SetAsideReason::network ? tally.set_aside.network : tally.set_aside.too_fast) +=
        by;
}

} // namespace

std::optional<VoteTarget> vote_target_from_code(std::string_view code) {
  if (code.starts_with("tool:")) {
    const auto id = id_in(code.substr(5));
    if (!id) return std::nullopt;
    return VoteTarget{false, *id, *id};
  }
  if (!code.starts_with("pair:")) return std::nullopt;
  const auto ids = code.substr(5);
  const auto dash = ids.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto low = id_in(ids.substr(0, dash)), high = id_in(ids.substr(dash + 1));
  if (!low || !high || *low >= *high) return std::nullopt;
  return VoteTarget{true, *low, *high};
}

std::string vote_target_code(const VoteTarget &target) {
  return target.pair ? "pair:" + std::to_string(target.low) + "-" + std::to_string(target.high)
                     : "tool:" + std::to_string(target.low);
}

ToolSlugs::ToolSlugs(std::vector<std::pair<int64_t, std::string>> by_id)
    : by_id_(std::move(by_id)) {
  std::sort(by_id_.begin(), by_id_.end());
}

const std::string *ToolSlugs::find(int64_t id) const {
  const auto found =
      std::lower_bound(by_id_.begin(), by_id_.end(), id,
                       [](const auto &entry, int64_t key) { return entry.first < key; });
  return found != by_id_.end() && found->first == id ? &found->second : nullptr;
}

VoteTarget tool_target(int64_t tool_id) {
  return {false, tool_id, tool_id};
}

VoteTarget pair_target(int64_t a_id, int64_t b_id) {
  return {true, std::min(a_id, b_id), std::max(a_id, b_id)};
}

DayTally tool_standing(const Tool &tool) {
  return {{},
          tool.community.ships,
          tool.community.total - tool.community.ships,
          tool.community_set_aside};
}

DayTally pair_standing(int64_t a_id, int64_t b_id, const PairTally &picks) {
  const bool a_is_low = a_id < b_id;
  return {{}, a_is_low ? picks.a : picks.b, a_is_low ? picks.b : picks.a, picks.set_aside};
}

void TallyReplay::add(const VoteEvent &event) {
  auto &target = targets_[event.target];
  // A day's row is kept once the target's entries move past it; an entry dated before the
  // latest one counts in the latest one's day.
  if (target.now.day.empty())
    target.now.day = event.day;
  else if (event.day > target.now.day) {
    target.days.push_back(target.now);
    target.now.day = event.day;
  }
  // A re-keyed vote leaves its old pseudonym as a withdrawal would, and stands again below.
  if (!event.was.empty())
    if (const auto before = target.votes.find(event.was); before != target.votes.end()) {
      count(target.now, before->second.first, before->second.set_aside, -1);
      target.votes.erase(before);
    }
  const auto standing = target.votes.find(event.voter);
  if (standing != target.votes.end()) {
    count(target.now, standing->second.first, standing->second.set_aside, -1);
    if (!event.first) target.votes.erase(standing);
  }
  if (!event.first) return;
  count(target.now, *event.first, event.set_aside, +1);
  target.votes[event.voter] = Vote{*event.first, event.set_aside};
}

DayTally TallyReplay::standing(const VoteTarget &target) const {
  const auto found = targets_.find(target);
  return found == targets_.end() ? DayTally{} : found->second.now;
}

std::string CountingRuleCheck::add(const VoteEvent &event) {
  auto &votes = votes_[event.target];
  if (!event.was.empty()) votes.erase(event.was);
  const auto before = votes.find(event.voter);
  const Vote was = before == votes.end() ? Vote{} : before->second;
  const bool counted_now = event.first && !event.set_aside;
  if (event.first)
    votes[event.voter] = {counted_now, event.first, counted_now ? event.place : std::string()};
  else if (before != votes.end())
    votes.erase(before);
  return event.names_places ? check_place(event, was, counted_now)
                            : check_network(event, was, counted_now);
}

std::string CountingRuleCheck::check_place(const VoteEvent &event, const Vote &was,
                                           bool counted_now) {
  auto &holders = holders_[event.target];
  // The place the voter's vote held frees, unless this entry holds it again.
  if (was.counted && !was.place.empty()) {
    const auto held = holders.find(was.place);
    if (held != holders.end() && held->second == event.voter) holders.erase(held);
  }
  if (!counted_now) return {};
  const auto code = vote_target_code(event.target);
  if (event.place.empty()) {
    if (event.rekeyed || (was.counted && was.place.empty())) return {}; // counted before the rule
    return code + ": a counted vote that names no place of its network";
  }
  const auto [holder, free] = holders.try_emplace(event.place, event.voter);
  if (free || holder->second == event.voter) return {};
  return code + ": place " + event.place + " held by two votes at once, up to " + event.day +
         ", where the rule gives each place one";
}

std::string CountingRuleCheck::check_network(const VoteEvent &event, const Vote &was,
                                             bool counted_now) {
  if (!counted_now || !event.was.empty() || event.network.empty()) return {};
  // A counted vote sent again unchanged needs no place.
  if (was.counted && was.first == event.first) return {};
  const auto today = day_number(event.day);
  const auto in_window = [today](int64_t day) { return today - day < kCountingWindowDays; };
  auto &network = places_[{event.target, event.network}];
  const auto own = network.find(event.voter);
  if (own != network.end() && in_window(own->second)) return {}; // holds a place
  network[event.voter] = today;
  const auto holding = std::count_if(network.begin(), network.end(),
                                     [&](const auto &voter) { return in_window(voter.second); });
  if (holding <= kCountedVotersPerNetwork) return {};
  return vote_target_code(event.target) + ": voter " + std::to_string(holding) +
         " of one network (" + event.network + ") counted within " +
         std::to_string(kCountingWindowDays) + " days up to " + event.day + ", where the rule " +
         "counts " + std::to_string(kCountedVotersPerNetwork);
}

std::vector<TargetTallies> TallyReplay::finish() && {
  std::vector<TargetTallies> out;
  out.reserve(targets_.size());
  for (auto &[code, target] : targets_) {
    target.days.push_back(target.now);
    out.push_back({code, std::move(target.days)});
  }
  return out;
}

} // namespace verdict
