// CPU time the costliest answers may take (a search over a large site, a share card drawn):
// each client (its network) has a bucket of milliseconds that refills at a steady rate, and
// all clients together have one more, so neither one client nor many together can keep the
// cores busy with them while every other page stays as fast as ever. The site's bucket is
// shared by recent spend: when it is empty, only the clients who spent more than their fair
// share of it lately are refused, so a few networks flooding use up their own shares and a
// reader who spent little is still answered. Answers given from a cache cost next to
// nothing, so a reader who asks again what others asked is not charged. An answer is charged
// once made, so how many are made at once is bounded too: otherwise a client opening many
// connections would start many before the first was charged.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace verdict {

class CostBudget {
public:
  using Clock = std::chrono::steady_clock;
  // CPU time earned each second, and held at most.
  struct Rates {
    std::chrono::microseconds per_client_per_second;
    std::chrono::microseconds per_client_burst;
    std::chrono::microseconds overall_per_second;
    std::chrono::microseconds overall_burst;
  };
  // Per client: a tenth of a core, in bursts of a second. All together: half of a core, in
  // bursts of two seconds.
  // At once: four per client (beyond that its budget would be spent before it is charged).
  static constexpr Rates kDefaultRates{
      std::chrono::milliseconds(100), std::chrono::milliseconds(1000),
      std::chrono::milliseconds(500), std::chrono::milliseconds(2000)};

  explicit CostBudget(Rates rates = kDefaultRates) : rates_(rates) {}

  static constexpr size_t kAtOncePerClient = 4;
  // At once for the whole site, whoever asks: an answer is charged once made, so without this
  // many clients starting together would each find the site's bucket full and leave it deep
  // in debt (every reader then refused for minutes). Twice a client's, so no one client
  // holds every place.
  static constexpr size_t kAtOnceOverall = 2 * kAtOncePerClient;
  // Of those places, the last ones are kept for clients with no answer in progress: a few
  // networks each holding several cannot take every place from a reader asking for one.
  static constexpr size_t kPlacesKeptForFirstAnswers = 2;

  struct Refusal {
    int wait_seconds; // until the bucket that refused holds time again
    bool whole_site;  // all clients' budget, not this client's
  };
  // Whether `client` may begin a costly answer now: its bucket must hold some time, fewer than
  // kAtOncePerClient of its own be in progress and a place of the site's be free; and when
  // everyone's bucket is empty, its recent spend must be within its fair share. When it may,
  // the answer counts as in progress until `finish` says what it spent, which is then charged.
  std::optional<Refusal> begin(const std::string &client, Clock::time_point now = Clock::now());
  void finish(const std::string &client, std::chrono::nanoseconds spent,
              Clock::time_point now = Clock::now());

  // Clients remembered at most; past it, full buckets (clients who have not spent lately) are
  // forgotten, and if none is full every bucket is.
  static constexpr size_t kMaxClients = 100000;

private:
  struct Bucket {
    double held_ms = 0; // may go below zero: an answer is charged once it is made
    Clock::time_point filled_at{};
    size_t in_progress = 0;
    double recent_ms = 0; // what it spent lately, fading (fade)
    Clock::time_point faded_at{};
  };
  // What all clients spent lately: the sum of their recent spends, and of their squares.
  struct Spent {
    double sum_ms = 0;
    double squares = 0;
    Clock::time_point faded_at{};
  };
  void refill(Bucket &bucket, double per_second_ms, double burst_ms, Clock::time_point now);
  static int seconds_until_positive(const Bucket &bucket, double per_second_ms);
  double fading(Clock::time_point since, Clock::time_point now) const;
  void fade(Bucket &bucket, Clock::time_point now);
  void charge_recent(Bucket &bucket, double ms, Clock::time_point now);
  void forget(const Bucket &bucket);
  bool over_fair_share(const Bucket &bucket) const;

  Rates rates_;
  std::mutex mutex_;
  Bucket overall_; // full at the first request (refill)
  Spent everyone_;
  std::unordered_map<std::string, Bucket> clients_;
};

} // namespace verdict
