// The site's cookies: each one's name, the length of its value (lowercase hex), and how long
// a browser keeps it. Read and set in middleware/ alone; named here once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace verdict::cookies {

struct Cookie {
  const char *name;
  size_t hex_length;
  int64_t max_age_seconds; // how long a browser keeps it (Max-Age)
};

// A reader's anonymous voter id, so a page shows their own votes: a year.
constexpr Cookie kVoter{"verdict_voter", 32, 365 * 24 * 3600};
// An editor's signed-in session at the desk: a working day, after which they sign in again
// (the session itself ends at the same time).
constexpr Cookie kSession{"verdict_session", 64, 12 * 3600};
// A browser an editor signed in on before, which the sign-in throttle lets through while
// strangers are held back (auth/sign_in_throttle.h): three months.
constexpr Cookie kKnownDevice{"verdict_device", 48, 90 * 24 * 3600};

} // namespace verdict::cookies
