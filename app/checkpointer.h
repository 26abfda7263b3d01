// The server's checkpoints of the vote log (domain/vote_log.h): one at start when the latest
// is older than a day (or there is none), then one a day, from a thread of its own, so no
// request waits for the sealing. `verdict checkpoint` makes one at any time besides.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "store/store.h"

namespace verdict {

class Checkpointer {
public:
  // `clock` gives seconds since 1970.
  Checkpointer(Store &store, std::string signing_key, std::function<int64_t()> clock);
  ~Checkpointer(); // stops the thread; a checkpoint being made is finished first
  Checkpointer(const Checkpointer &) = delete;
  Checkpointer &operator=(const Checkpointer &) = delete;

private:
  void run();

  Store &store_;
  const std::string signing_key_;
  const std::function<int64_t()> clock_;
  std::mutex mutex_;
  std::condition_variable stop_asked_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace verdict
