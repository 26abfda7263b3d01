#include "transport/connection_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "transport/security_headers.h"

namespace verdict::transport {

using Clock = std::chrono::steady_clock;

namespace {

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

// The answer to a request refused before routing: always the last on its connection.
std::string refusal_response(int status, const std::string &html) {
  std::string response =
      "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
  for (const auto &[name, value] : security_headers())
    response += name + ": " + value + "\r\n";
  response += "Content-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
              "Connection: close\r\nContent-Length: " +
              std::to_string(html.size()) + "\r\n\r\n" + html;
  return response;
}

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

std::string peer_client(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) return {};
  return client_of(address);
}

constexpr std::string_view kBusy = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
                                   "charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n"
                                   "Content-Length: 33\r\n\r\nToo many connections; try again.\n";

constexpr std::string_view kClientBusy =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Retry-After: 1\r\nConnection: close\r\nContent-Length: 62\r\n\r\n"
    "Too many connections from your address; close some and retry.\n";

class Reactor;

// One client connection. Owned by its reactor's thread except while `working`, when exactly
// one worker thread holds it; the hand-over goes through the queues below, under their mutexes.
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

// What httplib's process_request reads one whole request from, and writes its answer into.
class RequestStream final : public httplib::Stream {
public:
  RequestStream(std::string_view request, Connection &connection)
      : request_(request), connection_(connection) {}
  bool is_readable() const override { return at_ < request_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char *ptr, size_t size) override {
    const auto n = std::min(size, request_.size() - at_);
    std::memcpy(ptr, request_.data() + at_, n);
    at_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char *ptr, size_t size) override {
    connection_.out.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string &ip, int &port) const override {
    ip = connection_.remote_ip;
    port = connection_.remote_port;
  }
  void get_local_ip_and_port(std::string &ip, int &port) const override {
    ip = connection_.local_ip;
    port = connection_.local_port;
  }
  // httplib refuses sockets numbered past FD_SETSIZE because it would select() on them; no
  // select() happens on this stream, so it reports no socket at all.
  socket_t socket() const override { return INVALID_SOCKET; }

private:
  std::string_view request_;
  size_t at_ = 0;
  Connection &connection_;
};

// Sends what the socket takes now; false when the client is gone.
bool flush(Connection &c) {
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
void consume_request(Connection &c) {
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
    if (client.empty() || client == limits.unshared_client) return true;
    std::lock_guard lock(clients_mutex);
    auto &count = open_by_client[client];
    if (count >= client_share()) return false;
    ++count;
    return true;
  }
  void release(const std::string &client) {
    if (client.empty() || client == limits.unshared_client) return;
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

// One epoll loop and the connections it owns. A connection is registered level-triggered for
// what its state waits on (reading or writing) and for nothing while a worker holds it, so
// an answer sent whole costs no epoll call. A connection being flushed waits for EPOLLOUT
// alone: a client that shut its sending side would otherwise report RDHUP on every wait.
class Reactor {
public:
  explicit Reactor(Hub &hub)
      : hub_(hub), epoll_(epoll_create1(EPOLL_CLOEXEC)),
        wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr; // the wake-up descriptor
    epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
    thread_ = std::thread([this] { run(); });
  }

  ~Reactor() {
    stop();
    for (auto &[fd, connection] : connections_)
      ::close(fd);
    for (const auto &[fd, client] : incoming_)
      ::close(fd);
    ::close(epoll_);
    ::close(wake_);
  }

  // From httplib's accept thread: a new connection joins this reactor.
  void adopt(int fd, std::string client) {
    {
      std::lock_guard lock(handoff_mutex_);
      incoming_.emplace_back(fd, std::move(client));
    }
    wake();
  }

  // From a worker: the connection is this reactor's again.
  void give_back(Connection &c) {
    {
      std::lock_guard lock(handoff_mutex_);
      returned_.push_back(&c);
    }
    wake();
  }

  void wake() {
    const uint64_t one = 1;
    [[maybe_unused]] auto ignored = ::write(wake_, &one, sizeof one);
  }

  void stop() {
    if (stopped_.exchange(true)) return;
    wake();
    thread_.join();
  }

private:
  void watch(Connection &c, uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.ptr = &c;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &event);
  }

  void close_connection(Connection &c) {
    epoll_ctl(epoll_, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    const auto client = std::move(c.client);
    connections_.erase(c.fd); // destroys c
    hub_.closed_one(client);
  }

  void run() {
    std::vector<epoll_event> events(256);
    auto next_sweep = Clock::now();
    while (!stopped_) {
      const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 100);
      bool woken = false;
      for (int i = 0; i < n; ++i) {
        auto *c = static_cast<Connection *>(events[i].data.ptr);
        if (!c) {
          uint64_t count;
          [[maybe_unused]] auto ignored = ::read(wake_, &count, sizeof count);
          woken = true;
          continue;
        }
        try {
          if (c->state == Connection::State::flushing) {
            on_writable(*c);
          } else if (c->state == Connection::State::lingering) {
            on_lingering(*c);
          } else if (c->state != Connection::State::working) {
            on_readable(*c);
          }
        } catch (const std::exception &e) {
          // One connection's failure (memory, say) is that connection's alone.
          std::cerr << "verdict: a connection failed: " << e.what() << "\n";
          if (c->state != Connection::State::working) close_connection(*c);
        }
      }
      // Hand-overs and deadlines after the batch, so no event above can name a connection
      // closed by them.
      if (woken) take_handoffs();
      const auto now = Clock::now();
      if (now >= next_sweep) {
        sweep(now);
        next_sweep = now + std::chrono::milliseconds(100);
      }
    }
  }

  void take_handoffs() {
    std::vector<std::pair<int, std::string>> fresh;
    std::vector<Connection *> back;
    {
      std::lock_guard lock(handoff_mutex_);
      fresh.swap(incoming_);
      back.swap(returned_);
    }
    for (auto &[fd, client] : fresh)
      start(fd, std::move(client));
    for (auto *c : back)
      resume(*c);
    if (hub_.draining) {
      std::vector<Connection *> idle;
      for (auto &[fd, c] : connections_) {
        if (c->state == Connection::State::idle) idle.push_back(c.get());
        if (c->state == Connection::State::reading)
          c->deadline = std::min(c->deadline, Clock::now() + hub_.limits.drain_timeout);
      }
      for (auto *c : idle)
        close_connection(*c);
    }
  }

  void start(int fd, std::string client) {
    if (hub_.draining) {
      ::close(fd);
      hub_.closed_one(client);
      return;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    const int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    c->client = std::move(client);
    c->owner = this;
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      c->remote_ip = address_text(address, c->remote_port);
    length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      c->local_ip = address_text(address, c->local_port);
    c->deadline = Clock::now() + hub_.limits.request_timeout;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.ptr = c.get();
    epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event);
    connections_.emplace(fd, std::move(c));
  }

  // A connection back from a worker: flush what is left, then close it or wait for more.
  void resume(Connection &c) {
    if (!c.out.empty()) {
      c.state = Connection::State::flushing;
      c.deadline = Clock::now() + hub_.limits.write_timeout;
      return watch(c, EPOLLOUT);
    }
    if (c.close_after || c.peer_done || hub_.draining) return linger(c);
    if (c.in.empty()) {
      c.state = Connection::State::idle;
      c.deadline = Clock::now() + hub_.limits.idle_timeout;
    } else {
      c.state = Connection::State::reading; // the start of the next request is here already
      c.deadline = Clock::now() + hub_.limits.request_timeout;
    }
    watch(c, EPOLLIN | EPOLLRDHUP);
  }

  void on_readable(Connection &c) {
    char buffer[16384];
    const auto cap = hub_.limits.framing.max_head + hub_.limits.framing.max_body + sizeof buffer;
    for (;;) {
      const auto n = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (n > 0) {
        c.in.append(buffer, static_cast<size_t>(n));
        if (c.in.size() > cap) break; // framing refuses it below
        continue;
      }
      if (n == 0) { // the client sent all it will; answer what is whole, then close
        c.peer_done = true;
        break;
      }
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno != EINTR) return close_connection(c);
    }
    if (c.state == Connection::State::idle && !c.in.empty()) {
      c.state = Connection::State::reading;
      c.deadline = Clock::now() + hub_.limits.request_timeout;
    }
    if (hub_.draining) c.deadline = std::min(c.deadline, Clock::now() + hub_.limits.drain_timeout);
    c.framing = frame_request(c.in, hub_.limits.framing);
    answer_from_cache(c);
    switch (c.framing.kind) {
    case Framing::Kind::complete:
    case Framing::Kind::refused:
      return dispatch(c);
    case Framing::Kind::incomplete:
      if (!c.out.empty() && !flush(c)) return close_connection(c);
      if (!c.out.empty()) {
        c.state = Connection::State::flushing;
        c.deadline = Clock::now() + hub_.limits.write_timeout;
        return watch(c, EPOLLOUT);
      }
      if (c.peer_done) return c.in.empty() ? close_connection(c) : linger(c);
      if (c.in.empty()) {
        c.state = Connection::State::idle;
        c.deadline = Clock::now() + hub_.limits.idle_timeout;
      }
      if (c.framing.expects_continue && !c.continued) {
        c.continued = true;
        constexpr std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
        ::send(c.fd, go_on.data(), go_on.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      return;
    }
  }

  // Answers each whole request at the front of the buffer that the shared cache holds an
  // answer for; stops at the first it does not.
  void answer_from_cache(Connection &c) {
    auto *cache = hub_.shared.load(std::memory_order_acquire);
    const auto *cookie_answers = hub_.cookie_answers.load(std::memory_order_acquire);
    if (hub_.draining) return;
    while (c.framing.kind == Framing::Kind::complete &&
           c.served + 1 < hub_.limits.max_requests_per_connection) {
      const auto target =
          std::string_view(c.in).substr(c.framing.target_offset, c.framing.target_length);
      if (c.framing.shareable && cache) {
        const auto answer = cache->find(target, c.framing.coding);
        if (!answer) return;
        hub_.shared_answers.fetch_add(1, std::memory_order_relaxed);
        c.out += *answer;
      } else if (c.framing.shareable_but_cookie && cookie_answers &&
                 c.framing.coding == Framing::Coding::identity) {
        // The application writes a voter's page as it is; httplib would compress it for a
        // client that accepts a coding, so those clients go to httplib, and every answer to
        // a request is in the one coding chosen for it.
        const auto cookie =
            std::string_view(c.in).substr(c.framing.cookie_offset, c.framing.cookie_length);
        if (!cookie_answer(*cookie_answers, target, cookie, c.out)) return;
        hub_.cookie_answered.fetch_add(1, std::memory_order_relaxed);
      } else {
        return;
      }
      ++c.served;
      consume_request(c);
      c.framing = frame_request(c.in, hub_.limits.framing);
    }
  }

  // The application's answer appended to `out`; false, with `out` as it was, when it has none
  // or fails (httplib answers then).
  static bool cookie_answer(const CookieAnswers &answers, std::string_view target,
                            std::string_view cookie, std::string &out) {
    const auto before = out.size();
    try {
      if (answers(target, cookie, out)) return true;
    } catch (const std::exception &) {
    }
    out.resize(before);
    return false;
  }

  // Closing a socket with unread bytes makes the kernel reset the connection, and a client
  // still sending (a refused 2 MiB body, say) would lose the answer it was sent. So the
  // sending side is shut first and what still arrives is read and dropped for a moment.
  void linger(Connection &c) {
    ::shutdown(c.fd, SHUT_WR);
    c.state = Connection::State::lingering;
    c.in.clear();
    c.deadline = Clock::now() + std::chrono::seconds(2);
    watch(c, EPOLLIN | EPOLLRDHUP);
  }

  void on_lingering(Connection &c) {
    char buffer[16384];
    for (;;) {
      const auto n = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (n > 0) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (n < 0 && errno == EINTR) continue;
      return close_connection(c);
    }
  }

  void on_writable(Connection &c) {
    if (!flush(c)) return close_connection(c);
    if (!c.out.empty()) return;
    resume(c);
  }

  void sweep(Clock::time_point now) {
    std::vector<Connection *> late;
    for (auto &[fd, c] : connections_)
      if (c->state != Connection::State::working && now >= c->deadline) late.push_back(c.get());
    for (auto *c : late)
      close_connection(*c);
  }

  void dispatch(Connection &c) {
    c.state = Connection::State::working;
    watch(c, 0); // nothing until the worker gives it back
    hub_.dispatch(c);
  }

  Hub &hub_;
  const int epoll_;
  const int wake_;
  std::atomic<bool> stopped_{false};
  std::unordered_map<int, std::unique_ptr<Connection>> connections_; // this thread only

  std::mutex handoff_mutex_;
  std::vector<std::pair<int, std::string>> incoming_; // with each one's client
  std::vector<Connection *> returned_;

  std::thread thread_;
};

} // namespace

// The reactors, the workers that run httplib's request processing, and draining on stop().
class ConnectionServer::Core {
public:
  Core(ConnectionServer &server, const TransportLimits &limits) : server_(server), hub_(limits) {
    hub_.dispatch = [this](Connection &c) { enqueue(c); };
    for (size_t i = 0; i < limits.workers; ++i)
      workers_.emplace_back([this] { work(); });
    auto reactors = limits.reactors;
    if (reactors == 0) reactors = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
    for (size_t i = 0; i < reactors; ++i)
      reactors_.push_back(std::make_unique<Reactor>(hub_));
  }

