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
      by_domain_(std::chrono::seconds(kConfirmationDomainAndNetworkWindowSeconds),
                 kept(limits.per_domain), kMaxKeys),
      by_network_(std::chrono::seconds(kConfirmationDomainAndNetworkWindowSeconds),
                  kept(limits.per_network), kMaxKeys) {}

bool ConfirmationRations::take(std::string_view email, std::string_view network, int64_t now) {
  const Time at{std::chrono::seconds(now)};
  const auto mailbox = mailbox_of(email), domain = mailbox_domain_of(email);
  const std::string from(network);
  std::lock_guard lock(mutex_);
  if (by_mailbox_.wait(mailbox, kept(limits_.per_mailbox), at).count() > 0 ||
      by_domain_.wait(domain, kept(limits_.per_domain), at).count() > 0 ||
      by_network_.wait(from, kept(limits_.per_network), at).count() > 0)
    return false;
  by_mailbox_.add(mailbox, at);
  by_domain_.add(domain, at);
  by_network_.add(from, at);
  return true;
}

} // namespace verdict::auth
