// The wall clock, read in one place: today's date and the time now, both in UTC. The server,
// `verdict digest` and the tests all take their "now" from here (or from a clock a test sets
// on the App), so no other code asks the system for the time.
#pragma once

#include <cstdint>
#include <string>

namespace verdict {

// Today's date in UTC, YYYY-MM-DD.
std::string utc_today();
// The time now in seconds since 1970.
int64_t unix_now();
// The same in milliseconds (the time a write is taken at: domain/writes.h WriteContext).
int64_t unix_now_ms();

} // namespace verdict