  ~Core() { stop(); }

  size_t open() const { return hub_.open.load(); }
  size_t shared_answers() const { return hub_.shared_answers.load(); }
  size_t cookie_answered() const { return hub_.cookie_answered.load(); }
  void answer_cookies(const CookieAnswers *answers) {
    hub_.cookie_answers.store(answers, std::memory_order_release);
  }

  void share(ResponseCache *cache) { hub_.shared.store(cache, std::memory_order_release); }

  // From httplib's accept thread: a new connection joins a reactor, or is turned away.
  void adopt(int fd) {
    if (hub_.open.load() >= hub_.limits.max_connections || hub_.draining.load())
      return turn_away(fd, kBusy);
    auto client = peer_client(fd);
    if (!hub_.admit(client)) return turn_away(fd, kClientBusy);
    ++hub_.open;
    reactors_[next_reactor_++ % reactors_.size()]->adopt(fd, std::move(client));
  }

  static void turn_away(int fd, std::string_view answer) {
    ::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::close(fd);
  }

  // From the accept thread once httplib's stop() closed the listening socket: finish what is
  // in progress (at most drain_timeout), close the rest, and stop every thread.
  void drain() {
    hub_.draining = true;
    for (auto &reactor : reactors_)
      reactor->wake();
    {
      std::unique_lock lock(hub_.drained_mutex);
      hub_.drained.wait_for(lock, hub_.limits.drain_timeout + std::chrono::seconds(1),
                            [this] { return hub_.open.load() == 0; });
    }
    stop();
  }

private:
  void stop() {
    if (stopped_.exchange(true)) return;
    {
      std::lock_guard lock(work_mutex_);
      workers_stop_ = true;
    }
    work_ready_.notify_all();
    for (auto &worker : workers_)
      worker.join();
    for (auto &reactor : reactors_)
      reactor->stop();
    reactors_.clear(); // closes what is still open
  }

