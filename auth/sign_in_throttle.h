// Failed sign-ins slow whoever makes them: each failure is remembered for a window, per client
// address and per account (the address typed, whether or not an editor has it, so the answer
// never tells which accounts exist). Past the limit, sign-in is refused until the oldest
// failure leaves the window: a guesser gets a handful of tries per quarter hour, an editor
// who mistypes is not locked out for long, and a success forgets the account's failures.
#pragma once

#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace verdict::auth {

class SignInThrottle {
public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    size_t per_account = 5;
    size_t per_address = 20;
    std::chrono::seconds window{15 * 60};
  };
  SignInThrottle() : SignInThrottle(Limits{}) {}
  explicit SignInThrottle(Limits limits) : limits_(limits) {}
  void set_limits(Limits limits) {
    std::lock_guard lock(mutex_);
    limits_ = limits;
  }

  // How long before this client may try this account again; zero when it may now.
  std::chrono::seconds wait(std::string_view address, std::string_view account,
                            Clock::time_point now = Clock::now());
  void failed(std::string_view address, std::string_view account,
              Clock::time_point now = Clock::now());
  void succeeded(std::string_view account);

  // Failures remembered at most (addresses and accounts together); past it the oldest
  // memories are dropped: a flood of distinct names cannot grow the server's memory.
  static constexpr size_t kMaxKeys = 100000;

private:
  using Failures = std::deque<Clock::time_point>;
  std::chrono::seconds wait_for(const Failures &failures, size_t limit,
                                Clock::time_point now) const;
  void forget_old(Clock::time_point now);

  Limits limits_;
  std::mutex mutex_;
  std::unordered_map<std::string, Failures> by_address_, by_account_;
};

} // namespace verdict::auth
