// The wall clock, read in one place: today's date and the time now, both in UTC. The server
// and each command make one Clock where they start and give it to everything that stamps or
// judges a time (the App, its writes, the mailer, the log's clock); a test gives its own.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace verdict {

// Today's date in UTC, YYYY-MM-DD.
std::string utc_today();
// The time now in seconds since 1970.
int64_t unix_now();
// The same in milliseconds (the time a write is taken at: domain/writes.h WriteContext).
int64_t unix_now_ms();
// The UTC date (YYYY-MM-DD) at `at_ms` milliseconds since 1970.
std::string utc_date_at(int64_t at_ms);

// The site's time: the system's, or a test's own (one that stands still, or moves on when told).
class Clock {
public:
  Clock() : now_ms_(unix_now_ms) {}
  explicit Clock(std::function<int64_t()> now_ms) : now_ms_(std::move(now_ms)) {}
  // A test's clock that reads whole seconds.
  static Clock in_seconds(std::function<int64_t()> seconds) {
    return Clock([seconds = std::move(seconds)] { return seconds() * 1000; });
  }

  int64_t now_ms() const { return now_ms_(); }     // milliseconds since 1970
  int64_t now() const { return now_ms_() / 1000; } // seconds since 1970

private:
  std::function<int64_t()> now_ms_;
};

} // namespace verdict
