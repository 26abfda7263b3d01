// The rations of confirmation mails (domain/subscription.h says what they are and why): per
// mailbox, per domain from each client network, and per client network, each over a sliding
// window, in bounded memory.
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
    int64_t per_domain_per_network = kConfirmationMailsPerDomainPerNetwork;
    int64_t per_network = kConfirmationMailsPerNetwork;
  };
  ConfirmationRations() : ConfirmationRations(Limits{}) {}
  explicit ConfirmationRations(Limits limits);

  // Which ration held a mail back.
  enum class HeldBy { nothing, mailbox, domain_from_network, network };
  struct Taken {
    HeldBy held_by = HeldBy::nothing;
    int64_t room_at = 0; // when every ration that held it has room again (seconds since 1970)
    bool mail() const { return held_by == HeldBy::nothing; }
    // Held back by the sender's own network's share, which the sender may be told of.
    bool held_by_senders_share() const {
      return held_by == HeldBy::domain_from_network || held_by == HeldBy::network;
    }
  };
  // Whether a confirmation mail may go to `email` for a sign-up from `network` at `now`
  // (seconds since 1970); when it may, it is counted against all three rations.
  Taken take(std::string_view email, std::string_view network, int64_t now);

  // Sign-ups whose mail the rations held back since the server started, by ration, for the
  // desk (none of them kept anything).
  struct HeldBack {
    int64_t mailbox = 0, domain_from_network = 0, network = 0;
    int64_t total() const { return mailbox + domain_from_network + network; }
  };
  HeldBack held_back();

  // Keys remembered at most in each table, as for the sign-in throttle.
  static constexpr size_t kMaxKeys = 100000;

private:
  using Time = std::chrono::sys_seconds;
  Limits limits_;
  std::mutex mutex_;
  RecentEvents<Time> by_mailbox_, by_domain_from_network_, by_network_;
  HeldBack held_back_;
};

} // namespace verdict::auth
