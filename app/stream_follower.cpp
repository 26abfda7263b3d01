#include "app/stream_follower.h"

#include <iostream>
#include <stdexcept>

#include "domain/clock.h"
#include "store/apply_write.h"

namespace verdict {

StreamFollower::StreamFollower(Store &store, cluster::WriteStream &stream,
                               const cluster::ClusterKey &key, Apply apply, Refused refused,
                               std::string node, std::chrono::milliseconds replay_after,
                               Clock clock)
    : store_(store), stream_(stream), key_(key), apply_(std::move(apply)),
      refused_(std::move(refused)), replay_after_(replay_after), node_(std::move(node)),
      clock_(std::move(clock)) {}

StreamFollower::~StreamFollower() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (reporter_.joinable()) reporter_.join();
}

std::string StreamFollower::too_far_behind() {
  const auto applied = store_.applied_sequence();
  const auto first = stream_.first_sequence();
  const auto last = stream_.last_sequence();
  if (last <= applied || first <= applied + 1) return {};
  return "this node's file has applied the cluster's writes up to " + std::to_string(applied) +
         ", but the stream holds only " + std::to_string(first) + " to " + std::to_string(last) +
         " now: start this node from a newer `verdict backup` of another node";
}

uint64_t StreamFollower::apply_next(std::chrono::milliseconds wait) {
  if (start_again_.exchange(false) || !reader_)
    reader_ = stream_.read_from(store_.applied_sequence() + 1);
  const auto entry = reader_->next(wait);
  if (!entry) return 0;
  try {
    apply_authentic(*entry);
  } catch (...) {
    reader_.reset(); // read again from the file's place
    throw;
  }
  return entry->sequence;
}

namespace {

// How long past the moment no copy of an entry could pass the time check its id is kept all
// the same: the stream's clock and the node's may each be read a little apart.
constexpr int64_t kIdKeptBeyondMs = 60'000;

} // namespace

void StreamFollower::apply_authentic(const cluster::StreamEntry &entry) {
  // Authentic first: nothing of an entry is read before its seal holds.
  const auto opened = key_.open(entry.payload, entry.id);
  if (!opened) return skip(entry, "it is not sealed with this cluster's key");
  const cluster::StreamEntry plain{entry.sequence, opened->plain, entry.id, entry.stored_at_ms};
  if (entry.stored_at_ms > 0 && entry.stored_at_ms - opened->sealed_at_ms > replay_after_.count()) {
    const auto why = "it was stored " +
                     std::to_string((entry.stored_at_ms - opened->sealed_at_ms) / 1000) +
                     " s after it was sealed: an old entry published again, or the clock of the "
                     "node that sealed it is behind the NATS servers'";
    refused_(plain, "the clock of the server that took it is off the cluster's");
    return skip(entry, why);
  }
  // A copy published again passes the check above until the stream's clock is past
  // sealed + replay_after: the file keeps the id that long, so a copy is applied as nothing.
  const StreamPlace place{entry.sequence, entry.id,
                          opened->sealed_at_ms + replay_after_.count() + kIdKeptBeyondMs,
                          entry.stored_at_ms};
  apply_(plain, place, [this] { start_again_ = true; });
}

void StreamFollower::skip(const cluster::StreamEntry &entry, const std::string &why) {
  // Its sequence is this file's place all the same, so the node goes on past it.
  skip_entry(store_, entry.sequence, [this](const WriteResult &ended) {
    if (!ended.done()) start_again_ = true;
  });
  std::cerr << "verdict: skipped the cluster's entry " << entry.sequence << ": " << why << "\n";
}

