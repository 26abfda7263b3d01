#include "auth/confirmation_rations.h"

#include <algorithm>

namespace verdict::auth {

namespace {

size_t kept(int64_t limit) {
  return static_cast<size_t>(std::max<int64_t>(limit, 1));
}

} // namespace

ConfirmationRations::ConfirmationRations(Limits limits)
    : limits_(limits), by_mailbox_(std::chrono::seconds(kConfirmationMailboxWindowSeconds),
                                   kept(limits.per_mailbox), kMaxKeys),
      by_domain_from_network_(std::chrono::seconds(kConfirmationDomainAndNetworkWindowSeconds),
                              kept(limits.per_domain_per_network), kMaxKeys),
      by_network_(std::chrono::seconds(kConfirmationDomainAndNetworkWindowSeconds),
                  kept(limits.per_network), kMaxKeys) {}

ConfirmationRations::Taken ConfirmationRations::take(std::string_view email,
                                                     std::string_view network, int64_t now) {
  const Time at{std::chrono::seconds(now)};
  const auto mailbox = mailbox_of(email);
  const std::string from(network);
  // A domain's share is each network's own: "gmail.com from 203.0.113.0/24".
  const auto domain_from = mailbox_domain_of(email) + " from " + from;
  std::lock_guard lock(mutex_);
  const auto mailbox_wait = by_mailbox_.wait(mailbox, kept(limits_.per_mailbox), at);
  const auto domain_wait =
      by_domain_from_network_.wait(domain_from, kept(limits_.per_domain_per_network), at);
  const auto network_wait = by_network_.wait(from, kept(limits_.per_network), at);
  Taken taken;
  const auto held = [&](HeldBy by, auto wait, int64_t &count) {
    if (wait.count() <= 0 || taken.held_by != HeldBy::nothing) return;
    taken.held_by = by;
    ++count;
  };
  // The sender's own share first: it is theirs to be told of. When the sender is told when
  // to try again, the time is their share's alone, so it says nothing of the mailbox's mail.
  held(HeldBy::network, network_wait, held_back_.network);
  held(HeldBy::domain_from_network, domain_wait, held_back_.domain_from_network);
  held(HeldBy::mailbox, mailbox_wait, held_back_.mailbox);
  if (!taken.mail()) {
    const auto longest = taken.held_by_senders_share()
                             ? std::max(domain_wait, network_wait)
                             : std::max({mailbox_wait, domain_wait, network_wait});
    taken.room_at = now + std::chrono::ceil<std::chrono::seconds>(longest).count();
    return taken;
  }
  by_mailbox_.add(mailbox, at);
  by_domain_from_network_.add(domain_from, at);
  by_network_.add(from, at);
  return taken;
}

ConfirmationRations::HeldBack ConfirmationRations::held_back() {
  std::lock_guard lock(mutex_);
  return held_back_;
}

} // namespace verdict::auth
