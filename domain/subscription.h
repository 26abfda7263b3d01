// The weekly digest's rules, as pure functions with their tables: how often a confirmation
// mail may go to one address, how long its link lives, how far back `verdict digest --since`
// looks, and what makes two digests the same one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace verdict {

// A confirmation link works for 48 hours after its mail is made.
constexpr int64_t kConfirmationLifetimeSeconds = 48 * 3600;

// Seconds an address must wait for another confirmation mail, after `sent` of them since it
// last confirmed (so the form cannot be used to mail-bomb someone):
//   sent | wait
//   0    | none
//   1    | 5 minutes
//   2    | 10 minutes
//   n    | 5 minutes × 2^(n−1), at most a day
int64_t confirmation_resend_wait(int64_t sent);

// `--since`: "7d" (days) or "36h" (hours) → the whole days the digest covers, today being one
// of them; hours are rounded up to days, since a comparison's publish date has no time. From
// 1 to 366 days; empty for anything else.
std::optional<int> digest_days(std::string_view since);

// A digest is the set of comparisons it holds: a rerun with the same --since a minute later
// finds the same ones and so has the same identity, and its sends are recorded against it.
// The ids' order does not matter.
std::string digest_identity(std::vector<int64_t> comparison_ids);

} // namespace verdict
