// Dates as the site writes them (YYYY-MM-DD, UTC) and the rule for when a dated fact has gone
// stale. Pure: "today" is always passed in (domain/clock.h reads the wall clock), so every
// page of one request, and every test, agrees on which day it is.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace verdict {

// A fact checked more than this many days before today (a tool's pricing) is shown to readers
// as possibly out of date.
constexpr int64_t kStaleAfterDays = 90;

// The days from 1970-01-01 to `date` (YYYY-MM-DD), negative before it.
int64_t day_number(const std::string &date);

// Whether a fact checked on `checked_on` is stale on `today`: more than kStaleAfterDays days
// between them. Both are YYYY-MM-DD; a date of any other length (none given) is never stale.
bool is_stale(const std::string &checked_on, const std::string &today);

// Whether a comparison dated `published_on` is one readers see on `today`: it has a date and
// the date has come (a later one schedules it). store/queries.h's PUBLISHED_BY_TODAY is the
// same rule in SQL.
bool readers_see_on(const std::string &published_on, const std::string &today);

// A moment (seconds since 1970) as readers are shown it: "2026-11-24 16:05 UTC".
std::string utc_time_of(int64_t seconds);
// An age as an owner reads it: "12 min", "5 h", "3 days".
std::string age_in_words(int64_t seconds);
// The same as RFC 3339 writes it, for Atom and machines: "2026-11-24T16:05:00Z".
std::string rfc3339_utc(int64_t seconds);
// A date as YYYY-MM-DD (years 0 to 9999), made by arithmetic: no time-zone lock taken.
std::string date_text(const std::chrono::year_month_day &date);
// A moment written so (as the database writes the edit log's times) as readers are shown it,
// like utc_time_of; any other text as it is.
std::string utc_time_shown(const std::string &rfc3339);

} // namespace verdict
