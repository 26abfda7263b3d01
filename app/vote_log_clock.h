// The vote log's clock (domain/vote_log.h), from a thread of its own so no request waits for
// it: a checkpoint at start when the latest is older than a day (or there is none), then one a
// day; and, when votes are published in batches, a batch at the end of each period (and at
// start, for votes left waiting by a stop). `verdict checkpoint` makes a checkpoint at any time
// besides.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "store/site_writes.h"
#include "store/store.h"

namespace verdict {

class VoteLogClock {
public:
  // `clock`: the site's, the one its writes take their time from. Checkpoints and batches are made
  // through `writes` (a cluster's, on a node: every node then holds the same, whichever asked
  // first). `publish_every_seconds`: the batches' period; 0, none (each vote is published with
  // itself).
  VoteLogClock(Store &store, SiteWrites &writes, Clock clock, int64_t publish_every_seconds);
  ~VoteLogClock(); // stops the thread; a checkpoint or batch being made is finished first
  VoteLogClock(const VoteLogClock &) = delete;
  VoteLogClock &operator=(const VoteLogClock &) = delete;

private:
  void run();
  int64_t checkpoint_if_due(int64_t now); // seconds until the next is due
  int64_t publish_if_due(int64_t now);    // the same, for the next batch

  Store &store_;
  SiteWrites &writes_;
  const Clock clock_;
  const int64_t publish_every_;
  int64_t next_batch_ = 0; // when the next batch is asked for; 0: at once (the start)
  std::mutex mutex_;
  std::condition_variable stop_asked_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace verdict
