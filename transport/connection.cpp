// The socket helpers the reactors and workers share: addresses as text, whose share of the
// connections a peer takes, and the answer to a request refused before routing.
#include "transport/connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>

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

// Whose share of the connections a peer uses: its IPv4 address, or its IPv6 /64 (one host
// is given a whole /64, so its addresses are one client's).
std::string client_of(const sockaddr_storage &address) {
  int port = 0;
  if (address.ss_family != AF_INET6) return address_text(address, port);
  auto prefix = reinterpret_cast<const sockaddr_in6 &>(address);
  if (IN6_IS_ADDR_V4MAPPED(&prefix.sin6_addr)) return address_text(address, port);
  std::memset(prefix.sin6_addr.s6_addr + 8, 0, 8);
  sockaddr_storage masked{};
  std::memcpy(&masked, &prefix, sizeof prefix);
  return address_text(masked, port) + "/64";
}

} // namespace

std::string peer_client(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) return {};
  return client_of(address);
}

} // namespace verdict::transport
