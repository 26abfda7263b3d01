// The site's cookies: each one's name, the length of its value (lowercase hex), and how long
// a browser keeps it. Read and set in middleware/ alone; named here once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace verdict::cookies {

struct Cookie {
  const char *name;
  size_t hex_length;
  int64_t max_age_seconds; // 0: as long as the session it carries (set where it is made)
};

// A reader's anonymous voter id, so a page shows their own votes: a year.
constexpr Cookie kVoter{"verdict_voter", 32, 365 * 24 * 3600};
// An editor's signed-in session at the desk (its lifetime is the session's).
constexpr Cookie kSession{"verdict_session", 64, 0};
// A browser an editor signed in on before (auth/sign_in_throttle.h gives its lifetime).
constexpr Cookie kKnownDevice{"verdict_device", 48, 0};

} // namespace verdict::cookies
