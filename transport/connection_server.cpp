// ConnectionServer (transport/connection_server.h): the core that owns the reactors
// (transport/reactor.h) and the worker threads that run httplib's request processing over a
// whole buffered request (or a reactor runs it, for the requests answered at once), draining
// on stop(), and the server's httplib-facing methods.
#include "transport/connection_server.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "transport/answer_hold.h"
#include "transport/connection.h"
#include "transport/reactor.h"

namespace verdict::transport {

namespace {

constexpr std::string_view kClientBusy =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Retry-After: 1\r\nConnection: close\r\nContent-Length: 62\r\n\r\n"
    "Too many connections from your address; close some and retry.\n";

constexpr std::string_view kNetworkBusy =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Retry-After: 1\r\nConnection: close\r\nContent-Length: 51\r\n\r\n"
    "Too many connections from your network; try again.\n";

// New connections past the bound whose reactor has not yet closed another to make room for
// them: past this many, the next is turned away, so a burst of connects cannot take the
// process's descriptors before the reactors catch up.
constexpr size_t kMakingRoomAtOnce = 64;

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

} // namespace

// The requests this process's connection servers are answering, each with its context: the
// one way from a handler, which holds only its request, back to the server answering it. In
// shards by the request's address, so threads answering at once seldom wait on one lock.
class Answering {
public:
  static Answering &all() {
    static Answering answering;
    return answering;
  }
  void add(const httplib::Request *request, RequestContext *context) {
    auto &shard = shard_of(request);
    std::lock_guard lock(shard.mutex);
    shard.contexts[request] = context;
  }
  void remove(const httplib::Request *request) {
    auto &shard = shard_of(request);
    std::lock_guard lock(shard.mutex);
    shard.contexts.erase(request);
  }
  RequestContext *find(const httplib::Request *request) {
    auto &shard = shard_of(request);
    std::lock_guard lock(shard.mutex);
    const auto found = shard.contexts.find(request);
    return found == shard.contexts.end() ? nullptr : found->second;
  }

private:
  struct Shard {
    std::mutex mutex;
    std::unordered_map<const httplib::Request *, RequestContext *> contexts;
  };
  static constexpr size_t kShards = 64;
  // Requests live on their threads' stacks, alike in their low bits: the address is mixed
  // (Fibonacci hashing) and its top bits pick the shard.
  Shard &shard_of(const httplib::Request *request) {
    const auto mixed = reinterpret_cast<uintptr_t>(request) * uint64_t{0x9E3779B97F4A7C15};
    return shards_[mixed >> (64 - 6)];
  }
  std::array<Shard, kShards> shards_;
};

// `context` is the context of the request httplib is about to route, from setup() on, until
// this is gone.
class Answered {
public:
  explicit Answered(RequestContext &context) : context_(context) {}
  ~Answered() {
    if (request_) Answering::all().remove(request_);
  }
  Answered(const Answered &) = delete;
  Answered &operator=(const Answered &) = delete;
  void setup(const httplib::Request &request) {
    request_ = &request;
    Answering::all().add(request_, &context_);
  }

private:
  RequestContext &context_;
  const httplib::Request *request_ = nullptr;
};

// The reactors, the workers that run httplib's request processing, and draining on stop().
class ConnectionServer::Core {
public:
  Core(ConnectionServer &server, const TransportLimits &limits) : server_(server), hub_(limits) {
    hub_.dispatch = [this](Connection &c) { enqueue(c); };
    hub_.serve_here = [this](Connection &c) { return answer(c, Only::at_once); };
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
  void answer_at_once(const AnsweredAtOnce *at_once) {
    hub_.at_once.store(at_once, std::memory_order_release);
  }

  void share(ResponseCache *cache) { hub_.shared.store(cache, std::memory_order_release); }

  // From httplib's accept thread: a new connection joins a reactor, or is turned away. Past
  // the bound it joins the reactor with the most connections waiting on their client, which
  // closes the one that has waited longest to make room.
  void adopt(int fd) {
    if (hub_.draining.load()) return turn_away(fd, kTooManyConnections);
    auto shares = peer_shares(fd, hub_.limits.unshared_clients);
    switch (hub_.admit(shares)) {
    case Hub::Admission::client_full:
      return turn_away(fd, kClientBusy);
    case Hub::Admission::network_full:
      return turn_away(fd, kNetworkBusy);
    case Hub::Admission::admitted:
      break;
    }
    const auto open = ++hub_.open;
    if (open <= hub_.limits.max_connections)
      return reactors_[next_reactor_++ % reactors_.size()]->adopt(fd, std::move(shares), false);
    if (open > hub_.limits.max_connections + kMakingRoomAtOnce) {
      hub_.closed_one(shares);
      return turn_away(fd, kTooManyConnections);
    }
    const auto most_waiting =
        std::max_element(reactors_.begin(), reactors_.end(),
                         [](const auto &a, const auto &b) { return a->waiting() < b->waiting(); });
    (*most_waiting)->adopt(fd, std::move(shares), true);
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
    {
      // An answer held for a write is released by the writer, which outlives the server, and
      // hands its connection to a reactor: they stay until every one has come back.
      std::unique_lock lock(held_mutex_);
      all_released_.wait(lock, [this] { return held_ == 0; });
    }
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
      if (answer(*c, Only::none)) c->owner->give_back(*c);
    }
  }

