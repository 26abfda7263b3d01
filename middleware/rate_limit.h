// Per-client limits on writes: a fixed one-minute window per client address. Generous enough
// for any human reading and voting, tight enough that a script cannot flood the tallies.
#pragma once

#include "base/addresses.h"

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace verdict {

class RateLimiter {
public:
  explicit RateLimiter(int per_minute) : per_minute_(per_minute) {}

  // Counts one write by `client`; returns 0 when allowed, otherwise the seconds to wait.
  int take(const std::string &client,
           std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

private:
  struct Window {
    std::chrono::steady_clock::time_point start;
    int count = 0;
  };
  int per_minute_; // 0 turns the limit off
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
  std::chrono::steady_clock::time_point last_sweep_;

public:
  // Clients remembered at most: past it, finished windows are forgotten (at most once a
  // second), and if every window is still open the oldest memory goes: 100,000 addresses
  // writing within one minute is a flood, not readers.
  static constexpr size_t kMaxClients = 100000;
};

// The address a request comes from: the socket's peer, or — only when that peer is a
// trusted reverse proxy — the address its X-Forwarded-For line ends with, read from the end
// past the site's other trusted proxies (a site with two fronts). An entry that is not an
// address (a port, a name, garbage) ends the reading at the proxy that passed it on: it is
// never a client of its own. A REMOTE_ADDR header sent by a client is never read.
std::string client_address(const std::string &socket_address, const std::string &forwarded_for,
                           const TrustedProxies &trusted);

// Whether an address is this machine's: 127.0.0.0/8, ::1, or ::ffff:127.x.x.x.
bool is_loopback_address(const std::string &address);

} // namespace verdict
