// Day arithmetic on YYYY-MM-DD dates and the staleness rule (domain/dates.h).
#include "domain/dates.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace verdict {

namespace {

// `value` as `width` decimal digits into `text` at `at` (a date's or a time's field: never
// negative, never wider).
void put_digits(std::string &text, size_t at, int64_t value, size_t width) {
  for (size_t i = width; i-- > 0; value /= 10)
    text[at + i] = static_cast<char>('0' + value % 10);
}

int64_t days_from_civil(int y, unsigned m, unsigned d) { // Howard Hinnant's algorithm
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return int64_t{era} * 146097 + static_cast<int64_t>(doe) - 719468;
}

} // namespace

int64_t day_number(const std::string &date) {
  return days_from_civil(std::stoi(date.substr(0, 4)),
                         static_cast<unsigned>(std::stoi(date.substr(5, 2))),
                         static_cast<unsigned>(std::stoi(date.substr(8, 2))));
}

bool readers_see_on(const std::string &published_on, const std::string &today) {
  return !published_on.empty() && published_on <= today;
}

bool is_stale(const std::string &checked_on, const std::string &today) {
  if (checked_on.size() != 10 || today.size() != 10) return false;
  return day_number(today) - day_number(checked_on) > kStaleAfterDays;
}

namespace {

std::string utc_formatted(int64_t seconds, const char *format) {
  const auto moment = static_cast<time_t>(seconds);
  std::tm parts{};
  gmtime_r(&moment, &parts);
  char text[32];
  std::strftime(text, sizeof text, format, &parts);
  return text;
}

} // namespace

std::string utc_time_of(int64_t seconds) {
  return utc_formatted(seconds, "%Y-%m-%d %H:%M UTC");
}

std::string rfc3339_utc(int64_t seconds) {
  // Arithmetic, not gmtime_r and strftime: every write stamps its time with it, and glibc's
  // gmtime_r takes the process's time-zone lock, which the writer thread would queue on.
  const std::chrono::sys_seconds moment{std::chrono::seconds(seconds)};
  const auto day = std::chrono::floor<std::chrono::days>(moment);
  const std::chrono::hh_mm_ss time{moment - day};
  std::string text = date_text(std::chrono::year_month_day{day}) + "T00:00:00Z";
  put_digits(text, 11, time.hours().count(), 2);
  put_digits(text, 14, time.minutes().count(), 2);
  put_digits(text, 17, time.seconds().count(), 2);
  return text;
}

std::string date_text(const std::chrono::year_month_day &date) {
  std::string text = "0000-00-00";
  put_digits(text, 0, static_cast<int>(date.year()), 4);
  put_digits(text, 5, static_cast<unsigned>(date.month()), 2);
  put_digits(text, 8, static_cast<unsigned>(date.day()), 2);
  return text;
}

std::string utc_time_shown(const std::string &rfc3339) {
  // "2026-11-24T16:05:00Z": the day, the hour and minute, the seconds left out.
  if (rfc3339.size() != 20 || rfc3339[10] != 'T' || rfc3339[19] != 'Z') return rfc3339;
  return rfc3339.substr(0, 10) + " " + rfc3339.substr(11, 5) + " UTC";
}

std::string age_in_words(int64_t seconds) {
  if (seconds < 3600) return std::to_string(std::max<int64_t>(seconds / 60, 0)) + " min";
  if (seconds < 2 * 86400) return std::to_string(seconds / 3600) + " h";
  return std::to_string(seconds / 86400) + " days";
}

} // namespace verdict
