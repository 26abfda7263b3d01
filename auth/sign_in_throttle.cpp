#include "auth/sign_in_throttle.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "auth/secrets.h"
#include "domain/text.h"

namespace verdict::auth {

namespace {

size_t most_counted(const SignInThrottle::Limits &limits) {
  return std::max({limits.per_account_from_network, limits.per_network, limits.per_account});
}

// "203.0.113.0/24\ned@example.com": an account as seen from one network.
std::string account_from(std::string_view network, std::string_view account) {
  return std::string(network) + "\n" + ascii_lowercase(account);
}

std::string device_message(std::string_view account, const std::string &until) {
  return "known device\n" + ascii_lowercase(account) + "\n" + until;
}

} // namespace

SignInThrottle::SignInThrottle(Limits limits)
    : limits_(limits), by_account_from_network_(limits.window, most_counted(limits), kMaxKeys),
      by_network_(limits.window, most_counted(limits), kMaxKeys),
      by_account_(limits.window, most_counted(limits), kMaxKeys),
      by_device_(limits.window, most_counted(limits), kMaxKeys) {}

SignInThrottle::Wait SignInThrottle::wait_locked(std::string_view network, std::string_view account,
                                                 std::string_view device, Clock::time_point now) {
  Wait longest;
  const auto consider = [&](HeldBy held_by, const RecentEvents<Clock::time_point> &events,
                            const std::string &key, size_t limit) {
    const auto wait = std::chrono::ceil<std::chrono::seconds>(events.wait(key, limit, now));
    if (wait > longest.seconds) longest = {held_by, wait};
  };
  if (!device.empty()) {
    consider(HeldBy::device, by_device_, std::string(device), limits_.per_account_from_network);
    return longest;
  }
  consider(HeldBy::account_from_network, by_account_from_network_, account_from(network, account),
           limits_.per_account_from_network);
  consider(HeldBy::network, by_network_, std::string(network), limits_.per_network);
  consider(HeldBy::account, by_account_, ascii_lowercase(account), limits_.per_account);
  return longest;
}

void SignInThrottle::share_with(std::function<void(const Counted &)> share) {
  share_ = std::move(share);
}

void SignInThrottle::counted_elsewhere(const Counted &counted, Clock::time_point now) {
  if (counted.failed)
    count_failure(counted.network, counted.account, counted.device, now);
  else
    count_success(counted.network, counted.account);
}

SignInThrottle::Charge SignInThrottle::charge(std::string_view network, std::string_view account,
                                              std::string_view device, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  Charge charge{wait_locked(network, account, device, now), now};
  if (charge.charged()) count_failure_locked(network, account, device, now);
  return charge;
}

void SignInThrottle::charged_failed(std::string_view network, std::string_view account,
                                    std::string_view device) {
  if (share_) share_({true, std::string(network), std::string(account), std::string(device)});
}

void SignInThrottle::take_back(const Charge &charge, std::string_view network,
                               std::string_view account, std::string_view device) {
  if (!charge.charged()) return;
  std::lock_guard lock(mutex_);
  if (!device.empty()) return by_device_.take_back(std::string(device), charge.charged_at);
  by_account_from_network_.take_back(account_from(network, account), charge.charged_at);
  by_network_.take_back(std::string(network), charge.charged_at);
  by_account_.take_back(ascii_lowercase(account), charge.charged_at);
}

void SignInThrottle::charged_succeeded(const Charge &charge, std::string_view network,
                                       std::string_view account, std::string_view device) {
  take_back(charge, network, account, device);
  count_success(network, account);
  if (share_) share_({false, std::string(network), std::string(account), ""});
}

void SignInThrottle::count_failure(std::string_view network, std::string_view account,
                                   std::string_view device, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  count_failure_locked(network, account, device, now);
}

void SignInThrottle::count_failure_locked(std::string_view network, std::string_view account,
                                          std::string_view device, Clock::time_point now) {
  // A known device's failures are its own: they neither spend the network's share nor bring
  // the account nearer the ceiling that holds back every other browser.
  if (!device.empty()) return by_device_.add(std::string(device), now);
  by_account_from_network_.add(account_from(network, account), now);
  by_network_.add(std::string(network), now);
  by_account_.add(ascii_lowercase(account), now);
}

void SignInThrottle::count_success(std::string_view network, std::string_view account) {
  std::lock_guard lock(mutex_);
  by_account_from_network_.forget(account_from(network, account));
}

std::string known_device_token(std::string_view key, std::string_view account, int64_t expires_at) {
  char until[17];
  std::snprintf(until, sizeof until, "%016llx", static_cast<unsigned long long>(expires_at));
  return until + keyed_hash(key, device_message(account, until));
}

bool known_device_token_holds(std::string_view key, std::string_view token,
                              std::string_view account, int64_t now) {
  if (token.size() != kKnownDeviceTokenLength) return false;
  uint64_t until = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + 16, until, 16);
  if (ec != std::errc() || end != token.data() + 16 || static_cast<int64_t>(until) < now)
    return false;
  return same_secret(token, known_device_token(key, account, static_cast<int64_t>(until)));
}

} // namespace verdict::auth
