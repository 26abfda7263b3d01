// A cluster node's writes (store/site_writes.h): each is published to the cluster's stream of
// writes (cluster/write_stream.h) and applied from it, in the stream's order, by every node,
// this one included (app/stream_follower.h). Its caller hears back only once JetStream holds
// the write on a majority of its servers, and, for a bounded while, once this node's own file
// has it too, so the reader's next page here shows it. A write the stream cannot take ends
// `unavailable` (WriteResult: a 503 that says why); nothing is acknowledged that the stream
// does not hold.
//
// Every entry is sealed with the cluster's key (cluster/cluster_key.h) before it leaves the
// node, and the site's secrets are the key's, never entries. A vote carries what the node saw
// (the voter's cookie as its keyed hash, the network's keyed hash, the form's token) and is
// judged where it is applied: the token's time on page by this code, the counting rule and
// every quota by the store, on every node alike.
//
// When the stream cannot take writes, a reader hears so within a few seconds, however many
// write at once: a write waits at most `most_waiting` in the queue, the queue holds at most
// `most_queued`, and after a publish fails, writes are refused at once for `refuse_after_failure`
// before the next is tried (then /healthz says so too).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cluster/cluster_key.h"
#include "cluster/write_stream.h"
#include "domain/cluster_write.h"
#include "store/apply_write.h"
#include "store/site_writes.h"

namespace verdict {

class ClusterWrites : public SiteWrites, public SiteKeys {
public:
  struct Settings {
    std::string node; // this node's name, in each write's id
    // How long a caller waits for this node's own file to apply its acknowledged write before
    // it is told the write was taken anyway (it is in the stream, and lands here soon).
    std::chrono::milliseconds own_apply_wait{1000};
    // Votes are published by this many threads, so a handler never waits on the network; each
    // takes every vote queued meanwhile (up to most_together) into one entry of the stream, so
    // the stream's servers agree once for many votes. With one, an entry is in flight at a
    // time and the next carries every vote that came meanwhile: measured on 2 cores, 7–8k
    // votes/s with 1, 7k with 2 and 6k with 8, where each entry costs every node and server.
    int publishers = 1;
    size_t most_together = 256;
    size_t most_queued = 4096;
    std::chrono::milliseconds most_waiting{1500};
    std::chrono::milliseconds refuse_after_failure{1000};
    // Makes each write's and each entry's id. Unset: the node's name and 128 random bits, so
    // nobody can publish under an id before the node does. Tests set it to ids anyone could
    // guess, to see a taken id answered by publishing again under another.
    std::function<std::string()> new_id;
    // The site's time (domain/clock.h): each write is taken, and each entry sealed, at its time.
    Clock clock;
  };
  // Puts the key's site secrets in the store's file (so the vote log is signed alike on every
  // node, and `verdict verify` on any node's file agrees).
  ClusterWrites(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key,
                Settings settings);
  ~ClusterWrites() override;
  ClusterWrites(const ClusterWrites &) = delete;
  ClusterWrites &operator=(const ClusterWrites &) = delete;

  // Applies the writes the stream holds at `entry` to this node's file (store/apply_write.h
  // apply_entry), each with the time and date it was taken; if this node took one, its caller
  // hears how it ended. Queued to the store's writer: this returns at once, and `failed`
  // hears if the file could not take the entry (then nothing of it was applied). Throws
  // std::runtime_error for a write this version cannot read.
  // `place` is what the file keeps of the entry (store/apply_write.h StreamPlace).
  void apply(const cluster::StreamEntry &entry, const StreamPlace &place,
             const std::function<void()> &failed);

  // A write that makes something (its kind's Made) and that the stream took but this node has
  // not applied yet is answered `unavailable`: what it made is not known here.
  WriteResult submit(const Write &write) override;
  void submit_queued(const Write &write, WriteDone done) override;
  // The cluster key's: the same on every node, and never an entry.
  std::string site_secret(std::string_view name, std::string_view if_new) override;
  std::string log_signing_key() override;

  // Why this node cannot take writes now (the stream refused the last one), or empty.
  std::string problem();
  // Every write is refused at once while `why_not` says why (this node's clock is off:
  // StreamFollower::clock_problem), so no reader is told "saved" for an entry every node
  // would skip. Set once, before writes come.
  void refuse_while(std::function<std::string()> why_not) { refuse_while_ = std::move(why_not); }

  // The entry at `entry` was this cluster's but is not applied (app/stream_follower.h: it was
  // stored too long after it was sealed, so this node's clock is off the servers'): those of
  // its writes this node took are told they were not saved.
  void refused(const cluster::StreamEntry &entry, const std::string &why);

private:
  ClusterWrite taken(const Write &write);
  // Publishes `write` and waits for how it ended here.
  WriteResult outcome_of(ClusterWrite write);
  // Publishes `write` from a publisher thread; `told` hears how it ended.
  void submit_then(ClusterWrite write, WriteDone told);
  // Publishes `writes` as one entry of the stream; their callers hear if it was not taken.
  void publish(const std::vector<ClusterWrite> &writes);
  // Stores `plain` sealed as one entry under an id of its own, again under a new id when the
  // stream held another entry under that one. StreamUnavailable when it was not stored.
  void publish_sealed(const std::string &plain);
  // A vote's ballot as the stream carries it, judged here: its token must be one this site
  // made for `target` before the vote was taken, and gives the time on page; its day is the
  // day the vote was taken. False, and the ballot left as it came, when the token does not
  // hold.
  bool judge(Ballot &ballot, const std::string &target, const ClusterWrite &taken) const;
  bool judge(Write &vote, const ClusterWrite &taken) const; // the same, for a vote of either kind
  // Whether writes are refused at once now, a publish having just failed.
  bool refusing_now();
  // Told to every write while refuse_while's reason holds; nothing when it does not.
  std::optional<WriteResult> refused_at_once();
  std::function<std::string()> refuse_while_;
  void expect(const std::string &id, WriteDone told);
  void acknowledged(const std::string &id);
  void tell(const std::string &id, const WriteResult &ended);
  void run_publisher();
  void run_sweeper();

  Store &store_;
  cluster::WriteStream &stream_;
  const cluster::ClusterKey &key_;
  std::string token_key_; // the key's vote-token key, to judge each vote's token
  Settings settings_;
  std::string new_id();

  struct Expected {
    WriteDone told;
    // Once acknowledged, the time after which the caller is told "written" without waiting
    // longer for this node's file.
    std::optional<std::chrono::steady_clock::time_point> given_up_waiting_at;
  };
  std::mutex expected_mutex_;
  std::unordered_map<std::string, Expected> expected_;

  std::mutex queue_mutex_;
  std::condition_variable queued_;  // publishers wait on it, and only they: a write wakes one
  std::condition_variable stopped_; // the sweeper waits on it
  struct Queued {
    ClusterWrite write;
    std::chrono::steady_clock::time_point queued_at;
  };
  std::deque<Queued> to_publish_;
  // After a publish failed: writes are refused at once until then, and why.
  mutable std::mutex refusal_mutex_;
  std::optional<std::chrono::steady_clock::time_point> refuse_until_;
  std::string refusing_because_;
  bool stopping_ = false;
  std::vector<std::thread> publishers_;
  std::thread sweeper_;
};

} // namespace verdict
