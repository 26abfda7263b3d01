// A node of a cluster follows the cluster's stream of writes (cluster/write_stream.h) and
// applies each one to its own file, in the stream's order, exactly once: the file keeps the
// sequence it has applied in the same transaction as each write (store/apply_write.h apply_entry),
// so a node that stops anywhere, or starts from another node's backup, goes on from its file's
// place. Every node applies every write, its own too: what a node shows is always its file.
//
// The follower is the stream's edge: an entry is applied only if it opens with the cluster's
// key (cluster/cluster_key.h) under the id it was stored with, was stored soon after it was
// sealed, and bears an id this file has not applied before. Anything else — written by whoever
// reached a NATS server without the key, cut short, or an entry published again — is skipped:
// its sequence recorded as applied with nothing written, counted in the file, said once on
// stderr, and shown by `verdict cluster status`. It never stops the node; only an authentic
// entry this version cannot read does. Before any of it, a node proves its key is the
// cluster's (check_cluster_key), so a node given another key never serves.
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
#include "domain/clock.h"
#include "store/apply_write.h"
#include "store/store.h"

namespace verdict {

class StreamFollower {
public:
  // Applies one opened write to the file (ClusterWrites::apply): `entry.payload` is the plain
  // text the cluster's key sealed. May queue it and return at once, calling `failed` if the
  // file then could not take it.
  // `place` is what apply_entry keeps of it (store/apply_write.h).
  using Apply = std::function<void(const cluster::StreamEntry &entry, const StreamPlace &place,
                                   const std::function<void()> &failed)>;
  // Told an entry of the cluster's that is not applied all the same (stored too long after it
  // was sealed), with why: ClusterWrites::refused tells its writers.
  using Refused = std::function<void(const cluster::StreamEntry &entry, const std::string &why)>;
  // `node` names this node in the places the nodes report (`verdict cluster status`); empty,
  // it reports none (a command's passing follower, as `verdict digest` runs one).
  // `replay_after`: an entry stored this long after it was sealed is taken for one published
  // again, and skipped (the stream's duplicate window: within it, JetStream itself keeps an
  // id once). Within it, the file keeps each id it applied (until no copy could pass), so an
  // entry published again whatever the clocks is applied once. `clock`: the site's, measured
  // against the servers' at each report of this node's place.
  StreamFollower(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key,
                 Apply apply, Refused refused, std::string node,
                 std::chrono::milliseconds replay_after = kReplayAfter, Clock clock = {});
  static constexpr std::chrono::milliseconds kReplayAfter = std::chrono::minutes(2);
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
  // Why this node's writes must be refused now, or empty: its clock is more than
  // kMostClockBehind behind the NATS servers' (measured by each report of its place), so every
  // node would skip its entries as published again long after they were sealed.
  std::string clock_problem() const;
  static constexpr auto kMostClockBehind = std::chrono::seconds(90);
  // Reports this node's place, and measures its clock against the servers': what
  // clock_problem() says then (a node checks it before it serves). A report the servers do not
  // answer is sent again for up to `answered_within`, since a node that served without knowing
  // would have to refuse every write once it learnt.
  std::string check_clock(std::chrono::seconds answered_within);
  // Entries skipped as not the cluster's (see above), and the sequence of the last, as the file
  // counts them: `verdict cluster status` reads them from the place the node reports.
  uint64_t skipped() { return store_.skipped_entries().count; }
  uint64_t last_skipped() { return store_.skipped_entries().last; }
  // Whether the node's pages may be behind the stream now (its file more than kMostLag behind
  // a write the stream holds, or the stream unreadable): cheap, asked for every page.
  bool behind() const { return behind_.load(std::memory_order_relaxed); }
  // `told` hears each time behind() turns (on the reporting thread, once a second at most): the
  // server shows readers a line while it holds. Unset with nullptr: once it returns, `told`
  // is not being called and never will be.
  void on_behind(std::function<void(bool behind)> told);

private:
  void follow();
  // Applies (or queues) what comes within `wait`: its sequence, 0 when nothing came.
  uint64_t apply_next(std::chrono::milliseconds wait);
  // Whether the clock was measured: the servers stored the report and told when.
  bool report_place();
  void note_lag();
  // Applies `entry` if it is the cluster's, else skips it.
  void apply_authentic(const cluster::StreamEntry &entry);
  void skip(const cluster::StreamEntry &entry, const std::string &why);

  Store &store_;
  cluster::WriteStream &stream_;
  const cluster::ClusterKey &key_;
  Apply apply_;
  Refused refused_;
  std::chrono::milliseconds replay_after_;
  std::string node_;
  Clock clock_;
  std::atomic<bool> behind_{false};
  std::function<void(bool)> on_behind_;
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
  std::string clock_behind_; // said while the clock is more than kMostClockBehind behind
  bool place_ever_reported_ = false;
  int place_failures_in_a_row_ = 0;
  bool stopping_ = false;
  std::thread thread_;
  // Reports the node's place once a second, apart from applying: making the report's bucket
  // may take the servers seconds, which no write should wait for.
  std::thread reporter_;
};

// Whether `key` is the cluster's, before a node or command uses it: the file's own word when it
// followed the cluster before (it keeps the key's fingerprint), else the cluster's — any node's
// report or any of the stream's newest entries that opens with it proves it, and reports or
// entries none of which opens disprove it; with neither (the first node), it is taken. Throws
// cluster::BadClusterKey saying why when it is not; once proven, the file keeps its
// fingerprint. StreamUnavailable when the file cannot say and the stream cannot be read.
void check_cluster_key(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key);

} // namespace verdict
