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
#include <unordered_map>

#include "transport/connection_server.h"
#include "transport/request_framing.h"
#include "transport/response_cache.h"

namespace verdict::transport {

using Clock = std::chrono::steady_clock;

class Reactor;

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
  std::string client; // whose share of the connections it takes (Hub::admit)
  int remote_port = 0, local_port = 0;
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

  // Connections open per client, for its share (TransportLimits::max_connections_per_client).
  std::mutex clients_mutex;
  std::unordered_map<std::string, size_t> open_by_client;

  size_t client_share() const {
    if (limits.max_connections_per_client) return limits.max_connections_per_client;
    return std::max<size_t>(16, limits.max_connections / 16);
  }
  // Counts a new connection from `client`; false when its share is taken.
  bool admit(const std::string &client) {
    if (client.empty() || limits.unshared_clients.contains(client)) return true;
    std::lock_guard lock(clients_mutex);
    auto &count = open_by_client[client];
    if (count >= client_share()) return false;
    ++count;
    return true;
  }
  void release(const std::string &client) {
    if (client.empty() || limits.unshared_clients.contains(client)) return;
    std::lock_guard lock(clients_mutex);
    const auto it = open_by_client.find(client);
    if (it == open_by_client.end()) return;
    if (--it->second == 0) open_by_client.erase(it);
  }

  void closed_one(const std::string &client) {
    release(client);
    if (--open == 0 && draining) {
      std::lock_guard lock(drained_mutex);
      drained.notify_all();
    }
  }
};

// The peer or local address as text, and its port.
std::string address_text(const sockaddr_storage &address, int &port);

// Whose share of the connections the peer of socket `fd` uses (Hub::admit); empty when unknown.
std::string peer_client(int fd);

// The answer to a request refused before routing: always the last on its connection.
std::string refusal_response(int status, const std::string &html);

} // namespace verdict::transport
