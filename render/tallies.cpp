#include "render/tallies.h"

#include <nlohmann/json.hpp>

#include "domain/csv.h"
#include "domain/numbers.h"
#include "domain/slugs.h"

namespace verdict::open_data {

namespace {

using json = nlohmann::ordered_json;

constexpr const char *kDefinition =
    "Each target's standing at the end of each UTC day on which the vote log has an entry for "
    "it, replaying the log in leaf order: a voter's last entry on a target is their vote, and a "
    "withdrawn vote no longer stands. cast: votes standing; set_aside: those the counting rule "
    "set aside, by reason; counted: the rest, which the pages count; ships and skips (a tool) "
    "or low_picks and high_picks (a pair, by tool id) among counted; percents as the pages "
    "round them, of counted. An entry dated before an earlier entry of its target counts in "
    "that entry's day.";

// The whole percent of `part` in `total`, as the pages show it; nothing without a total.
json percent(int64_t part, int64_t total) {
  return total ? json(whole_percent(part, total)) : json(nullptr);
}

std::string csv_percent(int64_t part, int64_t total) {
  return total ? std::to_string(whole_percent(part, total)) : "";
}

std::string target_url(const VoteTarget &target, const std::string &slug) {
  if (slug.empty()) return "";
  return (target.pair ? "/compare/" : "/tools/") + slug;
}

json day_json(const VoteTarget &target, const DayTally &day) {
  json out = {
      {"day", day.day},
      {"cast", day.cast()},
      {"counted", day.counted()},
      {"set_aside", {{"network", day.set_aside.network}, {"too_fast", day.set_aside.too_fast}}}};
  if (target.pair) {
    out["low_picks"] = day.first;
    out["high_picks"] = day.second;
    out["low_percent"] = percent(day.first, day.counted());
    out["high_percent"] = percent(day.second, day.counted());
  } else {
    out["ships"] = day.first;
    out["skips"] = day.second;
    out["ship_percent"] = percent(day.first, day.counted());
  }
  return out;
}

} // namespace

std::string target_slug(const VoteTarget &target, const std::map<int64_t, std::string> &slugs) {
  const auto low = slugs.find(target.low), high = slugs.find(target.high);
  if (low == slugs.end() || high == slugs.end()) return "";
  return target.pair ? pair_slug(low->second, high->second) : low->second;
}

std::string tallies_csv(const PublishedTallies &tallies) {
  std::string csv = "day,target,slug,cast,counted,set_aside_network,set_aside_too_fast,ships,"
                    "skips,ship_percent,low_picks,high_picks,low_percent,high_percent\r\n";
  for (const auto &[target, days] : tallies.targets) {
    const auto code = csv_field(vote_target_code(target));
    const auto slug = csv_field(target_slug(target, tallies.slugs));
    for (const auto &day : days) {
      const auto n = [](int64_t value) { return std::to_string(value); };
      const auto sides =
          n(day.first) + "," + n(day.second) + "," + csv_percent(day.first, day.counted());
      csv += csv_field(day.day) + "," + code + "," + slug + "," + n(day.cast()) + "," +
             n(day.counted()) + "," + n(day.set_aside.network) + "," + n(day.set_aside.too_fast) +
             "," +
             (target.pair ? ",,," + sides + "," + csv_percent(day.second, day.counted())
                          : sides + ",,,,") +
             "\r\n";
    }
  }
  return csv;
}

std::string tallies_json(const PublishedTallies &tallies) {
  json targets = json::array();
  for (const auto &[target, days] : tallies.targets) {
    const auto slug = target_slug(target, tallies.slugs);
    json out = {{"target", vote_target_code(target)},
                {"kind", target.pair ? "pair" : "tool"},
                {"slug", slug.empty() ? json(nullptr) : json(slug)},
                {"url", slug.empty() ? json(nullptr) : json(target_url(target, slug))}};
    json rows = json::array();
    for (const auto &day : days)
      rows.push_back(day_json(target, day));
    out["days"] = std::move(rows);
    targets.push_back(std::move(out));
  }
  const json out = {{"licence", kTalliesLicence},
                    {"licence_url", kTalliesLicenceUrl},
                    {"definition", kDefinition},
                    {"log_entries", tallies.log_entries},
                    {"targets", std::move(targets)}};
  return out.dump(2) + "\n";
}

} // namespace verdict::open_data
