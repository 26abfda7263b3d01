#include "domain/clock.h"

#include <chrono>

#include "domain/dates.h"

namespace verdict {

std::string utc_today() {
  // By arithmetic (domain/dates.h): every vote asks, and gmtime_r would take glibc's
  // time-zone lock.
  return date_text(std::chrono::year_month_day{
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())});
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
