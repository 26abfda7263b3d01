// The reactor's loop (transport/reactor.h): reading and framing requests, answering from the
// shared cache and the application's cookie answers without a worker, handing the rest over,
// flushing answers, lingering before a close, and the deadlines of slow connections.
#include "transport/reactor.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <iostream>

namespace verdict::transport {

void WaitingLine::join(Connection &c) {
  c.in_line = true;
  c.ahead = last_;
  c.behind = nullptr;
  (last_ ? last_->behind : first_) = &c;
  last_ = &c;
  waiting_.store(waiting_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void WaitingLine::leave(Connection &c) {
  (c.ahead ? c.ahead->behind : first_) = c.behind;
  (c.behind ? c.behind->ahead : last_) = c.ahead;
  c.in_line = false;
  c.ahead = c.behind = nullptr;
  waiting_.store(waiting_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
}

Reactor::Reactor(Hub &hub)
    : hub_(hub), epoll_(epoll_create1(EPOLL_CLOEXEC)),
      wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.ptr = nullptr; // the wake-up descriptor
  epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
  thread_ = std::thread([this] { run(); });
}

Reactor::~Reactor() {
  stop();
  for (auto &[fd, connection] : connections_)
    ::close(fd);
  for (const auto &handoff : incoming_)
    ::close(handoff.fd);
  ::close(epoll_);
  ::close(wake_);
}

void Reactor::adopt(int fd, ShareKeys shares, bool make_room) {
  {
    std::lock_guard lock(handoff_mutex_);
    incoming_.push_back({fd, std::move(shares), make_room});
  }
  wake();
}

void Reactor::give_back(Connection &c) {
  {
    std::lock_guard lock(handoff_mutex_);
    returned_.push_back(&c);
    // One wake until the reactor takes the hand-overs: a commit's batch of held answers
    // (transport/answer_hold.h) comes back one by one and costs one wake, not one each.
    if (wake_pending_) return;
    wake_pending_ = true;
  }
  wake();
}

void Reactor::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] auto ignored = ::write(wake_, &one, sizeof one);
}

void Reactor::stop() {
  if (stopped_.exchange(true)) return;
  wake();
  thread_.join();
}

void Reactor::watch(Connection &c, uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.ptr = &c;
  epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &event);
}

// Every change of a connection's state comes here, so the line of those waiting on their
// client holds exactly them: a connection joins at the back when it begins to wait (new, or
// its answer sent) and keeps its place while a request arrives, however slowly it comes.
void Reactor::set_state(Connection &c, Connection::State state) {
  const auto waits_on_client = [](Connection::State s) {
    return s == Connection::State::idle || s == Connection::State::reading;
  };
  if (!waits_on_client(state)) {
    if (c.in_line) line_.leave(c);
  } else if (!c.in_line) {
    line_.join(c);
  } else if (state == Connection::State::idle && c.state != Connection::State::idle) {
    line_.leave(c); // answered from the cache: it waits afresh
    line_.join(c);
  }
  c.state = state;
}

void Reactor::close_connection(Connection &c) {
  if (c.in_line) line_.leave(c);
  epoll_ctl(epoll_, EPOLL_CTL_DEL, c.fd, nullptr);
  ::close(c.fd);
  const auto shares = std::move(c.shares);
  connections_.erase(c.fd); // destroys c
  hub_.closed_one(shares);
}