uint64_t StreamFollower::catch_up() {
  const auto from = store_.applied_sequence();
  const auto last = stream_.last_sequence();
  // A stream that gives nothing for this long while writes are owed is not read: said, not
  // waited for forever (a node's server then stops, and is started again).
  constexpr auto kStalled = std::chrono::seconds(30);
  auto progressed = std::chrono::steady_clock::now();
  for (;;) {
    for (uint64_t given = store_.applied_sequence(); given < last;) {
      if (const auto sequence = apply_next(std::chrono::milliseconds(100)); sequence > 0) {
        given = sequence;
        progressed = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - progressed > kStalled) {
        reader_.reset();
        throw cluster::StreamUnavailable("the stream gave none of the writes past " +
                                         std::to_string(given) + " (to " + std::to_string(last) +
                                         ") for 30 s");
      }
    }
    // Votes are queued to the writer: the file has them once it committed them, unless one
    // failed, and then they are read again from the file's place.
    const auto read_all = std::chrono::steady_clock::now();
    while (!start_again_) {
      if (wait_for(last, std::chrono::milliseconds(100))) return store_.applied_sequence() - from;
      if (std::chrono::steady_clock::now() - read_all > kStalled)
        throw std::runtime_error("the writes read from the stream up to " + std::to_string(last) +
                                 " were not in this node's file 30 s later (it is at " +
                                 std::to_string(store_.applied_sequence()) + ")");
    }
  }
}

void StreamFollower::start() {
  thread_ = std::thread([this] { follow(); });
  if (node_.empty()) return; // a passing run's, not a node's
  reporter_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      note_lag();
      report_place();
      // Any trouble following means the pages may be behind: readers are told.
      const bool behind = !problem().empty();
      // Told under the lock, so on_behind(nullptr) returns only once no call is under way.
      if (behind_.exchange(behind) != behind) {
        std::lock_guard told_lock(mutex_);
        if (on_behind_) on_behind_(behind);
      }
      lock.lock();
      stop_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; });
    }
  });
}

void StreamFollower::on_behind(std::function<void(bool behind)> told) {
  std::lock_guard lock(mutex_);
  on_behind_ = std::move(told);
  if (behind_ && on_behind_) on_behind_(true); // already behind: told at once
}

void StreamFollower::note_lag() {
  uint64_t last = 0;
  std::string unwritable;
  try {
    unwritable = stream_.why_not_writable();
    last = stream_.last_sequence();
  } catch (const cluster::StreamUnavailable &e) {
    unwritable = e.what();
  }
  {
    std::lock_guard lock(mutex_);
    stream_trouble_ = unwritable.empty()
                          ? ""
                          : unwritable + ": this node refuses writes, and its pages may be behind";
  }
  if (!unwritable.empty()) return;
  const auto applied = store_.applied_sequence();
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  if (owed_ == 0 || applied >= owed_) {
    owed_ = last > applied ? last : 0;
    owed_since_ = now;
    lagging_.clear();
  } else if (now - owed_since_ > kMostLag) {
    lagging_ = "this node's file has applied the stream up to " + std::to_string(applied) +
               ", and write " + std::to_string(owed_) + " has waited more than " +
               std::to_string(kMostLag.count()) + " s: its pages may be behind";
  }
}

bool StreamFollower::report_place() {
  try {
    const auto skipped = store_.skipped_entries();
    const auto sent_ms = clock_.now_ms();
    const auto stored_ms = stream_.report_place(
        {node_, store_.applied_sequence(), sent_ms / 1000, skipped.count, skipped.last, problem()},
        key_);
    const auto answered_ms = clock_.now_ms();
    // The servers stored the report between sent and answered, by their clock: a clock that
    // reads earlier than that by more than the allowance is behind theirs.
    const auto behind_ms = stored_ms - answered_ms;
    std::lock_guard lock(mutex_);
    if (stored_ms > 0 && behind_ms > std::chrono::milliseconds(kMostClockBehind).count())
      clock_behind_ = "this server's clock is " + std::to_string(behind_ms / 1000) +
                      " s behind the NATS servers': its writes are refused until it agrees with "
                      "them (systemd-timesyncd), since every node would skip them as old";
    else if (stored_ms > 0)
      clock_behind_.clear();
    place_unwritten_.clear();
    place_ever_reported_ = true;
    place_failures_in_a_row_ = 0;
    return stored_ms > 0; // 0 when the stored report could not be read back
  } catch (const cluster::StreamUnavailable &e) {
    // Tried again in a second; `verdict cluster status` shows when a node was last heard. A
    // report is a replicated write, so its failures are proof the servers take none now,
    // where a lone server's word that it still leads the stream is not.
    std::lock_guard lock(mutex_);
    if (place_ever_reported_ && ++place_failures_in_a_row_ >= 2)
      place_unwritten_ = "the servers of the cluster's stream take no writes now (" +
                         std::string(e.what()) +
                         "): this node's writes may be refused, and its pages may be behind";
    return false;
  }
}

