// cpp-httplib's routes and request parser behind a transport that holds its ground on the open
// internet. httplib gives each connection a thread for its whole life, so a few hundred idle
// or trickling clients starve every reader. Here a few reactor threads (epoll, one per core)
// own every connection while it is idle, arriving or being flushed, and hand it to a worker
// only once a whole request is buffered (transport/request_framing.h); the worker runs
// httplib's own process_request over those bytes and writes the answer with one send. An
// answer a shared cache may reuse (transport/response_cache.h) is kept, and the reactor gives
// it again itself: a warm page costs one recv and one send, and no thread switch. So:
//   - idle and slow connections cost a socket and a small buffer, never a thread or CPU;
//   - each request must arrive within `request_timeout`, idle keep-alive ends after
//     `idle_timeout`; at `max_connections` a new connection closes the one that has waited
//     longest on its client (idle, or its request still arriving), never one being answered,
//     so a slow client's sockets make room for a reader (who sends a request at once), and
//     one client, or one network, holds at most its share;
//   - the listen backlog is large (Debian's httplib uses 5), and SO_REUSEPORT is off, so a
//     second server on the same port fails to start instead of sharing its traffic;
//   - stop() lets requests in progress finish, then closes everything within `drain_timeout`.
#pragma once

#include "base/addresses.h"

#include <httplib.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "transport/request_framing.h"
#include "transport/response_cache.h"

namespace verdict::transport {

struct TransportLimits {
  size_t reactors = 0; // threads that own connections; 0: one per core, at most 4
  size_t workers = 16; // threads that run handlers (a vote hands its fsync over)
  // Open at once. A new connection past it closes the oldest of those waiting on their client
  // (idle between requests, or a request still arriving) to make room; it is answered 503 and
  // closed only when every one is being answered.
  size_t max_connections = 4096;
  // Open at once from one client (an IPv4 address, an IPv6 /56), so one client cannot take
  // every connection: 0 is a sixteenth of max_connections, at least 16.
  size_t max_connections_per_client = 0;
  // Open at once from one network (an IPv4 /24, an IPv6 /48), so many addresses side by side
  // are not many clients' shares: 0 is a quarter of max_connections, at least a client's.
  size_t max_connections_per_network = 0;
  // The site's trusted proxies, through which every reader comes: no share of their own.
  TrustedProxies unshared_clients;
  std::chrono::milliseconds request_timeout{10000}; // first byte to last byte of a request
  std::chrono::milliseconds idle_timeout{5000};     // keep-alive wait for the next request
  std::chrono::milliseconds write_timeout{10000};   // for a client that reads slowly
  std::chrono::milliseconds drain_timeout{3000};    // on stop(), for requests in progress
  size_t max_requests_per_connection = 10000;
  FramingLimits framing;
};

// Given a plain GET's target and its one Cookie header's value: appends the whole answer to
// `out`, written exactly as httplib writes it (transport/written_head.h), and returns true; or
// appends nothing and returns false to let httplib answer.
using CookieAnswers =
    std::function<bool(std::string_view target, std::string_view cookie, std::string &out)>;

// Whether a request, by its method and its path (without the query), is one whose handler makes
// its answer at once, never waiting on the disk or the network (a vote queues its write, and
// its answer is held until durable: transport/answer_hold.h).
using AnsweredAtOnce = std::function<bool(std::string_view method, std::string_view path)>;

// The Keep-Alive header's value httplib writes under these limits.
std::string keep_alive_value(const TransportLimits &limits);

// Renders the page for a request refused before it reached a handler (status, reason).
using RefusalPage = std::function<std::string(int status, const std::string &reason)>;

class ConnectionServer : public httplib::Server {
public:
  explicit ConnectionServer(TransportLimits limits = {});
  ~ConnectionServer() override;

  const TransportLimits &limits() const { return limits_; }
  void set_refusal_page(RefusalPage page) { refusal_page_ = std::move(page); }
  // Keeps shareable answers and gives them again while `epoch` returns what it returned when
  // they were produced. Call before listening.
  void share_responses(std::function<uint64_t()> epoch);
  // Lets the reactor answer plain GETs with a cookie itself when `answers` gives an answer.
  // Call before listening.
  void answer_cookies(CookieAnswers answers);
  // Requests answered that way so far.
  size_t cookie_answers() const;
  // Lets the reactor that read a request `at_once` names run its handler itself, sparing the
  // hand-over to a worker and back (two thread switches, most of a vote's cost). Call before
  // listening.
  void answer_on_reactor(AnsweredAtOnce at_once);
  // Whether a reactor answers a request to `path` with `method` itself (tests ask it).
  bool answers_on_reactor(std::string_view method, std::string_view path) const;

  // As httplib's, with the backlog raised and without SO_REUSEPORT: false (port) or -1 when
  // the address is in use.
  bool bind(const std::string &host, int port);
  int bind_to_any_port(const std::string &host);

  // Connections open now (for tests and /metrics).
  size_t open_connections() const;
  // Requests answered from the shared cache so far.
  size_t shared_answers() const;

  class Core;

private:
  bool process_and_close_socket(socket_t sock) override;
  void after_bind();

  TransportLimits limits_;
  RefusalPage refusal_page_;
  std::unique_ptr<ResponseCache> shared_;
  std::unique_ptr<CookieAnswers> cookie_answers_;
  std::unique_ptr<AnsweredAtOnce> answered_at_once_;
  std::unique_ptr<Core> core_;
};

} // namespace verdict::transport
