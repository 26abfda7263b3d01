// The server's checkpoints of the vote log (domain/vote_log.h): one at start when the latest
// is older than a day (or there is none), then one a day, from a thread of its own, so no
// request waits for the sealing. `verdict checkpoint` makes one at any time besides.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "store/site_writes.h"
#include "store/store.h"

namespace verdict {

class Checkpointer {
public:
  // `clock` gives seconds since 1970. Checkpoints are made through `writes` (a cluster's, on a
  // node: every node then holds the same one, whichever made it).
  Checkpointer(Store &store, SiteWrites &writes, std::function<int64_t()> clock);
  ~Checkpointer(); // stops the thread; a checkpoint being made is finished first
  Checkpointer(const Checkpointer &) = delete;
  Checkpointer &operator=(const Checkpointer &) = delete;

private:
  void run();

  Store &store_;
  SiteWrites &writes_;
  const std::function<int64_t()> clock_;
  std::mutex mutex_;
  std::condition_variable stop_asked_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace verdict