void StreamFollower::follow() {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    std::string problem;
    try {
      apply_next(std::chrono::milliseconds(100));
    } catch (const std::exception &e) {
      problem = e.what();
    }
    std::unique_lock lock(mutex_);
    if (problem != problem_ && !problem.empty())
      std::cerr << "verdict: following the cluster's writes: " << problem << "\n";
    problem_ = problem;
    // After a problem, a pause before trying again (the stream's servers may be electing).
    if (!problem.empty())
      stop_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; });
  }
}

bool StreamFollower::wait_for(uint64_t sequence, std::chrono::milliseconds within) {
  const auto until = std::chrono::steady_clock::now() + within;
  while (store_.applied_sequence() < sequence) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::string StreamFollower::clock_problem() const {
  std::lock_guard lock(mutex_);
  return clock_behind_;
}

std::string StreamFollower::check_clock(std::chrono::seconds answered_within) {
  const auto until = std::chrono::steady_clock::now() + answered_within;
  while (!report_place() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  return clock_problem();
}

std::string StreamFollower::problem() const {
  std::lock_guard lock(mutex_);
  if (!clock_behind_.empty()) return clock_behind_;
  if (!problem_.empty()) return problem_;
  if (!stream_trouble_.empty()) return stream_trouble_;
  return place_unwritten_.empty() ? lagging_ : place_unwritten_;
}

namespace {

// The newest entries of the stream looked at for one that opens with a key.
constexpr uint64_t kEntriesLookedAt = 32;

} // namespace

void check_cluster_key(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key) {
  constexpr std::string_view kKept = "cluster_key_fingerprint";
  if (const auto kept = store.kept_site_secret(kKept)) {
    if (*kept == key.fingerprint()) return;
    throw cluster::BadClusterKey(
        "this site's file has followed a cluster whose key is another: every node must be given "
        "the cluster's own key file (the one its other nodes were given)");
  }
  // Proof: any node's report, or any of the newest entries, that opens with the key. Against:
  // entries sealed (by some key) none of which opens. Junk that is nobody's entry (what anyone
  // holding a node's NATS password may publish) says nothing either way.
  bool opened = false;
  for (const auto &place : stream.node_places(key))
    opened = opened || !place.forged;
  size_t sealed_by_some_key = 0;
  const auto last = stream.last_sequence(), first = stream.first_sequence();
  for (uint64_t sequence = last;
       !opened && sequence > 0 && sequence >= first && sequence + kEntriesLookedAt > last;
       --sequence) {
    const auto entry = stream.entry_at(sequence);
    if (!entry || !cluster::ClusterKey::looks_sealed(entry->payload)) continue;
    ++sealed_by_some_key;
    opened = key.open(entry->payload, entry->id).has_value();
  }
  if (sealed_by_some_key > 0 && !opened)
    throw cluster::BadClusterKey(
        "none of the " + std::to_string(sealed_by_some_key) +
        " newest sealed entries of the cluster's stream, nor any node's report, opens with this "
        "key: it is not the cluster's (every node must be given the key file its other nodes "
        "were given)");
  store.keep_site_secret(kKept, key.fingerprint());
}

} // namespace verdict
