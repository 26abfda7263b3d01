#include "app/checkpointer.h"

#include <algorithm>
#include <iostream>

namespace verdict {

Checkpointer::Checkpointer(Store &store, SiteWrites &writes, std::function<int64_t()> clock)
    : store_(store), writes_(writes), clock_(std::move(clock)), thread_([this] { run(); }) {}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_asked_.notify_all();
  thread_.join();
}

void Checkpointer::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    int64_t wait = kCheckpointEverySeconds;
    try {
      const auto latest = store_.latest_checkpoint();
      const auto now = clock_();
      if (!latest || now - latest->made_at >= kCheckpointEverySeconds)
        writes_.submit_or_throw(MakeCheckpoint{now});
      else
        wait = latest->made_at + kCheckpointEverySeconds - now;
    } catch (const std::exception &e) {
      // The file may be briefly unwritable (a full disk, a restore in progress): try again
      // within the hour rather than a day later.
      std::cerr << "verdict: no checkpoint of the vote log: " << e.what() << "\n";
      wait = 3600;
    }
    stop_asked_.wait_for(lock, std::chrono::seconds(std::clamp<int64_t>(wait, 1, 3600)),
                         [this] { return stopping_; });
  }
}

} // namespace verdict
