#include "domain/clock.h"

#include <chrono>

#include "domain/dates.h"

namespace verdict {

std::string utc_today() {
  return utc_date_at(unix_now_ms());
}

// By arithmetic (domain/dates.h): every vote asks, and gmtime_r would take glibc's time-zone
// lock.
std::string utc_date_at(int64_t at_ms) {
  return date_text(std::chrono::year_month_day{std::chrono::floor<std::chrono::days>(
      std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(at_ms)))});
}

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace verdict
