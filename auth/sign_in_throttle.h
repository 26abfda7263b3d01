// Failed sign-ins slow whoever makes them, without handing anyone a way to lock an editor
// out. Anyone may type the editor's address, so a limit on the account alone would let a
// stranger keep the editor out with five wrong passwords a quarter hour. Failures are kept
// for a window under keys that name where they came from (domain/counting.h's network_of: an
// IPv4 /24, an IPv6 /48):
//
//   | key                         | limit (default) | what it stops                              |
//   |-----------------------------|-----------------|--------------------------------------------|
//   | account from one network    | 5               | guessing one password from one place       |
//   | network, any account        | 20              | guessing across accounts from one place    |
//   | account from every network  | 50              | guessing one password from many places     |
//   | known device of the account | 5               | guessing with a stolen known-device cookie |
//
// Past a limit, sign-in from that place is refused (429) until the oldest counted failure
// leaves the window. A try is charged as a failure before its password is checked (charge),
// in the same step as the limit is asked, so a burst of parallel guesses cannot all pass the
// limit while each is checked; the charge is taken back if the password was right or the
// try was never checked. An attacker's failures only hold back the attacker's network, so the
// editor signs in from their own. The account's ceiling over every network does refuse
// everyone, but only browsers the account is not known on: a browser that signed in to the
// account before carries a signed cookie (known_device_token) that skips the three place
// limits and is counted on its own. The account is the address typed, whether or not an
// editor has it, so no answer tells which accounts exist. A success forgets that account's
// failures from that network (the editor's own typos), not the ceiling's count, which an
// attacker would otherwise get back whenever the editor signs in.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "domain/cookies.h"
#include "domain/recent_events.h"

namespace verdict::auth {

class SignInThrottle {
public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    size_t per_account_from_network = 5;
    size_t per_network = 20;
    size_t per_account = 50; // from every network together; known devices pass it
    std::chrono::seconds window{15 * 60};
  };
  // Which limit holds a sign-in back, so the refusal can say where to try from instead.
  enum class HeldBy { nothing, account_from_network, network, account, device };
  struct Wait {
    HeldBy held_by = HeldBy::nothing;
    std::chrono::seconds seconds{0};
  };

  SignInThrottle() : SignInThrottle(Limits{}) {}
  explicit SignInThrottle(Limits limits);

  // A try of `account` from a client of `network` about to be checked, asked and counted in
  // one step, so a burst of parallel tries cannot slip past a limit: when no limit holds, it
  // is counted as a failure now and `charged_at` says when; otherwise nothing is counted and
  // `wait` says how long before one may try again. `device`: the browser's known-device token
  // when it holds for this account, else empty.
  struct Charge {
    Wait wait;
    Clock::time_point charged_at;
    bool charged() const { return wait.seconds.count() == 0; }
  };
  Charge charge(std::string_view network, std::string_view account, std::string_view device = {},
                Clock::time_point now = Clock::now());
  // How the charged try ended: its password was wrong (the other servers are told), right
  // (the charge is taken back, and the account's failures from this network forgotten), or
  // it was never checked (the charge is taken back).
  void charged_failed(std::string_view network, std::string_view account, std::string_view device);
  void charged_succeeded(const Charge &charge, std::string_view network, std::string_view account,
                         std::string_view device);
  void take_back(const Charge &charge, std::string_view network, std::string_view account,
                 std::string_view device);

  // In a cluster every server counts every server's sign-ins: `share` hears each failure and
  // success counted here (from the request's thread), to tell the others, which count it with
  // counted_elsewhere (that tells nobody again). Set once, before any sign-in.
  struct Counted {
    bool failed = false; // else succeeded
    std::string network, account, device;
  };
  void share_with(std::function<void(const Counted &)> share);
  void counted_elsewhere(const Counted &counted, Clock::time_point now = Clock::now());

  // Keys remembered at most in each table; past it the oldest memories are dropped: a flood
  // of distinct names or networks cannot grow the server's memory.
  static constexpr size_t kMaxKeys = 100000;

private:
  void count_failure(std::string_view network, std::string_view account, std::string_view device,
                     Clock::time_point now);
  void count_success(std::string_view network, std::string_view account);
  Wait wait_locked(std::string_view network, std::string_view account, std::string_view device,
                   Clock::time_point now);
  void count_failure_locked(std::string_view network, std::string_view account,
                            std::string_view device, Clock::time_point now);
  Limits limits_;
  std::function<void(const Counted &)> share_;
  std::mutex mutex_;
  RecentEvents<Clock::time_point> by_account_from_network_, by_network_, by_account_, by_device_;
};

// How long a browser stays known to an account after signing in to it: its cookie's lifetime.
constexpr int64_t kKnownDeviceSeconds = cookies::kKnownDevice.max_age_seconds;
// A cookie value that says this browser signed in to `account` (case-blind), good until
// `expires_at` (seconds since 1970): 16 hex digits of that time, then a keyed MAC of it and
// the account (48 lowercase hex digits in all). `key` is a secret from random_secret().
std::string known_device_token(std::string_view key, std::string_view account, int64_t expires_at);
// Whether `token` was made here for `account` and holds at `now`.
bool known_device_token_holds(std::string_view key, std::string_view token,
                              std::string_view account, int64_t now);
constexpr size_t kKnownDeviceTokenLength = 48;

} // namespace verdict::auth