  void enqueue(Connection &c) {
    {
      std::lock_guard lock(work_mutex_);
      ready_.push_back(&c);
    }
    work_ready_.notify_one();
  }

  void work() {
    for (;;) {
      Connection *c = nullptr;
      {
        std::unique_lock lock(work_mutex_);
        work_ready_.wait(lock, [this] { return workers_stop_ || !ready_.empty(); });
        if (ready_.empty()) return;
        c = ready_.front();
        ready_.pop_front();
      }
      try {
        serve(*c);
      } catch (const std::exception &e) {
        // Nothing a request does may end the process: it gets a 503 saying why, and the
        // connection closes, since what it sent next can no longer be framed.
        answer_failure(*c, e.what());
      } catch (...) {
        answer_failure(*c, "unknown error");
      }
      if (!flush(*c)) {
        c->out.clear();
        c->close_after = true;
      }
      c->owner->give_back(*c);
    }
  }

  static void answer_failure(Connection &c, const char *cause) noexcept {
    try {
      std::cerr << "verdict: a request failed: " << cause << "\n";
      c.out += refusal_response(503, "<p>The server could not answer this request now. "
                                     "Nothing was changed; please try again in a minute.</p>\n");
      c.in.clear();
    } catch (...) {
    }
    c.close_after = true;
  }

