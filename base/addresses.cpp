#include "base/addresses.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace verdict {

namespace {

struct Parsed {
  bool v6 = false;
  std::array<uint8_t, 16> bytes{}; // IPv4 in the first four
};

std::string_view trimmed(std::string_view text) {
  const auto start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  return text.substr(start, text.find_last_not_of(" \t") - start + 1);
}

std::optional<Parsed> parsed(std::string_view text) {
  // inet_pton reads a NUL-terminated string; anything longer than an address is not one.
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string address(text);
  Parsed result;
  in_addr v4{};
  if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
    std::memcpy(result.bytes.data(), &v4, 4);
    return result;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, address.c_str(), &v6) != 1) return std::nullopt;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) { // the same client, whichever socket family it came by
    std::memcpy(result.bytes.data(), &v6.s6_addr[12], 4);
    return result;
  }
  result.v6 = true;
  std::memcpy(result.bytes.data(), &v6, 16);
  return result;
}

bool within(const std::array<uint8_t, 16> &address, const std::array<uint8_t, 16> &network,
            int prefix) {
  for (int bit = 0; bit < prefix; ++bit) {
    const uint8_t mask = static_cast<uint8_t>(0x80 >> (bit % 8));
    if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) return false;
  }
  return true;
}

} // namespace

std::string canonical_address(std::string_view text) {
  const auto address = parsed(trimmed(text));
  if (!address) return {};
  char written[INET6_ADDRSTRLEN] = {};
  inet_ntop(address->v6 ? AF_INET6 : AF_INET, address->bytes.data(), written, sizeof written);
  return written;
}

TrustedProxies::TrustedProxies(std::string_view list) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto entry = trimmed(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (entry.empty()) continue;
    const auto slash = entry.find('/');
    const auto address = parsed(entry.substr(0, slash));
    const int bits = address && address->v6 ? 128 : 32;
    int prefix = bits;
    if (address && slash != std::string_view::npos) {
      const auto digits = entry.substr(slash + 1);
      const auto [end, error] =
          std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
      if (error != std::errc() || end != digits.data() + digits.size() || digits.empty())
        prefix = -1;
    }
    if (!address || prefix < 0 || prefix > bits)
      throw std::invalid_argument("\"" + std::string(entry) +
                                  "\" is neither an address nor a network (such as "
                                  "10.0.0.0/8 or 2001:db8::/32)");
    networks_.push_back({address->v6, address->bytes, prefix});
  }
}

bool TrustedProxies::contains(std::string_view text) const {
  if (networks_.empty())
    return false; // asked per connection: a site without a proxy parses nothing
  const auto address = parsed(trimmed(text));
  if (!address) return false;
  for (const auto &network : networks_)
    if (network.v6 == address->v6 && within(address->bytes, network.bytes, network.prefix))
      return true;
  return false;
}

} // namespace verdict