  // Which of the whole requests at the front of a connection's buffer answer() serves: all of
  // them (a worker), or those the application answers at once (a reactor), up to the first
  // that is not.
  enum class Only { none, at_once };

  // Serves the whole requests at the front of `c`'s buffer and sends what the socket takes of
  // the answers; true when the connection is then the caller's to give back, false when an
  // answer is held and the connection is no longer this thread's (transport/answer_hold.h).
  bool answer(Connection &c, Only only) {
    try {
      if (serve(c, only) == Served::held) return false;
    } catch (const std::exception &e) {
      // Nothing a request does may end the process: it gets a 503 saying why, and the
      // connection closes, since what it sent next can no longer be framed.
      answer_failure(c, e.what());
    } catch (...) {
      answer_failure(c, "unknown error");
    }
    if (!flush(c)) {
      c.out.clear();
      c.close_after = true;
    }
    return true;
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

  enum class Served { answered, held };

  // Answers every whole request at the front of the connection's buffer (`only` those answered
  // at once, stopping at the first that is not), keeping the answers a shared cache may give
  // again; stops at an answer held (transport/answer_hold.h), which then leaves the connection
  // to whoever releases it.
  Served serve(Connection &c, Only only) {
    auto *cache = hub_.shared.load(std::memory_order_acquire);
    for (;;) {
      if (c.framing.kind == Framing::Kind::refused) {
        c.out +=
            refusal_response(c.framing.status, refusal_html(c.framing.status, c.framing.reason));
        c.in.clear();
        c.close_after = true;
        return Served::answered;
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
      RequestContext context{std::chrono::steady_clock::now(), false, {}};
      {
        Answered answered(context);
        server_.process_request(stream, last, client_closes,
                                [&answered](httplib::Request &req) { answered.setup(req); });
      }
      auto start = std::move(context.held);
      if (last || client_closes) c.close_after = true;
      if (start) {
        hold(c, answer_starts, std::move(start));
        return Served::held;
      }
      if (c.close_after) return Served::answered;
      if (cache && !target.empty())
        cache->offer(target, coding, epoch, std::string_view(c.out).substr(answer_starts));
      c.framing = frame_request(c.in, hub_.limits.framing); // pipelined: the next may be here
      if (c.framing.kind == Framing::Kind::incomplete) return Served::answered;
      if (only == Only::at_once && !hub_.answered_at_once(c)) return Served::answered;
    }
  }

  // Leaves `c`, its answer made from `answer_starts` on, to the release `start` is given: the
  // release hands it back to its reactor, which sends the answer and frames what follows.
  // Nothing here touches `c` once `start` has run: the release may already have come.
  void hold(Connection &c, size_t answer_starts, std::function<void(AnswerRelease)> start) {
    {
      std::lock_guard lock(held_mutex_);
      ++held_;
    }
    auto released = std::make_shared<std::atomic<bool>>(false);
    AnswerRelease release = [this, &c, answer_starts,
                             released](std::optional<std::string> failure) {
      if (released->exchange(true)) return;
      if (failure) {
        c.out.resize(answer_starts);
        c.out += refusal_response(503, refusal_html(503, *failure));
        c.in.clear();
        c.close_after = true;
      }
      c.owner->give_back(c);
      std::lock_guard lock(held_mutex_);
      if (--held_ == 0) all_released_.notify_all();
    };
    try {
      start(release);
    } catch (const std::exception &e) {
      release(e.what());
    } catch (...) {
      release("unknown error");
    }
  }

  std::string refusal_html(int status, const std::string &reason) const {
    return server_.refusal_page_ ? server_.refusal_page_(status, reason) : reason + "\n";
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

  std::mutex held_mutex_;
  std::condition_variable all_released_;
  size_t held_ = 0; // answers held (hold()) and not yet released
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

void ConnectionServer::answer_on_reactor(AnsweredAtOnce at_once) {
  answered_at_once_ = std::make_unique<AnsweredAtOnce>(std::move(at_once));
  core_->answer_at_once(answered_at_once_.get());
}

bool ConnectionServer::answers_on_reactor(std::string_view method, std::string_view path) const {
  return answered_at_once_ && (*answered_at_once_)(method, path);
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

RequestContext *context_of(const httplib::Request &req) {
  return Answering::all().find(&req);
}

bool answer_after(const httplib::Request &req, std::function<void(AnswerRelease)> start) {
  auto *context = context_of(req);
  if (!context) return false;
  context->held = std::move(start); // read by the thread answering `req`, after its handler
  return true;
}

} // namespace verdict::transport
