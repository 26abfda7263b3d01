// How the site's numbers are made. Pure functions so the rules are testable without a
// database and identical wherever a number is shown (pages, badges, API).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace verdict {

// part / total as a whole percent, rounded half up: 3 of 4 -> 75, 2 of 3 -> 67, 1 of 8 -> 13.
// total must be positive.
int whole_percent(int64_t part, int64_t total);

struct PercentInterval {
  int low;
  int high;
};

// 95% Wilson score interval for a proportion, in whole percents (floor of the low end,
// ceiling of the high end, so the printed interval never claims more than the data).
PercentInterval wilson_interval(int64_t successes, int64_t total);
// The low end of that interval as a fraction (0 with no votes): what a list sorts by, so 1 of 1
// never outranks 90 of 100 (Evan Miller, "How Not To Sort By Average Rating").
double wilson_lower_bound(int64_t successes, int64_t total);

// Intervals are shown from this many votes on; below it they are too wide to say anything.
constexpr int64_t kMinVotesForInterval = 5;

// "95% interval 40–80%" from kMinVotesForInterval on, and "" below it: the one way every page
// writes an interval, so a reader meets the same words beside every percentage.
std::string interval_phrase(int64_t successes, int64_t total);

// An interval in plain words, for a reader who does not read "95% interval": "95% interval
// 40–80%: we are 95% sure the true share of readers who would ship X is between 40% and 80%",
// with `share_of` naming the share ("of readers who would ship X"); "" below
// kMinVotesForInterval, where no interval is shown.
std::string interval_reading(int64_t successes, int64_t total, std::string_view share_of);

// " · 95% interval 40–80%" to follow a share, or "" when there are too few to show one.
std::string with_interval(int64_t successes, int64_t total);

// "1 vote", "3 votes".
std::string count_phrase(int64_t n, const char *singular, const char *plural);

} // namespace verdict
