// The socket helpers the reactors and workers share: addresses as text, whose share of the
// connections a peer takes, and the answer to a request refused before routing.
#include "transport/connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>

#include "transport/cache_policy.h"
#include "transport/security_headers.h"

namespace verdict::transport {

std::string address_text(const sockaddr_storage &address, int &port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto &v4 = reinterpret_cast<const sockaddr_in &>(address);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto &v6 = reinterpret_cast<const sockaddr_in6 &>(address);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    port = ntohs(v6.sin6_port);
  }
  return text;
}

namespace {

const char *reason_phrase(int status) {
  switch (status) {
  case 400:
    return "Bad Request";
  case 408:
    return "Request Timeout";
  case 411:
    return "Length Required";
  case 413:
    return "Payload Too Large";
  case 414:
    return "URI Too Long";
  case 417:
    return "Expectation Failed";
  case 431:
    return "Request Header Fields Too Large";
  case 501:
    return "Not Implemented";
  case 503:
    return "Service Unavailable";
  case 505:
    return "HTTP Version Not Supported";
  default:
    return "Error";
  }
}

} // namespace

std::string refusal_response(int status, const std::string &html) {
  std::string response =
      "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
  for (const auto &[name, value] : security_headers())
    response += name + ": " + value + "\r\n";
  // A 503 is a moment's trouble (the disk, the cluster's stream): say when to try again.
  if (status == 503) response += "Retry-After: 10\r\n";
  response += "Content-Type: text/html; charset=utf-8\r\nCache-Control: " +
              std::string(cache_control_of(CachePolicy::never_kept)) +
              "\r\nConnection: close\r\nContent-Length: " + std::to_string(html.size()) +
              "\r\n\r\n" + html;
  return response;
}

namespace {

// `address` with every bit past its first `bits` cleared, written as a network ("/bits").
std::string network_text(sockaddr_storage address, int bits) {
  auto *bytes = address.ss_family == AF_INET6
                    ? reinterpret_cast<sockaddr_in6 &>(address).sin6_addr.s6_addr
                    : reinterpret_cast<unsigned char *>(
                          &reinterpret_cast<sockaddr_in &>(address).sin_addr.s_addr);
  const int length = address.ss_family == AF_INET6 ? 16 : 4;
  for (int i = 0; i < length; ++i) {
    const int kept = std::clamp(bits - i * 8, 0, 8);
    bytes[i] = static_cast<unsigned char>(bytes[i] & (0xFF00u >> kept));
  }
  int port = 0;
  return address_text(address, port) + "/" + std::to_string(bits);
}

// An IPv4-mapped IPv6 address (a dual-stack socket's IPv4 peer) as the IPv4 address it is.
sockaddr_storage unmapped(const sockaddr_storage &address) {
  if (address.ss_family != AF_INET6) return address;
  const auto &v6 = reinterpret_cast<const sockaddr_in6 &>(address);
  if (!IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr)) return address;
  sockaddr_storage v4{};
  auto &in = reinterpret_cast<sockaddr_in &>(v4);
  in.sin_family = AF_INET;
  in.sin_port = v6.sin6_port;
  std::memcpy(&in.sin_addr, v6.sin6_addr.s6_addr + 12, 4);
  return v4;
}

} // namespace

// A client is an IPv4 address, or an IPv6 /56: providers hand a household or a rented machine
// a /56 (RFC 6177's advice) or a /64 inside one, so one holder's many /64s are one client.
// Its network is the IPv4 /24 or the IPv6 /48 around it. A /24 is the smallest block routed
// on the internet, so the least anyone holding many addresses holds at once; a /16 is often a
// whole provider's pool, whose unrelated readers would share one network's share. A /48 is
// what one site (a company, a campus) is given; a /32 is a whole provider's.
ShareKeys shares_of(const sockaddr_storage &address) {
  const auto peer = unmapped(address);
  int port = 0;
  if (peer.ss_family == AF_INET) return {address_text(peer, port), network_text(peer, 24)};
  if (peer.ss_family != AF_INET6) return {};
  return {network_text(peer, 56), network_text(peer, 48)};
}

ShareKeys peer_shares(int fd, const TrustedProxies &unshared) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) return {};
  int port = 0;
  if (unshared.contains(address_text(address, port))) return {};
  return shares_of(address);
}

} // namespace verdict::transport
