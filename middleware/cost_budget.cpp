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

// Recent spend fades by e each burst's worth of the site's refill time (burst ÷ rate, 4 s by
// default): a client spending steadily has the rate it spends × that time, and all clients
// together, spending what the site earns, have one burst.
double CostBudget::fading(Clock::time_point since, Clock::time_point now) const {
  if (since == Clock::time_point{} || now <= since) return 1;
  const double rate = in_ms(rates_.overall_per_second);
  const double burst = in_ms(rates_.overall_burst);
  if (rate <= 0) return 1; // the site earns nothing back: what was spent stays spent
  if (burst <= 0) return 0;
  return std::exp(-std::chrono::duration<double>(now - since).count() * rate / burst);
}

// Brings a client's recent spend, and everyone's, to `now`: each fades by the same factor, so
// everyone's sum stays the sum of the clients' (and the sum of squares, by the square).
void CostBudget::fade(Bucket &bucket, Clock::time_point now) {
  const double everyone = fading(everyone_.faded_at, now);
  everyone_.sum_ms *= everyone;
  everyone_.squares *= everyone * everyone;
  everyone_.faded_at = std::max(everyone_.faded_at, now);
  bucket.recent_ms *= fading(bucket.faded_at, now);
  bucket.faded_at = std::max(bucket.faded_at, now);
}

void CostBudget::charge_recent(Bucket &bucket, double ms, Clock::time_point now) {
  fade(bucket, now);
  const double before = bucket.recent_ms;
  bucket.recent_ms += ms;
  everyone_.sum_ms += ms;
  everyone_.squares += bucket.recent_ms * bucket.recent_ms - before * before;
}

// A client forgotten takes its recent spend out of everyone's.
void CostBudget::forget(const Bucket &bucket) {
  everyone_.sum_ms = std::max(0.0, everyone_.sum_ms - bucket.recent_ms);
  everyone_.squares = std::max(0.0, everyone_.squares - bucket.recent_ms * bucket.recent_ms);
}

// A client's fair share is the site's burst divided among the clients spending lately, each
// counted by how much it spends: sum² ÷ sum of squares is n for n clients spending alike, and
// near one for one spending much beside many spending little. Those under their shares spend
// less than one burst together, so letting them begin bounds what the site spends still; and
// when everyone together spent more than a burst, the largest spender is always over its share.
bool CostBudget::over_fair_share(const Bucket &bucket) const {
  if (everyone_.squares <= 0) return false;
  // recent > burst ÷ (sum² ÷ squares), without dividing by a sum that may be near zero
  return bucket.recent_ms * everyone_.sum_ms * everyone_.sum_ms >
         in_ms(rates_.overall_burst) * everyone_.squares;
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
      fade(it->second, now);
      const bool idle = it->second.held_ms >= client_burst && it->second.in_progress == 0;
      if (idle) forget(it->second);
      it = idle ? clients_.erase(it) : std::next(it);
    }
    if (clients_.size() >= kMaxClients) {
      clients_.clear();
      everyone_ = {};
    }
  }
  auto &bucket = clients_[client];
  refill(bucket, client_rate, client_burst, now);
  fade(bucket, now);
  if (bucket.held_ms <= 0) return Refusal{seconds_until_positive(bucket, client_rate), false};
  if (bucket.in_progress >= kAtOncePerClient) return Refusal{1, false};
  if (overall_.held_ms <= 0 && over_fair_share(bucket))
    return Refusal{seconds_until_positive(overall_, overall_rate), true};
  const auto places =
      bucket.in_progress == 0 ? kAtOnceOverall : kAtOnceOverall - kPlacesKeptForFirstAnswers;
  if (overall_.in_progress >= places) return Refusal{1, true};
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
  charge_recent(bucket, ms, now);
}

} // namespace verdict
