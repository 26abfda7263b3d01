// The rations of confirmation mails (domain/subscription.h says what they are and why): per
// mailbox, per domain and per client network, each over a sliding window, in bounded memory.
// A mail is taken from all three rations at once or from none, so a sign-up that is refused
// spends nothing and a flood cannot push its own window forward. Kept in memory, like the
// sign-in throttle: a restart gives every ration back, which only the site's owner can cause,
// and the per-address resend schedule (kept in the database) still holds across it.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "domain/recent_events.h"
#include "domain/subscription.h"

namespace verdict::auth {

class ConfirmationRations {
public:
  struct Limits {
    int64_t per_mailbox = kConfirmationMailsPerMailbox;
    int64_t per_domain = kConfirmationMailsPerDomain;
    int64_t per_network = kConfirmationMailsPerNetwork;
  };
  ConfirmationRations() : ConfirmationRations(Limits{}) {}
  explicit ConfirmationRations(Limits limits);

  // Whether a confirmation mail may go to `email` for a sign-up from `network` at `now`
  // (seconds since 1970); when it may, it is counted against all three rations.
  bool take(std::string_view email, std::string_view network, int64_t now);

  // Keys remembered at most in each table, as for the sign-in throttle.
  static constexpr size_t kMaxKeys = 100000;

private:
  using Time = std::chrono::sys_seconds;
  Limits limits_;
  std::mutex mutex_;
  RecentEvents<Time> by_mailbox_, by_domain_, by_network_;
};

} // namespace verdict::auth
