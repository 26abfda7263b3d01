// One reactor of transport/connection_server.h: an epoll loop on its own thread and the
// connections it owns while they are idle, arriving or being flushed. It reads, frames
// (transport/request_framing.h), answers from the shared cache itself when it can, runs the
// handler itself for a request answered at once (a vote), and hands any other whole request
// to a worker through the Hub; the worker gives the connection back.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "transport/connection.h"

namespace verdict::transport {

// The connections of one reactor that wait on their client: idle between requests, or a
// request still arriving. In the order each began to wait, so the first is the one that has
// waited longest: at the connection bound it is closed to make room (Reactor::make_room). A
// reader's request arrives whole at once, so the first are a slow client's. Linked through
// the connections themselves, so joining, leaving and finding the first cost the same however
// many wait. The reactor's thread alone uses it; `waiting()` may be read from any thread.
class WaitingLine {
public:
  void join(Connection &c);  // at the back
  void leave(Connection &c); // when in the line
  Connection *first() const { return first_; }
  size_t waiting() const { return waiting_.load(std::memory_order_relaxed); }

private:
  Connection *first_ = nullptr, *last_ = nullptr;
  std::atomic<size_t> waiting_{0};
};

// One epoll loop and the connections it owns. A connection is registered level-triggered for
// what its state waits on (reading or writing) and for nothing while a worker holds it, so
// an answer sent whole costs no epoll call. A connection being flushed waits for EPOLLOUT
// alone: a client that shut its sending side would otherwise report RDHUP on every wait.
class Reactor {
public:
  explicit Reactor(Hub &hub);
  ~Reactor(); // closes every connection it still owns

  // From httplib's accept thread: a new connection joins this reactor; with `make_room`, one
  // past the connection bound, for which the oldest connection waiting here is closed.
  void adopt(int fd, ShareKeys shares, bool make_room);
  // Connections waiting on their client (any thread; a moment's count).
  size_t waiting() const { return line_.waiting(); }
  // From a worker, or a held answer's release: the connection is this reactor's again.
  void give_back(Connection &c);
  void wake();
  void stop();

private:
  void run();
  void take_handoffs();
  void start(int fd, ShareKeys shares);
  void make_room(int fd, ShareKeys shares);
  void set_state(Connection &c, Connection::State state);
  void resume(Connection &c);
  void on_readable(Connection &c);
  void answer_from_cache(Connection &c);
  static bool cookie_answer(const CookieAnswers &answers, std::string_view target,
                            std::string_view cookie, std::string &out);
  void on_writable(Connection &c);
  void linger(Connection &c);
  void on_lingering(Connection &c);
  void sweep(Clock::time_point now);
  void dispatch(Connection &c);
  void watch(Connection &c, uint32_t events);
  void close_connection(Connection &c);

  Hub &hub_;
  const int epoll_;
  const int wake_;
  std::atomic<bool> stopped_{false};
  std::unordered_map<int, std::unique_ptr<Connection>> connections_; // this thread only
  WaitingLine line_;

  struct Incoming {
    int fd;
    ShareKeys shares;
    bool make_room;
  };
  std::mutex handoff_mutex_;
  std::vector<Incoming> incoming_;
  std::vector<Connection *> returned_;
  bool wake_pending_ = false; // a wake for the hand-overs is on its way

  std::thread thread_;
};

} // namespace verdict::transport
