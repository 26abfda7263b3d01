// What the reactors and workers behind transport/connection_server.h share: one client
// connection's state as they hand it between them, the Hub (the counts, the cache and the
// hand-over to workers that every reactor sees), and the socket helpers both use.
#pragma once

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "transport/connection_server.h"
#include "transport/request_framing.h"
#include "transport/response_cache.h"

namespace verdict::transport {

using Clock = std::chrono::steady_clock;

class Reactor;

// Whose shares of the connections a peer takes (Hub::admit): its client (an IPv4 address, an
// IPv6 /56) and the wider network that client is in (an IPv4 /24, an IPv6 /48). Both empty
// for the site's trusted proxies, through which every reader comes, and for a peer unknown:
// those take no share.
struct ShareKeys {
  std::string client;
  std::string network;
};

// One client connection. Owned by its reactor's thread except while `working`, when exactly
// one worker thread holds it; the hand-over goes through the reactor's queues (Reactor::adopt,
// give_back) and the workers' (ConnectionServer::Core), under their mutexes.
struct Connection {
  enum class State { idle, reading, working, flushing, lingering };
  int fd = -1;
  Reactor *owner = nullptr;
  State state = State::idle;
  std::string in;  // bytes received and not yet consumed by a request
  std::string out; // bytes of answers not yet sent
  Framing framing; // of the request at the front of `in`, once whole or refused
  Clock::time_point deadline;
  size_t served = 0;
  bool continued = false;   // a 100 Continue was sent for the request in progress
  bool close_after = false; // close once `out` is sent
  bool peer_done = false;   // the client sent all it will (it shut its side)
  std::string remote_ip, local_ip;
  ShareKeys shares; // whose shares of the connections it takes (Hub::admit)
  int remote_port = 0, local_port = 0;
  // Its place in its reactor's line of connections waiting on their client (idle, or a
  // request still arriving), oldest first: the reactor's thread alone reads or moves these
  // (Reactor::WaitingLine), and a connection a worker holds is never in the line.
  bool in_line = false;
  Connection *ahead = nullptr, *behind = nullptr;
};

// Sends what the socket takes now; false when the client is gone.
inline bool flush(Connection &c) {
  while (!c.out.empty()) {
    const auto n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.out.erase(0, static_cast<size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return true;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return false;
    }
  }
  return true;
}

// Drops the request at the front of the connection's buffer, once answered.
inline void consume_request(Connection &c) {
  const auto &f = c.framing;
  c.in.erase(0, f.skip + f.head_length + f.body_length);
  c.continued = false;
}

// What reactors share: the count of open connections, draining, the workers, the cache.
struct Hub {
  explicit Hub(const TransportLimits &limits_) : limits(limits_) {}
  const TransportLimits limits;
  std::atomic<size_t> open{0};
  std::atomic<bool> draining{false};
  std::atomic<ResponseCache *> shared{nullptr};
  std::atomic<size_t> shared_answers{0}; // given by a reactor from the shared cache
  std::atomic<const CookieAnswers *> cookie_answers{nullptr};
  std::atomic<size_t> cookie_answered{0};     // voters' pages given by a reactor
  std::function<void(Connection &)> dispatch; // to a worker
  // Requests a reactor answers itself (ConnectionServer::answer_on_reactor), and how: `serve`
  // answers the whole requests at the front of the connection's buffer while `at_once` names
  // them, on the calling thread; false when the answer is held (transport/answer_hold.h), and
  // then its release gives the connection back.
  std::atomic<const AnsweredAtOnce *> at_once{nullptr};
  std::function<bool(Connection &)> serve_here;
  // Whether the whole request at the front of `c`'s buffer is one `at_once` names.
  bool answered_at_once(const Connection &c) const {
    const auto *named = at_once.load(std::memory_order_acquire);
    if (!named || c.framing.kind != Framing::Kind::complete) return false;
    const auto &f = c.framing;
    const auto method = std::string_view(c.in).substr(f.skip, f.target_offset - f.skip - 1);
    const auto target = std::string_view(c.in).substr(f.target_offset, f.target_length);
    return (*named)(method, target.substr(0, target.find('?')));
  }

  std::mutex drained_mutex;
  std::condition_variable drained;

  // Connections open per client and per wider network, for their shares
  // (TransportLimits::max_connections_per_client, max_connections_per_network).
  std::mutex shares_mutex;
  std::unordered_map<std::string, size_t> open_by_client;
  std::unordered_map<std::string, size_t> open_by_network;

  size_t client_share() const {
    if (limits.max_connections_per_client) return limits.max_connections_per_client;
    return std::max<size_t>(16, limits.max_connections / 16);
  }
  // A network is often many clients (an office, a provider's NAT pool), so it holds more than
  // one client's share; a quarter leaves most connections to every other network.
  size_t network_share() const {
    if (limits.max_connections_per_network) return limits.max_connections_per_network;
    return std::max(client_share(), limits.max_connections / 4);
  }
  enum class Admission { admitted, client_full, network_full };
  // Counts a new connection in its client's share and its network's, unless one is taken.
  Admission admit(const ShareKeys &keys) {
    if (keys.client.empty()) return Admission::admitted;
    std::lock_guard lock(shares_mutex);
    if (open_in(open_by_client, keys.client) >= client_share()) return Admission::client_full;
    if (open_in(open_by_network, keys.network) >= network_share()) return Admission::network_full;
    ++open_by_client[keys.client];
    ++open_by_network[keys.network];
    return Admission::admitted;
  }
  void release(const ShareKeys &keys) {
    if (keys.client.empty()) return;
    std::lock_guard lock(shares_mutex);
    give_back_one(open_by_client, keys.client);
    give_back_one(open_by_network, keys.network);
  }
  static size_t open_in(const std::unordered_map<std::string, size_t> &counts,
                        const std::string &key) {
    const auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  }
  static void give_back_one(std::unordered_map<std::string, size_t> &counts,
                            const std::string &key) {
    const auto it = counts.find(key);
    if (it != counts.end() && --it->second == 0) counts.erase(it);
  }

  void closed_one(const ShareKeys &keys) {
    release(keys);
    if (--open == 0 && draining) {
      std::lock_guard lock(drained_mutex);
      drained.notify_all();
    }
  }
};

// The answer to a connection turned away when every connection is being answered.
inline constexpr std::string_view kTooManyConnections =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
    "charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n"
    "Content-Length: 33\r\n\r\nToo many connections; try again.\n";

// The peer or local address as text, and its port.
std::string address_text(const sockaddr_storage &address, int &port);

// Whose shares of the connections an address takes (Hub::admit).
ShareKeys shares_of(const sockaddr_storage &address);

// Whose shares the peer of socket `fd` takes: none when it is unknown or one of `unshared`.
ShareKeys peer_shares(int fd, const TrustedProxies &unshared);

// The answer to a request refused before routing: always the last on its connection.
std::string refusal_response(int status, const std::string &html);

} // namespace verdict::transport
