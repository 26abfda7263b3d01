// A node of a cluster follows the cluster's stream of writes (cluster/write_stream.h) and
// applies each one to its own file, in the stream's order, exactly once: the file keeps the
// sequence it has applied in the same transaction as each write (Store::apply_tool_vote), so a
// node that stops anywhere, or starts from another node's backup, goes on from its file's
// place. Every node applies every write, its own too: what a node shows is always its file.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "cluster/write_stream.h"
#include "store/store.h"

namespace verdict {

class StreamFollower {
public:
  StreamFollower(Store &store, cluster::WriteStream &stream);
  ~StreamFollower(); // stops following, if it was
  StreamFollower(const StreamFollower &) = delete;
  StreamFollower &operator=(const StreamFollower &) = delete;

  // Applies every write the stream holds past this file's place; gives how many. Throws
  // cluster::StreamUnavailable when the stream cannot be read, and std::runtime_error for a
  // write this version cannot apply (the node stops there rather than differ from the others).
  size_t catch_up();

  // Follows in a thread of its own: catches up, then looks again after `idle` each time the
  // stream had nothing new (or could not be read; `problem()` says why until it can).
  void start(std::chrono::milliseconds idle);
  // Whether this file has applied `sequence` within `within`: a reader's next page on the node
  // that took their write shows it.
  bool wait_for(uint64_t sequence, std::chrono::milliseconds within);
  // Why following is stuck, or empty while it goes.
  std::string problem() const;

private:
  void follow(std::chrono::milliseconds idle);

  Store &store_;
  cluster::WriteStream &stream_;
  mutable std::mutex mutex_; // guards problem_, and wakes wait_for and the thread
  std::condition_variable applied_;
  std::string problem_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

} // namespace verdict
