// A node of a cluster follows the cluster's stream of writes (cluster/write_stream.h) and
// applies each one to its own file, in the stream's order, exactly once: the file keeps the
// sequence it has applied in the same transaction as each write (Store::StreamApply), so a
// node that stops anywhere, or starts from another node's backup, goes on from its file's
// place. Every node applies every write, its own too: what a node shows is always its file.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "cluster/write_stream.h"
#include "store/store.h"

namespace verdict {

class StreamFollower {
public:
  // Applies one write to the file (ClusterWrites::apply); may queue it and return at once,
  // calling `failed` if the file then could not take it.
  using Apply =
      std::function<void(const cluster::StreamEntry &entry, const std::function<void()> &failed)>;
  // `node` names this node in the places the nodes report (`verdict cluster status`); empty,
  // it reports none (a command's passing follower, as `verdict digest` runs one).
  StreamFollower(Store &store, cluster::WriteStream &stream, Apply apply, std::string node);
  ~StreamFollower(); // stops following, if it was
  StreamFollower(const StreamFollower &) = delete;
  StreamFollower &operator=(const StreamFollower &) = delete;

  // Whether the file can follow the stream at all: empty when it can, otherwise why not (the
  // stream no longer holds the writes just past the file's place: a backup to start from that
  // is newer is needed).
  std::string too_far_behind();

  // Applies every write the stream holds now, and waits until the file has them: a node that
  // was down is current before it serves a page. Gives how many it applied. Throws
  // cluster::StreamUnavailable when the stream cannot be read, and std::runtime_error for a
  // write this node cannot apply (it stops there rather than differ from the others).
  uint64_t catch_up();

  // Follows in a thread of its own, each write moments after the stream took it; what stops it
  // (the stream unreadable, a write it cannot apply) it says in `problem()`, and tries again.
  void start();
  // Whether this file has applied `sequence` within `within`.
  bool wait_for(uint64_t sequence, std::chrono::milliseconds within);
  // Why following is stuck, or empty while it goes.
  std::string problem() const;

private:
  void follow();
  // Applies (or queues) what comes within `wait`: its sequence, 0 when nothing came.
  uint64_t apply_next(std::chrono::milliseconds wait);
  void report_place();

  Store &store_;
  cluster::WriteStream &stream_;
  Apply apply_;
  std::string node_;
  std::unique_ptr<cluster::StreamReader> reader_;
  std::atomic<bool> start_again_{false}; // a queued write failed: read again from the file
  mutable std::mutex mutex_;             // guards problem_ and wakes the thread to stop
  std::condition_variable stop_;
  std::string problem_;
  bool stopping_ = false;
  std::thread thread_;
  // Reports the node's place once a second, apart from applying: making the report's bucket
  // may take the servers seconds, which no write should wait for.
  std::thread reporter_;
};

} // namespace verdict
