#include "transport/connection_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
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

constexpr std::string_view kBusy = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
                                   "charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n"
                                   "Content-Length: 33\r\n\r\nToo many connections; try again.\n";

} // namespace

// One client connection. Owned by the reactor thread except while `working`, when exactly one
// worker thread holds it; the hand-over goes through the queues below, under their mutexes.
struct Connection {
  enum class State { idle, reading, working, flushing, lingering };
  int fd = -1;
  State state = State::idle;
  std::string in;  // bytes received and not yet consumed by a request
  std::string out; // bytes of answers not yet sent
  Framing framing; // of the request at the front of `in`, once whole or refused
  Clock::time_point deadline;
  size_t served = 0;
  bool continued = false;   // a 100 Continue was sent for the request in progress
  bool close_after = false; // close once `out` is sent
  std::string remote_ip, local_ip;
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

class ConnectionServer::Reactor {
public:
  Reactor(ConnectionServer &server, const TransportLimits &limits)
      : server_(server), limits_(limits), epoll_(epoll_create1(EPOLL_CLOEXEC)),
        wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr; // the wake-up descriptor
    epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
    reactor_ = std::thread([this] { run(); });
    for (size_t i = 0; i < limits_.workers; ++i)
      workers_.emplace_back([this] { work(); });
  }

  ~Reactor() { stop(); }

  size_t open() const { return open_.load(); }

  // From httplib's accept thread: a new connection joins the reactor, or is turned away.
  void adopt(int fd) {
    if (open_.load() >= limits_.max_connections || draining_.load()) {
      ::send(fd, kBusy.data(), kBusy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      return;
    }
    ++open_;
    {
      std::lock_guard lock(handoff_mutex_);
      incoming_.push_back(fd);
    }
    wake();
  }

  // From the accept thread once httplib's stop() closed the listening socket: finish what is
  // in progress (at most drain_timeout), close the rest, and stop every thread.
  void drain() {
    draining_ = true;
    wake();
    {
      std::unique_lock lock(drained_mutex_);
      drained_.wait_for(lock, limits_.drain_timeout + std::chrono::seconds(1),
                        [this] { return open_.load() == 0; });
    }
    stop();
  }

private:
  void wake() {
    const uint64_t one = 1;
    [[maybe_unused]] auto ignored = ::write(wake_, &one, sizeof one);
  }

  void stop() {
    if (stopped_.exchange(true)) return;
    wake();
    {
      std::lock_guard lock(work_mutex_);
      workers_stop_ = true;
    }
    work_ready_.notify_all();
    for (auto &worker : workers_)
      worker.join();
    reactor_.join();
    for (auto &[fd, connection] : connections_)
      ::close(fd);
    connections_.clear();
    {
      std::lock_guard lock(handoff_mutex_);
      for (int fd : incoming_)
        ::close(fd);
      incoming_.clear();
    }
    ::close(epoll_);
    ::close(wake_);
  }

  void arm(Connection &c, uint32_t events) {
    epoll_event event{};
    event.events = events | EPOLLRDHUP | EPOLLONESHOT;
    event.data.ptr = &c;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &event);
  }

