// Events remembered per key for a sliding window, in bounded memory: what the sign-in throttle
// counts failures in (auth/sign_in_throttle.h) and what confirmation mails are rationed by
// (auth/confirmation_rations.h). Only the newest `kept_per_key` events of a key are kept, since
// no limit above that is ever asked about; and at most `max_keys` keys: past that, keys whose
// events have all left the window are forgotten, and if every one is still live (a flood of
// distinct names) all are, which is the bounded choice. Not thread-safe: its owner locks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>

namespace verdict {

template <class TimePoint> class RecentEvents {
public:
  using Duration = typename TimePoint::duration;

  RecentEvents(Duration window, size_t kept_per_key, size_t max_keys)
      : window_(window), kept_per_key_(kept_per_key), max_keys_(max_keys) {}

  // How long until `key` has fewer than `limit` events in the window; zero when it has now.
  Duration wait(const std::string &key, size_t limit, TimePoint now) const {
    const auto it = events_.find(key);
    if (limit == 0) return window_;
    if (it == events_.end() || it->second.size() < limit) return Duration::zero();
    // Free again once enough of the oldest events have left the window.
    const auto freed_at = it->second[it->second.size() - limit] + window_;
    return freed_at <= now ? Duration::zero() : freed_at - now;
  }

  void add(const std::string &key, TimePoint now) {
    if (events_.size() >= max_keys_ && !events_.count(key)) forget_old(now);
    auto &events = events_[key];
    events.push_back(now);
    while (events.size() > kept_per_key_)
      events.pop_front();
  }

  // Takes back one event of `key` at `at` (one added and then found not to count).
  void take_back(const std::string &key, TimePoint at) {
    const auto it = events_.find(key);
    if (it == events_.end()) return;
    auto &events = it->second;
    if (const auto found = std::find(events.rbegin(), events.rend(), at); found != events.rend())
      events.erase(std::next(found).base());
    if (events.empty()) events_.erase(it);
  }

  void forget(const std::string &key) { events_.erase(key); }

private:
  void forget_old(TimePoint now) {
    std::erase_if(events_, [&](const auto &entry) { return entry.second.back() + window_ <= now; });
    if (events_.size() >= max_keys_) events_.clear();
  }

  Duration window_;
  size_t kept_per_key_;
  size_t max_keys_;
  std::unordered_map<std::string, std::deque<TimePoint>> events_;
};

} // namespace verdict