void Reactor::run() {
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

void Reactor::take_handoffs() {
  std::vector<Incoming> fresh;
  std::vector<Connection *> back;
  {
    std::lock_guard lock(handoff_mutex_);
    fresh.swap(incoming_);
    back.swap(returned_);
    wake_pending_ = false;
  }
  for (auto &handoff : fresh) {
    if (handoff.make_room)
      make_room(handoff.fd, std::move(handoff.shares));
    else
      start(handoff.fd, std::move(handoff.shares));
  }
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

void Reactor::start(int fd, ShareKeys shares) {
  if (hub_.draining) {
    ::close(fd);
    hub_.closed_one(shares);
    return;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  const int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  auto c = std::make_unique<Connection>();
  c->fd = fd;
  c->shares = std::move(shares);
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
  set_state(*c, Connection::State::idle);
  connections_.emplace(fd, std::move(c));
}

// A connection past the bound: the connection here that has waited longest on its client is
// closed to make room for it. Only when none waits (each is being answered) is it turned away.
void Reactor::make_room(int fd, ShareKeys shares) {
  if (auto *oldest = line_.first()) {
    close_connection(*oldest);
    return start(fd, std::move(shares));
  }
  ::send(fd, kTooManyConnections.data(), kTooManyConnections.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::close(fd);
  hub_.closed_one(shares);
}

// A connection back from a worker or a held answer's release: send what is left, then close
// it, answer what came after (pipelined behind a held answer) or wait for more.
void Reactor::resume(Connection &c) {
  if (!c.out.empty() && !flush(c)) return close_connection(c);
  if (!c.out.empty()) {
    set_state(c, Connection::State::flushing);
    c.deadline = Clock::now() + hub_.limits.write_timeout;
    return watch(c, EPOLLOUT);
  }
  if (c.close_after || c.peer_done || hub_.draining) return linger(c);
  if (!c.in.empty()) {
    c.framing = frame_request(c.in, hub_.limits.framing);
    if (c.framing.kind != Framing::Kind::incomplete) return dispatch(c);
  }
  if (c.in.empty()) {
    set_state(c, Connection::State::idle);
    c.deadline = Clock::now() + hub_.limits.idle_timeout;
  } else {
    set_state(c, Connection::State::reading); // the start of the next request is here already
    c.deadline = Clock::now() + hub_.limits.request_timeout;
  }
  watch(c, EPOLLIN | EPOLLRDHUP);
}

void Reactor::on_readable(Connection &c) {
  char buffer[16384];
  const auto cap =
      hub_.limits.framing.max_head + hub_.limits.framing.largest_body() + sizeof buffer;
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
    set_state(c, Connection::State::reading);
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
      set_state(c, Connection::State::flushing);
      c.deadline = Clock::now() + hub_.limits.write_timeout;
      return watch(c, EPOLLOUT);
    }
    if (c.peer_done) return c.in.empty() ? close_connection(c) : linger(c);
    if (c.in.empty()) {
      set_state(c, Connection::State::idle);
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
void Reactor::answer_from_cache(Connection &c) {
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
bool Reactor::cookie_answer(const CookieAnswers &answers, std::string_view target,
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
void Reactor::linger(Connection &c) {
  ::shutdown(c.fd, SHUT_WR);
  set_state(c, Connection::State::lingering);
  c.in.clear();
  c.deadline = Clock::now() + std::chrono::seconds(2);
  watch(c, EPOLLIN | EPOLLRDHUP);
}

void Reactor::on_lingering(Connection &c) {
  char buffer[16384];
  for (;;) {
    const auto n = ::recv(c.fd, buffer, sizeof buffer, 0);
    if (n > 0) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n < 0 && errno == EINTR) continue;
    return close_connection(c);
  }
}

void Reactor::on_writable(Connection &c) {
  if (!flush(c)) return close_connection(c);
  if (!c.out.empty()) return;
  resume(c);
}

void Reactor::sweep(Clock::time_point now) {
  std::vector<Connection *> late;
  for (auto &[fd, c] : connections_)
    if (c->state != Connection::State::working && now >= c->deadline) late.push_back(c.get());
  for (auto *c : late)
    close_connection(*c);
}

void Reactor::dispatch(Connection &c) {
  set_state(c, Connection::State::working);
  watch(c, 0); // nothing until the worker, or a held answer's release, gives it back
  if (!hub_.answered_at_once(c)) return hub_.dispatch(c);
  // Made here: its answer is sent now, or once released (then `c` is no longer ours to touch).
  if (hub_.serve_here(c)) resume(c);
}

} // namespace verdict::transport