  void close_connection(Connection &c) {
    epoll_ctl(epoll_, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    connections_.erase(c.fd); // destroys c
    if (--open_ == 0 && draining_) {
      std::lock_guard lock(drained_mutex_);
      drained_.notify_all();
    }
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
        } else if (c->state == Connection::State::flushing) {
          on_writable(*c);
        } else if (c->state == Connection::State::lingering) {
          on_lingering(*c);
        } else {
          on_readable(*c);
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
    std::vector<int> fresh;
    std::vector<Connection *> back;
    {
      std::lock_guard lock(handoff_mutex_);
      fresh.swap(incoming_);
      back.swap(returned_);
    }
    for (int fd : fresh)
      start(fd);
    for (auto *c : back)
      resume(*c);
    if (draining_) {
      std::vector<Connection *> idle;
      for (auto &[fd, c] : connections_) {
        if (c->state == Connection::State::idle) idle.push_back(c.get());
        if (c->state == Connection::State::reading)
          c->deadline = std::min(c->deadline, Clock::now() + limits_.drain_timeout);
      }
      for (auto *c : idle)
        close_connection(*c);
    }
  }

  void start(int fd) {
    if (draining_) {
      ::close(fd);
      if (--open_ == 0) {
        std::lock_guard lock(drained_mutex_);
        drained_.notify_all();
      }
      return;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    const int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (getpeername(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      c->remote_ip = address_text(address, c->remote_port);
    length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      c->local_ip = address_text(address, c->local_port);
    c->deadline = Clock::now() + limits_.request_timeout;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
    event.data.ptr = c.get();
    epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event);
    connections_.emplace(fd, std::move(c));
  }

  // A connection back from a worker: flush what is left, then close it or wait for more.
  void resume(Connection &c) {
    if (!c.out.empty()) {
      c.state = Connection::State::flushing;
      c.deadline = Clock::now() + limits_.write_timeout;
      arm(c, EPOLLOUT);
      return;
    }
    if (c.close_after || draining_) return linger(c);
    if (c.in.empty()) {
      c.state = Connection::State::idle;
      c.deadline = Clock::now() + limits_.idle_timeout;
    } else {
      c.state = Connection::State::reading; // the start of the next request is here already
      c.deadline = Clock::now() + limits_.request_timeout;
    }
    arm(c, EPOLLIN);
  }

  void on_readable(Connection &c) {
    char buffer[16384];
    const auto cap = limits_.framing.max_head + limits_.framing.max_body + sizeof buffer;
    for (;;) {
      const auto n = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (n > 0) {
        c.in.append(buffer, static_cast<size_t>(n));
        if (c.in.size() > cap) break; // framing refuses it below
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        return close_connection(c); // the client left
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    }
    if (c.state == Connection::State::idle && !c.in.empty()) {
      c.state = Connection::State::reading;
      c.deadline = Clock::now() + limits_.request_timeout;
    }
    if (draining_) c.deadline = std::min(c.deadline, Clock::now() + limits_.drain_timeout);
    c.framing = frame_request(c.in, limits_.framing);
    switch (c.framing.kind) {
    case Framing::Kind::complete:
    case Framing::Kind::refused:
      return dispatch(c);
    case Framing::Kind::incomplete:
      if (c.framing.expects_continue && !c.continued) {
        c.continued = true;
        constexpr std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
        ::send(c.fd, go_on.data(), go_on.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      return arm(c, EPOLLIN);
    }
  }

  // Closing a socket with unread bytes makes the kernel reset the connection, and a client
  // still sending (a refused 2 MiB body, say) would lose the answer it was sent. So the
  // sending side is shut first and what still arrives is read and dropped for a moment.
  void linger(Connection &c) {
    ::shutdown(c.fd, SHUT_WR);
    c.state = Connection::State::lingering;
    c.in.clear();
    c.deadline = Clock::now() + std::chrono::seconds(2);
    arm(c, EPOLLIN);
  }

  void on_lingering(Connection &c) {
    char buffer[16384];
    for (;;) {
      const auto n = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (n > 0) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return arm(c, EPOLLIN);
      if (n < 0 && errno == EINTR) continue;
      return close_connection(c);
    }
  }

  void on_writable(Connection &c) {
    if (!flush(c)) return close_connection(c);
    if (!c.out.empty()) return arm(c, EPOLLOUT);
    resume(c);
  }

  // Sends what the socket takes now; false when the client is gone.
  static bool flush(Connection &c) {
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

  void sweep(Clock::time_point now) {
    std::vector<Connection *> late;
    for (auto &[fd, c] : connections_)
      if (c->state != Connection::State::working && now >= c->deadline) late.push_back(c.get());
    for (auto *c : late)
      close_connection(*c);
  }

  void dispatch(Connection &c) {
    c.state = Connection::State::working;
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
      serve(*c);
      if (!flush(*c)) {
        c->out.clear();
        c->close_after = true;
      }
      {
        std::lock_guard lock(handoff_mutex_);
        returned_.push_back(c);
      }
      wake();
    }
  }

  // Answers every whole request at the front of the connection's buffer.
  void serve(Connection &c) {
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
      std::string head(c.in, f.skip, f.head_length);
      for (auto it = f.dropped_lines.rbegin(); it != f.dropped_lines.rend(); ++it)
        head.erase(it->first, it->second);
      const std::string request = head + c.in.substr(f.skip + f.head_length, f.body_length);
      c.in.erase(0, f.skip + f.head_length + f.body_length);
      c.continued = false;

      const bool last =
          draining_ || !f.keep_alive || ++c.served >= limits_.max_requests_per_connection;
      bool client_closes = false;
      RequestStream stream(request, c);
      server_.process_request(stream, last, client_closes, nullptr);
      if (last || client_closes) {
        c.close_after = true;
        return;
      }
      c.framing = frame_request(c.in, limits_.framing);        // pipelined: the next may be here
      if (c.framing.kind == Framing::Kind::incomplete) return; // refused: answered next turn
    }
  }

  ConnectionServer &server_;
  const TransportLimits limits_;
  const int epoll_;
  const int wake_;
  std::atomic<size_t> open_{0};
  std::atomic<bool> draining_{false};
  std::atomic<bool> stopped_{false};

  std::unordered_map<int, std::unique_ptr<Connection>> connections_; // reactor thread only

  std::mutex handoff_mutex_;
  std::vector<int> incoming_;
  std::vector<Connection *> returned_;

  std::mutex work_mutex_;
  std::condition_variable work_ready_;
  std::deque<Connection *> ready_;
  bool workers_stop_ = false;

  std::mutex drained_mutex_;
  std::condition_variable drained_;

  std::thread reactor_;
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
    : limits_(limits), reactor_(std::make_unique<Reactor>(*this, limits_)) {
  new_task_queue = [this] { return new ReactorQueue([this] { reactor_->drain(); }); };
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
  return reactor_->open();
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  reactor_->adopt(sock);
  return true;
}

} // namespace verdict::transport
