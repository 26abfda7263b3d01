#include "middleware/cost_budget.h"

#include <algorithm>
#include <cmath>

namespace verdict {

namespace {

double in_ms(std::chrono::microseconds time) {
  return std::chrono::duration<double, std::milli>(time).count();
}

} // namespace

void CostBudget::refill(Bucket &bucket, double per_second_ms, double burst_ms,
                        Clock::time_point now) {
  if (bucket.filled_at == Clock::time_point{}) {
    bucket = {burst_ms, now}; // a new client starts with a full bucket
    return;
  }
  const auto elapsed = std::chrono::duration<double>(now - bucket.filled_at).count();
  bucket.held_ms = std::min(burst_ms, bucket.held_ms + std::max(0.0, elapsed) * per_second_ms);
  bucket.filled_at = now;
}

int CostBudget::seconds_until_positive(const Bucket &bucket, double per_second_ms) {
  if (per_second_ms <= 0) return 60;
  return std::max(1, static_cast<int>(std::ceil((1 - bucket.held_ms) / per_second_ms)));
}

std::optional<CostBudget::Refusal> CostBudget::begin(const std::string &client,
                                                     Clock::time_point now) {
  const double client_rate = in_ms(rates_.per_client_per_second);
  const double client_burst = in_ms(rates_.per_client_burst);
  const double overall_rate = in_ms(rates_.overall_per_second);
  const double overall_burst = in_ms(rates_.overall_burst);
  std::lock_guard lock(mutex_);
  refill(overall_, overall_rate, overall_burst, now);
  if (clients_.size() >= kMaxClients) {
    for (auto it = clients_.begin(); it != clients_.end();) {
      refill(it->second, client_rate, client_burst, now);
      const bool idle = it->second.held_ms >= client_burst && it->second.in_progress == 0;
      it = idle ? clients_.erase(it) : std::next(it);
    }
    if (clients_.size() >= kMaxClients) clients_.clear();
  }
  auto &bucket = clients_[client];
  refill(bucket, client_rate, client_burst, now);
  if (bucket.held_ms <= 0) return Refusal{seconds_until_positive(bucket, client_rate), false};
  if (bucket.in_progress >= kAtOncePerClient) return Refusal{1, false};
  if (overall_.held_ms <= 0) return Refusal{seconds_until_positive(overall_, overall_rate), true};
  if (overall_.in_progress >= kAtOnceOverall) return Refusal{1, true};
  ++bucket.in_progress;
  ++overall_.in_progress;
  return std::nullopt;
}

void CostBudget::finish(const std::string &client, std::chrono::nanoseconds spent,
                        Clock::time_point now) {
  const double ms = std::chrono::duration<double, std::milli>(spent).count();
  std::lock_guard lock(mutex_);
  refill(overall_, in_ms(rates_.overall_per_second), in_ms(rates_.overall_burst), now);
  overall_.held_ms -= ms;
  if (overall_.in_progress > 0) --overall_.in_progress;
  auto &bucket = clients_[client];
  if (bucket.in_progress > 0) --bucket.in_progress;
  refill(bucket, in_ms(rates_.per_client_per_second), in_ms(rates_.per_client_burst), now);
  bucket.held_ms -= ms;
}

} // namespace verdict
