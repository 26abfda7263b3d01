// A cluster node's writes (app/cluster_writes.h): publishing, the queue of votes and its
// publishers, waiting for how a write ended, and applying each entry of the stream: each
// write decoded by its one encoding (domain/write_encoding.h) and applied by the store's one
// apply (store/apply_write.h), a vote first judged here.
#include "app/cluster_writes.h"

#include <future>
#include <iostream>
#include <nlohmann/json.hpp>

#include "auth/secrets.h"
#include "auth/vote_tokens.h"
#include "domain/clock.h"
#include "domain/write_encoding.h"
#include "store/apply_write.h"

namespace verdict {

namespace {

// How long after a refused write /healthz keeps saying so without asking the stream again.
constexpr auto kRefusalHeld = std::chrono::seconds(10);

// Told to a write the stream did not take: for the reader.
WriteResult not_taken() {
  return WriteResult::not_done(
      WriteResult::Ended::unavailable,
      "The site cannot take writes right now: most of the servers that keep its writes do not "
      "answer. What you sent may not have been saved: please try again in a minute. Pages still "
      "read as before.");
}

// An entry this version cannot read: it stops the node until it is upgraded.
std::runtime_error unreadable(uint64_t sequence, const std::string &why) {
  return std::runtime_error("the cluster's write " + std::to_string(sequence) +
                            " cannot be read by this version of verdict (" + why + "): upgrade it");
}

} // namespace

ClusterWrites::ClusterWrites(Store &store, cluster::WriteStream &stream,
                             const cluster::ClusterKey &key, Settings settings)
    : store_(store), stream_(stream), key_(key), token_key_(key.secret("vote_tokens")),
      settings_(std::move(settings)) {
  // The same on every node: written to this file alone, never through the stream.
  for (const auto name : cluster::kSiteSecretNames)
    store_.keep_site_secret(name, key_.secret(name));
  for (int i = 0; i < settings_.publishers; ++i)
    publishers_.emplace_back([this] { run_publisher(); });
  sweeper_ = std::thread([this] { run_sweeper(); });
}

ClusterWrites::~ClusterWrites() {
  {
    std::lock_guard lock(queue_mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  stopped_.notify_all();
  for (auto &publisher : publishers_)
    publisher.join();
  sweeper_.join();
}

ClusterWrite ClusterWrites::taken(const Write &write) {
  const auto at = store_.context_at(settings_.clock.now_ms());
  return {new_id(), std::string(kind_name(write)), at.at_ms, at.today, arguments_of(write)};
}

std::string ClusterWrites::new_id() {
  if (settings_.new_id) return settings_.new_id();
  return settings_.node + "-" + auth::random_secret(16);
}

void ClusterWrites::expect(const std::string &id, WriteDone told) {
  std::lock_guard lock(expected_mutex_);
  expected_[id] = {std::move(told), std::nullopt};
}

void ClusterWrites::acknowledged(const std::string &id) {
  std::lock_guard lock(expected_mutex_);
  if (auto found = expected_.find(id); found != expected_.end())
    found->second.given_up_waiting_at = std::chrono::steady_clock::now() + settings_.own_apply_wait;
}

void ClusterWrites::tell(const std::string &id, const WriteResult &ended) {
  WriteDone told;
  {
    std::lock_guard lock(expected_mutex_);
    const auto found = expected_.find(id);
    if (found == expected_.end()) return; // another node's, or told already
    told = std::move(found->second.told);
    expected_.erase(found);
  }
  told(ended);
}

void ClusterWrites::publish_sealed(const std::string &plain) {
  // An id already taken is never ours to be told "written" for: the entry goes again under a
  // new one. Ids are unguessable, so a second taken one is no accident: refused then.
  constexpr int kTries = 3;
  for (int tries = 1;; ++tries) {
    const auto id = new_id();
    try {
      stream_.publish(key_.seal(plain, id, settings_.clock.now_ms()), id);
      return;
    } catch (const cluster::IdTaken &e) {
      std::cerr << "verdict: " << e.what() << ": "
                << (tries < kTries ? "published again under a new id" : "not published") << "\n";
      if (tries >= kTries) throw;
    }
  }
}

void ClusterWrites::publish(const std::vector<ClusterWrite> &writes) {
  try {
    publish_sealed(writes.size() == 1 ? encoded(writes.front()) : encoded_together(writes));
    {
      std::lock_guard lock(refusal_mutex_);
      refuse_until_.reset();
    }
    for (const auto &write : writes)
      acknowledged(write.id);
  } catch (const cluster::IdTaken &e) {
    // Ids taken ahead of the node: the stream itself answers, so later writes go as usual.
    std::cerr << "verdict: " << writes.size() << " write(s) not taken: " << e.what() << "\n";
    for (const auto &write : writes)
      tell(write.id, WriteResult::not_done(WriteResult::Ended::unavailable,
                                           "The site could not save this just now: please try "
                                           "again."));
  } catch (const cluster::StreamUnavailable &e) {
    std::cerr << "verdict: " << writes.size() << " write(s) not taken: " << e.what() << "\n";
    {
      std::lock_guard lock(refusal_mutex_);
      refuse_until_ = std::chrono::steady_clock::now() + settings_.refuse_after_failure;
      refusing_because_ = e.what();
    }
    for (const auto &write : writes)
      tell(write.id, not_taken());
  }
}

std::optional<WriteResult> ClusterWrites::refused_at_once() {
  if (!refuse_while_) return std::nullopt;
  if (const auto why = refuse_while_(); !why.empty())
    return WriteResult::not_done(WriteResult::Ended::unavailable,
                                 "This server cannot save anything right now: its clock is "
                                 "wrong. Nothing was saved: please try again in a few minutes.");
  return std::nullopt;
}

bool ClusterWrites::refusing_now() {
  std::lock_guard lock(refusal_mutex_);
  return refuse_until_ && std::chrono::steady_clock::now() < *refuse_until_;
}

std::string ClusterWrites::problem() {
  {
    std::lock_guard lock(refusal_mutex_);
    if (!refuse_until_) return {};
    // A refusal is the stream's own word: held for a while, since a server left alone may
    // still call itself the stream's leader for seconds after it lost the others.
    if (std::chrono::steady_clock::now() < *refuse_until_ + kRefusalHeld)
      return "the cluster's stream of writes does not take writes (" + refusing_because_ + ")";
  }
  // No write has gone since one was refused: ask the stream whether it answers now, so a
  // node nobody writes through (its balancer sent writers elsewhere) comes back.
  if (stream_.why_not_writable().empty()) {
    std::lock_guard lock(refusal_mutex_);
    refuse_until_.reset();
    return {};
  }
  std::lock_guard lock(refusal_mutex_);
  return "the cluster's stream of writes does not take writes (" + refusing_because_ + ")";
}

WriteResult ClusterWrites::outcome_of(ClusterWrite write) {
  std::promise<WriteResult> told;
  auto outcome = told.get_future();
  expect(write.id, [&told](const WriteResult &ended) { told.set_value(ended); });
  if (const auto refused = refused_at_once())
    tell(write.id, *refused);
  else if (refusing_now())
    tell(write.id, not_taken());
  else
    publish({write});
  return outcome.get();
}

void ClusterWrites::submit_then(ClusterWrite write, WriteDone told) {
  // Refused at once while the stream has just refused one, or while the queue is full: a
  // reader waits no longer than the stream takes to answer, and memory stays bounded.
  const auto id = write.id;
  expect(id, std::move(told));
  if (const auto at_once = refused_at_once()) return tell(id, *at_once);
  bool refused = refusing_now();
  if (!refused) {
    std::lock_guard lock(queue_mutex_);
    refused = to_publish_.size() >= settings_.most_queued;
    if (!refused) to_publish_.push_back({std::move(write), std::chrono::steady_clock::now()});
  }
  if (refused) return tell(id, not_taken());
  queued_.notify_one();
}

void ClusterWrites::run_publisher() {
  for (;;) {
    std::vector<ClusterWrite> writes;
    std::vector<std::string> stale;
    {
      std::unique_lock lock(queue_mutex_);
      queued_.wait(lock, [this] { return stopping_ || !to_publish_.empty(); });
      if (to_publish_.empty()) return;
      // Writes that waited too long (the stream was slow to refuse the ones before) are
      // refused without being sent: their readers have waited enough.
      const auto stale_before = std::chrono::steady_clock::now() - settings_.most_waiting;
      const bool refusing = refusing_now();
      while (!to_publish_.empty() && writes.size() < std::max<size_t>(settings_.most_together, 1)) {
        if (refusing || to_publish_.front().queued_at < stale_before)
          stale.push_back(std::move(to_publish_.front().write.id));
        else
          writes.push_back(std::move(to_publish_.front().write));
        to_publish_.pop_front();
      }
    }
    for (const auto &id : stale)
      tell(id, not_taken());
    if (!writes.empty()) publish(writes);
  }
}

// Callers whose write the stream acknowledged but this node's file has not applied within
// own_apply_wait are told it was written: it was, and lands here once the node catches up.
void ClusterWrites::run_sweeper() {
  std::unique_lock lock(queue_mutex_);
  while (!stopped_.wait_for(lock, std::chrono::milliseconds(50), [this] { return stopping_; })) {
    std::vector<std::string> overdue;
    {
      std::lock_guard expected_lock(expected_mutex_);
      const auto now = std::chrono::steady_clock::now();
      for (const auto &[id, expected] : expected_)
        if (expected.given_up_waiting_at && *expected.given_up_waiting_at <= now)
          overdue.push_back(id);
    }
    lock.unlock(); // a caller told may queue a write meanwhile
    for (const auto &id : overdue)
      tell(id, WriteResult::written());
    lock.lock();
  }
}

void ClusterWrites::apply(const cluster::StreamEntry &entry, const StreamPlace &place,
                          const std::function<void()> &failed) {
  const auto taken_writes = decoded_cluster_writes(entry.payload);
  if (!taken_writes) throw unreadable(entry.sequence, "not an entry of writes");
  std::vector<Write> decoded;
  for (const auto &taken : *taken_writes) {
    std::optional<Write> write;
    try {
      write = write_from(taken.kind, taken.arguments);
    } catch (const std::invalid_argument &e) {
      throw unreadable(entry.sequence, "a " + taken.kind + ": " + e.what());
    }
    if (!write)
      throw std::runtime_error("the cluster's write " + std::to_string(entry.sequence) + " is a " +
                               taken.kind +
                               ", which this version of verdict cannot apply: upgrade it");
    // Only votes are published together: an entry is one transaction, one write or many votes.
    if (taken_writes->size() > 1 && !casts_vote(*write))
      throw unreadable(entry.sequence, "a " + taken.kind + " among other writes");
    decoded.push_back(std::move(*write));
  }
  std::vector<EntryWrite> writes;
  for (size_t i = 0; i < decoded.size(); ++i) {
    const auto &taken = (*taken_writes)[i];
    // A vote whose token does not hold is refused before it is written, as on every node.
    if (casts_vote(decoded[i]) && !judge(decoded[i], taken)) {
      tell(taken.id, WriteResult::not_done(WriteResult::Ended::refused,
                                           "The vote's token was not made by this site for this "
                                           "vote: it was not taken."));
      continue;
    }
    // Applied at the time and on the date it was taken, wherever and whenever that is.
    writes.push_back({std::move(decoded[i]), WriteContext{taken.taken_at_ms, taken.today},
                      [this, id = taken.id](const WriteResult &ended) {
                        // Not written (the file's trouble): the entry is read again, and its
                        // caller told once it is applied, or given up waiting for.
                        if (!ended.not_taken()) tell(id, ended);
                      }});
  }
  apply_entry(store_, place, std::move(writes), [failed, place](const WriteResult &ended) {
    if (ended.not_taken()) return failed(); // the follower reads again from the file's place
    if (!ended.done())
      std::cerr << "verdict: skipped the cluster's entry " << place.sequence << ": its id "
                << place.id << " was applied before (an entry published again)\n";
  });
}

void ClusterWrites::refused(const cluster::StreamEntry &entry, const std::string &why) {
  const auto taken_writes = decoded_cluster_writes(entry.payload);
  if (!taken_writes) return;
  for (const auto &taken : *taken_writes)
    tell(taken.id, WriteResult::not_done(WriteResult::Ended::unavailable,
                                         "The site could not save this: " + why +
                                             ". Please try again in a minute."));
}

bool ClusterWrites::judge(Write &vote, const ClusterWrite &taken) const {
  if (auto *cast = std::get_if<CastToolVote>(&vote))
    return judge(cast->ballot, auth::tool_vote_target(cast->tool), taken);
  if (auto *pick = std::get_if<CastPairVote>(&vote))
    return judge(pick->ballot, auth::pair_vote_target(pick->a, pick->b), taken);
  return false;
}

bool ClusterWrites::judge(Ballot &ballot, const std::string &target,
                          const ClusterWrite &taken) const {
  const auto check =
      auth::check_vote_token(token_key_, ballot.token, target, taken.taken_at_ms / 1000);
  if (check.fault) return false;
  ballot.day = taken.today;
  ballot.seconds_on_page = check.seconds_on_page;
  return true;
}

WriteResult ClusterWrites::submit(const Write &write) {
  auto ended = outcome_of(taken(write));
  if (ended.done() && makes_something(write) && std::holds_alternative<std::monostate>(ended.made))
    return WriteResult::not_done(WriteResult::Ended::unavailable,
                                 "The site's cluster took this, but this server has not caught up "
                                 "with it yet: reload the page in a moment.");
  return ended;
}

void ClusterWrites::submit_queued(const Write &write, WriteDone done) {
  if (!casts_vote(write)) return done(submit(write));
  submit_then(taken(write), std::move(done));
}

std::string ClusterWrites::site_secret(std::string_view name, std::string_view) {
  return key_.secret(name);
}

std::string ClusterWrites::log_signing_key() {
  return key_.secret("vote_log_signing");
}

} // namespace verdict
