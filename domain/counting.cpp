#include "domain/counting.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <vector>

#include "domain/numbers.h"

namespace verdict {

namespace {

// `bytes` with every bit past the first `bits` cleared.
template <size_t N>
std::array<unsigned char, N> masked(std::array<unsigned char, N> bytes, int bits) {
  for (size_t i = 0; i < N; ++i) {
    const int kept = std::max(0, std::min(8, bits - static_cast<int>(i) * 8));
    bytes[i] = static_cast<unsigned char>(bytes[i] & (0xFF00u >> kept));
  }
  return bytes;
}

} // namespace

namespace {

// The IPv4 address an IPv6 address carries, when it is one written as IPv6 or reached through
// a tunnel or translator that names it: a reader there is a reader of that IPv4 network, and
// its many IPv6 networks (every 6to4 /48 of one IPv4 address) must not count as many.
//   ::ffff:a.b.c.d       IPv4-mapped (RFC 4291)
//   ::a.b.c.d            IPv4-compatible, deprecated (RFC 4291), not :: or ::1
//   64:ff9b::a.b.c.d     NAT64's well-known prefix (RFC 6052)
//   2002:AABB:CCDD::/48  6to4 (RFC 3056): the IPv4 address in bits 16-47
//   2001:0::/32          Teredo (RFC 4380): the client's IPv4 address in the last 32 bits,
//                        each bit inverted
std::optional<std::array<unsigned char, 4>>
ipv4_carried_in(const std::array<unsigned char, 16> &v6) {
  const auto starts_with = [&v6](std::initializer_list<unsigned char> prefix) {
    return std::equal(prefix.begin(), prefix.end(), v6.begin());
  };
  std::array<unsigned char, 4> v4{};
  if (starts_with({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF}) ||
      starts_with({0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0})) {
    std::copy(v6.begin() + 12, v6.end(), v4.begin());
    return v4;
  }
  if (starts_with({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) && (v6[12] | v6[13]) != 0) {
    std::copy(v6.begin() + 12, v6.end(), v4.begin());
    return v4;
  }
  if (starts_with({0x20, 0x02})) {
    std::copy(v6.begin() + 2, v6.begin() + 6, v4.begin());
    return v4;
  }
  if (starts_with({0x20, 0x01, 0, 0})) {
    for (size_t i = 0; i < 4; ++i)
      v4[i] = static_cast<unsigned char>(~v6[12 + i]);
    return v4;
  }
  return std::nullopt;
}

// The network of `bits` (IPv4, and IPv4 carried in IPv6) or `v6_bits` an address is in.
std::string masked_network(std::string_view address, int bits, int v6_bits) {
  std::string text(address);
  // An address in brackets, as some proxies write IPv6 ("[2001:db8::1]").
  if (text.size() > 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  std::array<unsigned char, 4> v4{};
  std::array<unsigned char, 16> v6{};
  char written[INET6_ADDRSTRLEN] = {};
  if (inet_pton(AF_INET, text.c_str(), v4.data()) == 1) {
    const auto network = masked(v4, bits);
    inet_ntop(AF_INET, network.data(), written, sizeof written);
    return std::string(written) + "/" + std::to_string(bits);
  }
  if (inet_pton(AF_INET6, text.c_str(), v6.data()) == 1) {
    if (const auto carried = ipv4_carried_in(v6)) {
      const auto network = masked(*carried, bits);
      inet_ntop(AF_INET, network.data(), written, sizeof written);
      return std::string(written) + "/" + std::to_string(bits);
    }
    const auto network = masked(v6, v6_bits);
    inet_ntop(AF_INET6, network.data(), written, sizeof written);
    return std::string(written) + "/" + std::to_string(v6_bits);
  }
  return "other:" + text;
}

} // namespace

std::string network_of(std::string_view address) {
  return masked_network(address, kIpv4NetworkBits, kIpv6NetworkBits);
}

std::string wider_network_of(std::string_view address) {
  return masked_network(address, kIpv4WiderNetworkBits, kIpv6WiderNetworkBits);
}

std::optional<SetAsideReason> judge_vote(int64_t seconds_on_page, const CountedAround &counted) {
  if (seconds_on_page < kSecondsToReadAPage) return SetAsideReason::too_fast;
  if (counted.voter_among_them) return std::nullopt;
  if (counted.network_voters < kCountedVotersPerNetwork &&
      counted.wider_voters < kCountedVotersPerWiderNetwork)
    return std::nullopt;
  return SetAsideReason::network;
}

std::string reason_text(SetAsideReason reason) {
  switch (reason) {
  case SetAsideReason::network:
    // Its network's places, or its wider network's, all held: /methodology gives both numbers.
    return "too many from one network";
  case SetAsideReason::too_fast:
    return "sent less than " + count_phrase(kSecondsToReadAPage, "second", "seconds") +
           " after the page was loaded";
  }
  return {};
}

const char *reason_code(SetAsideReason reason) {
  return reason == SetAsideReason::network ? "network" : "too_fast";
}

std::optional<SetAsideReason> reason_from_code(std::string_view code) {
  if (code == "network") return SetAsideReason::network;
  if (code == "too_fast") return SetAsideReason::too_fast;
  return std::nullopt;
}

std::string set_aside_phrase(const SetAside &set_aside, int64_t counted) {
  if (set_aside.total() == 0) return {};
  std::vector<std::pair<int64_t, SetAsideReason>> reasons;
  if (set_aside.network) reasons.emplace_back(set_aside.network, SetAsideReason::network);
  if (set_aside.too_fast) reasons.emplace_back(set_aside.too_fast, SetAsideReason::too_fast);
  std::string phrase = std::to_string(counted + set_aside.total()) + " cast, " +
                       std::to_string(set_aside.total()) + " set aside: ";
  if (reasons.size() == 1) return phrase + reason_text(reasons.front().second);
  for (size_t i = 0; i < reasons.size(); ++i)
    phrase +=
        (i ? "; " : "") + std::to_string(reasons[i].first) + " " + reason_text(reasons[i].second);
  return phrase;
}

std::string with_set_aside(const SetAside &set_aside, int64_t counted) {
  const auto phrase = set_aside_phrase(set_aside, counted);
  return phrase.empty() ? phrase : " (" + phrase + ")";
}

} // namespace verdict
