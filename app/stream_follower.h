// A node of a cluster follows the cluster's stream of writes (cluster/write_stream.h) and
// applies each one to its own file, in the stream's order, exactly once: the file keeps the
// sequence it has applied in the same transaction as each write (store/apply_write.h apply_entry),
// so a node that stops anywhere, or starts from another node's backup, goes on from its file's
// place. Every node applies every write, its own too: what a node shows is always its file.
//
// The follower is the stream's edge: an entry is applied only if it opens with the cluster's
// key (cluster/cluster_key.h) under the id it was stored with, and was stored soon after it
// was sealed. Anything else — written by whoever reached a NATS server without the key, cut
// short, or an old entry published again — is skipped: its sequence recorded as applied with
// nothing written, counted, said once on stderr, and shown by `verdict cluster status`. It
// never stops the node; only an authentic entry this version cannot read does.
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

#include "cluster/cluster_key.h"
#include "cluster/write_stream.h"
#include "store/store.h"

namespace verdict {

class StreamFollower {
public:
  // Applies one opened write to the file (ClusterWrites::apply): `entry.payload` is the plain
  // text the cluster's key sealed. May queue it and return at once, calling `failed` if the
  // file then could not take it.
  using Apply =
      std::function<void(const cluster::StreamEntry &entry, const std::function<void()> &failed)>;
  // `node` names this node in the places the nodes report (`verdict cluster status`); empty,
  // it reports none (a command's passing follower, as `verdict digest` runs one).
  // `replay_after`: an entry stored this long after it was sealed is taken for one published
  // again, and skipped (the stream's duplicate window: within it, JetStream itself keeps an
  // id once).
  StreamFollower(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key,
                 Apply apply, std::string node,
                 std::chrono::milliseconds replay_after = std::chrono::minutes(2));
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
  // Why following is stuck, or empty while it goes: a write it cannot apply, a stream it
  // cannot read, or its file more than kMostLag behind a write the stream held (a node's
  // follower only: it checks once a second).
  std::string problem() const;
  static constexpr auto kMostLag = std::chrono::seconds(5);
  // Entries skipped as not the cluster's (see above), and the sequence of the last: tests ask
  // here; `verdict cluster status` reads them from the place the node reports.
  uint64_t skipped() const { return skipped_; }
  uint64_t last_skipped() const { return last_skipped_; }

private:
  void follow();
  // Applies (or queues) what comes within `wait`: its sequence, 0 when nothing came.
  uint64_t apply_next(std::chrono::milliseconds wait);
  void report_place();
  void note_lag();
  // Applies `entry` if it is the cluster's, else skips it.
  void apply_authentic(const cluster::StreamEntry &entry);
  void skip(const cluster::StreamEntry &entry, const std::string &why);

  Store &store_;
  cluster::WriteStream &stream_;
  const cluster::ClusterKey &key_;
  Apply apply_;
  std::chrono::milliseconds replay_after_;
  std::atomic<uint64_t> skipped_{0}, last_skipped_{0};
  std::string node_;
  std::unique_ptr<cluster::StreamReader> reader_;
  std::atomic<bool> start_again_{false}; // a queued write failed: read again from the file
  mutable std::mutex mutex_;             // guards problem_ and wakes the thread to stop
  std::condition_variable stop_;
  std::string problem_;
  uint64_t owed_ = 0; // a write the stream held that the file had not applied when last looked
  std::chrono::steady_clock::time_point owed_since_;
  std::string lagging_;        // said once owed_ is older than kMostLag
  std::string stream_trouble_; // the stream cannot take writes now (checked once a second)
  // The servers did not take this node's last report of its place: a write of the cluster's
  // own, once a second, so the node knows it can write even when nobody votes through it.
  // Said only once a report was taken before (a bucket just made may not answer for a few
  // seconds) and after two failures in a row (a leader being chosen again takes one).
  std::string place_unwritten_;
  bool place_ever_reported_ = false;
  int place_failures_in_a_row_ = 0;
  bool stopping_ = false;
  std::thread thread_;
  // Reports the node's place once a second, apart from applying: making the report's bucket
  // may take the servers seconds, which no write should wait for.
  std::thread reporter_;
};

} // namespace verdict
