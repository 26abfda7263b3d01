#include "domain/numbers.h"

#include <cmath>
#include <utility>

namespace verdict {

int whole_percent(int64_t part, int64_t total) {
  return static_cast<int>((part * 200 + total) / (total * 2));
}

//   p̂ = s/n, z = 1.96
//   centre = (p̂ + z²/2n) / (1 + z²/n)
//   margin = z·sqrt(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n)
namespace {

// The 95% Wilson score interval's centre and half-width, as fractions.
std::pair<double, double> wilson(int64_t successes, int64_t total) {
  const double n = static_cast<double>(total);
  const double p = static_cast<double>(successes) / n;
  const double z = 1.96;
  const double denominator = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denominator;
  const double margin = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator;
  return {centre, margin};
}

} // namespace

PercentInterval wilson_interval(int64_t successes, int64_t total) {
  const auto [centre, margin] = wilson(successes, total);
  const double low = std::floor(std::max(0.0, centre - margin) * 100 + 1e-9);
  const double high = std::ceil(std::min(1.0, centre + margin) * 100 - 1e-9);
  return {static_cast<int>(low), static_cast<int>(high)};
}

double wilson_lower_bound(int64_t successes, int64_t total) {
  if (total <= 0) return 0.0;
  const auto [centre, margin] = wilson(successes, total);
  return std::max(0.0, centre - margin);
}

std::string interval_phrase(int64_t successes, int64_t total) {
  if (total < kMinVotesForInterval) return {};
  const auto interval = wilson_interval(successes, total);
  return "95% interval " + std::to_string(interval.low) + "–" + std::to_string(interval.high) + "%";
}

std::string interval_reading(int64_t successes, int64_t total, std::string_view share_of) {
  if (total < kMinVotesForInterval) return {};
  const auto interval = wilson_interval(successes, total);
  return interval_phrase(successes, total) + ": we are 95% sure the true share " +
         std::string(share_of) + " is between " + std::to_string(interval.low) + "% and " +
         std::to_string(interval.high) + "%";
}

std::string with_interval(int64_t successes, int64_t total) {
  const auto phrase = interval_phrase(successes, total);
  return phrase.empty() ? phrase : " · " + phrase;
}

std::string count_phrase(int64_t n, const char *singular, const char *plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

} // namespace verdict