  // Answers every whole request at the front of the connection's buffer, keeping the answers
  // a shared cache may give again.
  void serve(Connection &c) {
    auto *cache = hub_.shared.load(std::memory_order_acquire);
    for (;;) {
      if (c.framing.kind == Framing::Kind::refused) {
        const auto html = server_.refusal_page_
                              ? server_.refusal_page_(c.framing.status, c.framing.reason)
                              : c.framing.reason + "\n";
        c.out += refusal_response(c.framing.status, html);
        c.in.clear();
        c.close_after = true;
        return;
      }
      const auto &f = c.framing;
      const std::string request =
          head_for_parser(std::string_view(c.in).substr(f.skip, f.head_length), f) +
          c.in.substr(f.skip + f.head_length, f.body_length);
      const auto target = f.shareable ? c.in.substr(f.target_offset, f.target_length) : "";
      const auto coding = f.coding;
      consume_request(c);

      const bool last = hub_.draining || !f.keep_alive || c.peer_done ||
                        ++c.served >= hub_.limits.max_requests_per_connection;
      // The epoch is read before the answer is made, so an answer is never kept under an
      // epoch newer than the content it shows.
      const auto epoch = cache && !target.empty() ? cache->epoch() : std::nullopt;
      const auto answer_starts = c.out.size();
      bool client_closes = false;
      RequestStream stream(request, c);
      server_.process_request(stream, last, client_closes, nullptr);
      if (last || client_closes) {
        c.close_after = true;
        return;
      }
      if (cache && !target.empty())
        cache->offer(target, coding, epoch, std::string_view(c.out).substr(answer_starts));
      c.framing = frame_request(c.in, hub_.limits.framing);    // pipelined: the next may be here
      if (c.framing.kind == Framing::Kind::incomplete) return; // refused: answered next turn
    }
  }

