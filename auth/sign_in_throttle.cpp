#include "auth/sign_in_throttle.h"

#include <algorithm>

#include "domain/text.h"

namespace verdict::auth {

std::chrono::seconds SignInThrottle::wait_for(const Failures &failures, size_t limit,
                                              Clock::time_point now) const {
  if (failures.size() < limit) return std::chrono::seconds(0);
  // Free again once enough of the oldest failures have left the window.
  const auto freed_at = failures[failures.size() - limit] + limits_.window;
  if (freed_at <= now) return std::chrono::seconds(0);
  return std::chrono::ceil<std::chrono::seconds>(freed_at - now);
}

std::chrono::seconds SignInThrottle::wait(std::string_view address, std::string_view account,
                                          Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto longest = std::chrono::seconds(0);
  if (const auto it = by_address_.find(std::string(address)); it != by_address_.end())
    longest = std::max(longest, wait_for(it->second, limits_.per_address, now));
  if (const auto it = by_account_.find(ascii_lowercase(account)); it != by_account_.end())
    longest = std::max(longest, wait_for(it->second, limits_.per_account, now));
  return longest;
}

void SignInThrottle::failed(std::string_view address, std::string_view account,
                            Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (by_address_.size() + by_account_.size() >= kMaxKeys) forget_old(now);
  for (auto *failures :
       {&by_address_[std::string(address)], &by_account_[ascii_lowercase(account)]}) {
    failures->push_back(now);
    // Only the last `limit` failures decide a wait; older ones need not be kept.
    while (failures->size() > std::max(limits_.per_account, limits_.per_address))
      failures->pop_front();
  }
}

void SignInThrottle::succeeded(std::string_view account) {
  std::lock_guard lock(mutex_);
  by_account_.erase(ascii_lowercase(account));
}

void SignInThrottle::forget_old(Clock::time_point now) {
  for (auto *keys : {&by_address_, &by_account_})
    std::erase_if(*keys,
                  [&](const auto &entry) { return entry.second.back() + limits_.window <= now; });
  // Every failure still counts: a flood. Forgetting it all is the bounded choice.
  if (by_address_.size() + by_account_.size() >= kMaxKeys) {
    by_address_.clear();
    by_account_.clear();
  }
}

} // namespace verdict::auth
