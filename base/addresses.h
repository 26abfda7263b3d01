// Network addresses as the site meets them: a client's address in one written form, and the
// reverse proxies whose X-Forwarded-For it believes (addresses or networks, as a list).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace verdict {

// `text` as an IPv4 or IPv6 address in its one written form (an IPv4-mapped IPv6 address as
// its IPv4 address), or empty when it is not an address: a port, brackets, a name, garbage.
std::string canonical_address(std::string_view text);

// The reverse proxies a site sits behind, from one comma-separated list of addresses and
// networks: "127.0.0.1", "10.0.0.0/8, 2001:db8::/32" (a site with two fronts names both).
class TrustedProxies {
public:
  TrustedProxies() = default;
  // Throws std::invalid_argument naming the first entry that is neither an address nor a
  // network (ADDRESS/PREFIX, the prefix within the address's bits).
  explicit TrustedProxies(std::string_view list);

  bool contains(std::string_view address) const;

private:
  struct Network {
    bool v6 = false;
    std::array<uint8_t, 16> bytes{};
    int prefix = 0;
  };
  std::vector<Network> networks_;
};

} // namespace verdict