  ConnectionServer &server_;
  Hub hub_;
  std::atomic<bool> stopped_{false};
  std::vector<std::unique_ptr<Reactor>> reactors_;
  std::atomic<size_t> next_reactor_{0};

  std::mutex work_mutex_;
  std::condition_variable work_ready_;
  std::deque<Connection *> ready_;
  bool workers_stop_ = false;
  std::vector<std::thread> workers_;
};

namespace {

// httplib's accept loop hands each new socket to the reactor at once, on its own thread, and
// waits for the reactor to drain when stop() ends the loop.
class ReactorQueue final : public httplib::TaskQueue {
public:
  explicit ReactorQueue(std::function<void()> drain) : drain_(std::move(drain)) {}
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override { drain_(); }

private:
  std::function<void()> drain_;
};

} // namespace

ConnectionServer::ConnectionServer(TransportLimits limits)
    : limits_(limits), core_(std::make_unique<Core>(*this, limits_)) {
  new_task_queue = [this] { return new ReactorQueue([this] { core_->drain(); }); };
  // The Keep-Alive header httplib writes tells clients the transport's real limits.
  set_keep_alive_max_count(limits_.max_requests_per_connection);
  set_keep_alive_timeout(
      std::chrono::duration_cast<std::chrono::seconds>(limits_.idle_timeout).count());
  // SO_REUSEADDR only: with httplib's default SO_REUSEPORT a second server on the same port
  // would start and silently take half the readers.
  set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

ConnectionServer::~ConnectionServer() = default;

bool ConnectionServer::bind(const std::string &host, int port) {
  if (!bind_to_port(host, port)) return false;
  after_bind();
  return true;
}

int ConnectionServer::bind_to_any_port(const std::string &host) {
  const int port = httplib::Server::bind_to_any_port(host);
  if (port > 0) after_bind();
  return port;
}

void ConnectionServer::after_bind() {
  // Debian's httplib listens with a backlog of 5; a burst of readers would wait for SYN
  // retries. listen() again on a listening socket only changes its backlog.
  ::listen(svr_sock_, SOMAXCONN);
}

size_t ConnectionServer::open_connections() const {
  return core_->open();
}

size_t ConnectionServer::shared_answers() const {
  return core_->shared_answers();
}

void ConnectionServer::answer_cookies(CookieAnswers answers) {
  cookie_answers_ = std::make_unique<CookieAnswers>(std::move(answers));
  core_->answer_cookies(cookie_answers_.get());
}

std::string keep_alive_value(const TransportLimits &limits) {
  return "timeout=" +
         std::to_string(
             std::chrono::duration_cast<std::chrono::seconds>(limits.idle_timeout).count()) +
         ", max=" + std::to_string(limits.max_requests_per_connection);
}

size_t ConnectionServer::cookie_answers() const {
  return core_->cookie_answered();
}

void ConnectionServer::share_responses(std::function<uint64_t()> epoch) {
  shared_ = std::make_unique<ResponseCache>(std::move(epoch));
  core_->share(shared_.get());
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  core_->adopt(sock);
  return true;
}

} // namespace verdict::transport
