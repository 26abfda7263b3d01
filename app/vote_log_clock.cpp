#include "app/vote_log_clock.h"

#include <algorithm>
#include <iostream>

namespace verdict {

VoteLogClock::VoteLogClock(Store &store, SiteWrites &writes, Clock clock,
                           int64_t publish_every_seconds)
    : store_(store), writes_(writes), clock_(std::move(clock)),
      publish_every_(publish_every_seconds), thread_([this] { run(); }) {}

VoteLogClock::~VoteLogClock() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_asked_.notify_all();
  thread_.join();
}

int64_t VoteLogClock::checkpoint_if_due(int64_t now) {
  try {
    const auto latest = store_.latest_checkpoint();
    if (latest && now - latest->made_at < kCheckpointEverySeconds)
      return latest->made_at + kCheckpointEverySeconds - now;
    writes_.submit_or_throw(MakeCheckpoint{});
    return kCheckpointEverySeconds;
  } catch (const std::exception &e) {
    // The file may be briefly unwritable (a full disk, a restore in progress): try again
    // within the hour rather than a day later.
    std::cerr << "verdict: no checkpoint of the vote log: " << e.what() << "\n";
    return 3600;
  }
}

int64_t VoteLogClock::publish_if_due(int64_t now) {
  if (now < next_batch_) return next_batch_ - now;
  // The periods are the clock's own (on the hour, for an hour), so every node of a cluster
  // asks at the same moments and the first asked makes the batch.
  next_batch_ = (now / publish_every_ + 1) * publish_every_;
  try {
    if (store_.votes_waiting()) writes_.submit_or_throw(PublishVotes{publish_every_});
  } catch (const std::exception &e) {
    std::cerr << "verdict: the votes waiting were not published: " << e.what()
              << " (tried again in a minute)\n";
    next_batch_ = now + 60;
  }
  return next_batch_ - now;
}

void VoteLogClock::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto now = clock_.now();
    auto wait = checkpoint_if_due(now);
    if (publish_every_ > 0) wait = std::min(wait, publish_if_due(now));
    stop_asked_.wait_for(lock, std::chrono::seconds(std::clamp<int64_t>(wait, 1, 3600)),
                         [this] { return stopping_; });
  }
}

} // namespace verdict
