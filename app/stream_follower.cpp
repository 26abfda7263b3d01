#include "app/stream_follower.h"

#include <stdexcept>

#include "domain/cluster_write.h"

namespace verdict {

StreamFollower::StreamFollower(Store &store, cluster::WriteStream &stream)
    : store_(store), stream_(stream) {}

StreamFollower::~StreamFollower() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  applied_.notify_all();
  if (thread_.joinable()) thread_.join();
}

size_t StreamFollower::catch_up() {
  size_t applied = 0;
  for (auto next = store_.applied_sequence() + 1; auto entry = stream_.entry_at(next); ++next) {
    const auto vote = decoded_tool_vote(entry->payload);
    if (!vote)
      throw std::runtime_error("the cluster's write " + std::to_string(next) +
                               " is of a kind this version of verdict cannot apply: upgrade it");
    if (store_.apply_tool_vote(next, *vote)) ++applied;
    { std::lock_guard lock(mutex_); } // a waiter between its look and its wait is not missed
    applied_.notify_all();
  }
  return applied;
}

void StreamFollower::start(std::chrono::milliseconds idle) {
  thread_ = std::thread([this, idle] { follow(idle); });
}

void StreamFollower::follow(std::chrono::milliseconds idle) {
  while (!stopping_) {
    std::string problem;
    try {
      catch_up();
    } catch (const std::exception &e) {
      problem = e.what();
    }
    std::unique_lock lock(mutex_);
    problem_ = problem;
    applied_.wait_for(lock, idle, [this] { return stopping_.load(); });
  }
}

bool StreamFollower::wait_for(uint64_t sequence, std::chrono::milliseconds within) {
  // Woken at each write applied; the file is asked, as only it knows what it holds.
  const auto holds_it = [&] { return store_.applied_sequence() >= sequence; };
  std::unique_lock lock(mutex_);
  applied_.wait_for(lock, within, [&] { return stopping_ || holds_it(); });
  return holds_it();
}

std::string StreamFollower::problem() const {
  std::lock_guard lock(mutex_);
  return problem_;
}

} // namespace verdict
