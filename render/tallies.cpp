#include "render/tallies.h"

#include <atomic>
#include <charconv>

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

std::string target_slug(const VoteTarget &target, const ToolSlugs &slugs) {
  const auto *low = slugs.find(target.low), *high = slugs.find(target.high);
  if (!low || !high) return "";
  return target.pair ? pair_slug(*low, *high) : *low;
}

namespace {
// The size of the last file made: the next is about as large, so its text is allocated once
// instead of copied as it doubles (megabytes on a large site).
std::atomic<size_t> last_csv_size{0};
} // namespace

TalliesCsv::TalliesCsv(std::shared_ptr<const ToolSlugs> slugs) : slugs_(std::move(slugs)) {
  csv_.reserve(last_csv_size.load(std::memory_order_relaxed) * 9 / 8);
  csv_ = "day,target,slug,cast,counted,set_aside_network,set_aside_too_fast,ships,skips,"
         "ship_percent,low_picks,high_picks,low_percent,high_percent\r\n";
}

void TalliesCsv::add(const VoteTarget &target, const DayTally &day) {
  if (target_ != target) {
    target_ = target;
    named_ = ',';
    append_csv_field(named_, vote_target_code(target));
    named_ += ',';
    append_csv_field(named_, target_slug(target, *slugs_));
    named_ += ',';
  }
  // Appended in place: a large site's file is tens of thousands of rows.
  const auto number = [this](int64_t value) {
    char digits[24];
    csv_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
  };
  const auto percent = [&](int64_t part, int64_t total) {
    if (total) number(whole_percent(part, total));
  };
  append_csv_field(csv_, day.day);
  csv_ += named_;
  for (const auto value :
       {day.cast(), day.counted(), day.set_aside.network, day.set_aside.too_fast}) {
    number(value);
    csv_ += ',';
  }
  if (target.pair) csv_ += ",,,";
  number(day.first);
  csv_ += ',';
  number(day.second);
  csv_ += ',';
  percent(day.first, day.counted());
  if (target.pair) {
    csv_ += ',';
    percent(day.second, day.counted());
  } else {
    csv_ += ",,,,";
  }
  csv_ += "\r\n";
}

std::string TalliesCsv::text() && {
  last_csv_size.store(csv_.size(), std::memory_order_relaxed);
  return std::move(csv_);
}

std::string tallies_json(const PublishedTallies &tallies) {
  json targets = json::array();
  for (const auto &[target, days] : tallies.targets) {
    const auto slug = target_slug(target, *tallies.slugs);
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
