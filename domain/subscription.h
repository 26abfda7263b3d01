// The weekly digest's rules, as pure functions with their tables: how often a confirmation
// mail may go to one address, how long its link lives, when a mail that keeps failing is given
// up, and how far back `verdict digest --since` looks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace verdict {

// A confirmation link works for 48 hours after its mail is made.
constexpr int64_t kConfirmationLifetimeSeconds = 48 * 3600;

// A confirmation mail the SMTP server refuses for good (a 5xx reply) is given up at once; one
// that fails otherwise is tried again (app/confirmation_mailer.h: 1, 2, 4… minutes apart, at
// most an hour), and given up after this many tries, about two days of them: a sign-up made
// while the mail server is down still gets its mail once it is back, and a mail no server will
// ever take stops being tried. Signing up again owes it anew.
constexpr int64_t kConfirmationAttempts = 50;

// A digest's send the SMTP server refuses for good (5xx) is given up at once; one it refuses
// for now (4xx), or that cannot be composed, is owed again to the next run, and given up after
// this many, so one address cannot hold back the next digest for ever. A server that cannot
// be reached counts for nothing: the send is simply owed again.
constexpr int64_t kDigestSendAttempts = 5;

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

} // namespace verdict
