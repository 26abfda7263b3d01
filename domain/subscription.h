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
// How long that is, as readers are told it ("48 hours").
inline std::string confirmation_lifetime_text() {
  return std::to_string(kConfirmationLifetimeSeconds / 3600) + " hours";
}

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

// The resend schedule above is per address, but one inbox has many addresses
// (victim+1@example.com, victim+2@…; v.ictim@gmail.com), and anyone may post the form. So
// confirmation mails are also rationed, over a sliding window each (auth/confirmation_rations.h):
//   per mailbox (mailbox_of):  2 a day — the first mail and one resend, however it is spelled;
//   per domain, per network:   5 an hour — one client network cannot flood a domain's mail
//                              servers (or a catch-all domain's one inbox) with made-up names;
//   per client network:       10 an hour — one network (domain/counting.h's network_of) cannot
//                              mail a crowd of strangers, yet an office can sign up together.
// A domain is not rationed as one mailbox: its ration is each client network's own, so
// strangers signing up made-up names at a large provider (gmail.com) use up their own share
// and no one else's, and a reader anywhere else still gets their mail. The trade-off: many
// networks together can still mail a catch-all domain's one inbox five times an hour each.
// A sign-up past the mailbox's ration is answered as any other (the form never says how much
// mail an address was sent); past its own network's, its sender is told so, with when to try
// again (429). Either way nothing is kept (Store::request_subscription).
constexpr int64_t kConfirmationMailsPerMailbox = 2;
constexpr int64_t kConfirmationMailboxWindowSeconds = 24 * 3600;
constexpr int64_t kConfirmationMailsPerDomainPerNetwork = 5;
constexpr int64_t kConfirmationMailsPerNetwork = 10;
constexpr int64_t kConfirmationDomainAndNetworkWindowSeconds = 3600;

// What a sender whose sign-up their own network's share held back is told: which share, and
// when to try again, "after 2026-11-27 14:05 UTC (in 23 minutes)". `domain` is the address's
// domain when that domain's share from their network held it, else empty.
std::string senders_share_used_text(std::string_view domain, int64_t now, int64_t room_at);

// The inbox an address reaches, as one key: lower case, without a +tag in the local part,
// and for Gmail (gmail.com, googlemail.com, which ignore dots) without the local part's dots
// and under gmail.com. "V.I.Ctim+news@GoogleMail.com" → "victim@gmail.com".
std::string mailbox_of(std::string_view email);
// The domain of the mailbox above: "gmail.com" for that one.
std::string mailbox_domain_of(std::string_view email);

// `--since`: "7d" (days) or "36h" (hours) → the whole days the digest covers, today being one
// of them; hours are rounded up to days, since a comparison's publish date has no time. From
// 1 to 366 days; empty for anything else.
std::optional<int> digest_days(std::string_view since);

} // namespace verdict
