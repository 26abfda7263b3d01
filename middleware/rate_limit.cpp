#include "middleware/rate_limit.h"

namespace verdict {

int RateLimiter::take(const std::string &client, std::chrono::steady_clock::time_point now) {
  if (per_minute_ <= 0) return 0;
  constexpr auto window = std::chrono::minutes(1);
  std::lock_guard lock(mutex_);
  if (windows_.size() >= kMaxClients && now - last_sweep_ >= std::chrono::seconds(1)) {
    last_sweep_ = now;
    for (auto it = windows_.begin(); it != windows_.end();)
      it = now - it->second.start >= window ? windows_.erase(it) : std::next(it);
    if (windows_.size() >= kMaxClients) windows_.clear();
  }
  auto &w = windows_[client];
  if (w.count == 0 || now - w.start >= window) w = {now, 0};
  if (w.count >= per_minute_) {
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(w.start + window - now);
    return static_cast<int>(std::max<long>(1, left.count()));
  }
  ++w.count;
  return 0;
}

std::string client_address(const std::string &socket_address, const std::string &forwarded_for,
                           const TrustedProxies &trusted) {
  if (!trusted.contains(socket_address)) return socket_address;
  auto passed_on_by = socket_address; // the proxy whose word the entry read next is
  std::string_view entries = forwarded_for;
  while (!entries.empty()) {
    const auto comma = entries.rfind(',');
    const auto entry = comma == std::string_view::npos ? entries : entries.substr(comma + 1);
    entries = comma == std::string_view::npos ? std::string_view() : entries.substr(0, comma);
    if (entry.find_first_not_of(" \t") == std::string_view::npos) continue;
    const auto address = canonical_address(entry);
    if (address.empty()) return passed_on_by;
    if (!trusted.contains(address)) return address;
    passed_on_by = address;
  }
  return passed_on_by;
}

bool is_loopback_address(const std::string &address) {
  // Written one way (an IPv4-mapped address as its IPv4 one): 127.x.x.x, or ::1.
  const auto written = canonical_address(address);
  return written.starts_with("127.") || written == "::1";
}

} // namespace verdict
