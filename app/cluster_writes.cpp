// A cluster node's writes (app/cluster_writes.h): publishing, the queue of votes and its
// publishers, waiting for a write's outcome, and applying each entry of the stream. Over 500
// lines because the stream's kinds that are not yet Write values (votes, sign-ups, the mailer's
// and the digest's writes) each still have an encoder here and a decoder in
// ClusterWrites::apply_write; as each becomes a value (domain/writes.h) its two leave this file.
#include "app/cluster_writes.h"

#include <future>
#include <iostream>
#include <nlohmann/json.hpp>

#include "auth/secrets.h"
#include "auth/vote_tokens.h"
#include "domain/vote_log.h"
#include "domain/write_encoding.h"
#include "store/apply_write.h"

namespace verdict {

using nlohmann::json;

namespace {

using Outcome = ClusterWrites::Outcome;

// The stream's kinds that are not a Write (domain/write_encoding.h names those), each one Store
// write (store/site_writes.h).
namespace kind {
constexpr auto tool_vote = "tool_vote", pair_vote = "pair_vote";
constexpr auto request_subscription = "request_subscription",
               confirm_subscription = "confirm_subscription", resubscribe = "resubscribe";
constexpr auto claim_confirmation = "claim_confirmation", start_confirmation = "start_confirmation",
               confirmation_mailed = "confirmation_mailed",
               confirmation_failed = "confirmation_failed";
constexpr auto make_checkpoint = "make_checkpoint";
constexpr auto import_content = "import_content";
constexpr auto record_digest = "record_digest", claim_digest_send = "claim_digest_send",
               digest_sent = "digest_sent", digest_send_failed = "digest_send_failed";
} // namespace kind

// A ballot as the stream carries it: what the taking node saw, never how long the page was
// open (judged from the token where the vote is applied).
json ballot_json(const Ballot &ballot) {
  return {{"voter", ballot.voter},
          {"network", ballot.network},
          {"wider", ballot.wider},
          {"day", ballot.day},
          {"token", ballot.token}};
}

json optional_json(const std::optional<int64_t> &value) {
  return value ? json(*value) : json(nullptr);
}
std::optional<int64_t> optional_int(const json &value) {
  return value.is_null() ? std::nullopt : std::optional(value.get<int64_t>());
}
json verdict_json(const std::optional<Verdict> &verdict) {
  return verdict ? json(verdict_word(*verdict)) : json(nullptr);
}
std::optional<Verdict> verdict_of(const json &value) {
  if (value.is_null()) return std::nullopt;
  const auto verdict = verdict_from_word(value.get<std::string>());
  if (!verdict) throw std::invalid_argument("not a verdict: " + value.dump());
  return verdict;
}

// The outcome of a write the store refused, as its caller is to hear it.
Outcome refusal_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const NotFound &e) {
    return {WriteResult::Ended::not_found, e.what(), "null"};
  } catch (const AlreadyExists &e) {
    return {WriteResult::Ended::already_exists, e.what(), "null"};
  } catch (const Refused &e) {
    return {WriteResult::Ended::refused, e.what(), "null"};
  }
}

// What a write gave back, for a write that gives something: none when the stream took it but
// this node has not applied it yet, so what it gave is not known here.
json given_back(const std::string &result) {
  auto given = json::parse(result);
  if (given.is_null())
    throw StoreUnavailable("The site's cluster took this, but this server has not caught up "
                           "with it yet: reload the page in a moment.");
  return given;
}

// A write's outcome raised in its caller as the store would raise it.
std::string result_or_raise(const Outcome &outcome) {
  switch (outcome.ended) {
  case WriteResult::Ended::done:
    return outcome.result;
  case WriteResult::Ended::not_found:
    throw NotFound(outcome.message);
  case WriteResult::Ended::already_exists:
    throw AlreadyExists(outcome.message);
  case WriteResult::Ended::refused:
    throw Refused(outcome.message);
  case WriteResult::Ended::failed:
    break;
  }
  throw StoreUnavailable(outcome.message);
}

// A queued write's outcome as its `done` hears it: the stream's refusal is the reader's to read.
std::optional<std::string> failure_of(const Outcome &outcome) {
  if (outcome.ended == WriteResult::Ended::done) return std::nullopt;
  if (outcome.ended == WriteResult::Ended::failed)
    return std::string(kForTheReader) + outcome.message;
  return outcome.message;
}

// A write's `done` that calls `failed` when the file did not take it: the follower then reads
// the stream again from the file's place.
WriteDone unless_written(const std::function<void()> &failed) {
  return [failed](const std::optional<std::string> &failure) {
    if (failure) failed();
  };
}

// How long after a refused write /healthz keeps saying so without asking the stream again.
constexpr auto kRefusalHeld = std::chrono::seconds(10);

constexpr auto kNotTaken =
    "The site cannot take writes right now: most of the servers that keep its "
    "writes do not answer. What you sent may not have been saved: "
    "please try again in a minute. Pages still read as before.";

} // namespace

ClusterWrites::ClusterWrites(Store &store, cluster::WriteStream &stream,
                             const cluster::ClusterKey &key, Settings settings)
    : store_(store), local_(store), stream_(stream), key_(key),
      token_key_(key.secret("vote_tokens")), settings_(std::move(settings)),
      id_prefix_(settings_.node + "-" + auth::random_secret(6) + "-") {
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

ClusterWrite ClusterWrites::taken(std::string kind, json arguments) {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  return {id_prefix_ + std::to_string(++count_), std::move(kind), now, store_.today(),
          std::move(arguments)};
}

void ClusterWrites::expect(const std::string &id, std::function<void(const Outcome &)> told) {
  std::lock_guard lock(expected_mutex_);
  expected_[id] = {std::move(told), std::nullopt};
}

void ClusterWrites::acknowledged(const std::string &id) {
  std::lock_guard lock(expected_mutex_);
  if (auto found = expected_.find(id); found != expected_.end())
    found->second.given_up_waiting_at = std::chrono::steady_clock::now() + settings_.own_apply_wait;
}

void ClusterWrites::tell(const std::string &id, const Outcome &outcome) {
  std::function<void(const Outcome &)> told;
  {
    std::lock_guard lock(expected_mutex_);
    const auto found = expected_.find(id);
    if (found == expected_.end()) return; // another node's, or told already
    told = std::move(found->second.told);
    expected_.erase(found);
  }
  told(outcome);
}

void ClusterWrites::publish(const std::vector<ClusterWrite> &writes) {
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  try {
    // One write goes under its id; several under their first's id, which no other entry bears.
    const auto id = writes.size() == 1 ? writes.front().id : writes.front().id + "+";
    const auto plain = writes.size() == 1 ? encoded(writes.front()) : encoded_together(writes);
    stream_.publish(key_.seal(plain, id, now_ms), id);
    {
      std::lock_guard lock(refusal_mutex_);
      refuse_until_.reset();
    }
    for (const auto &write : writes)
      acknowledged(write.id);
  } catch (const cluster::StreamUnavailable &e) {
    std::cerr << "verdict: " << writes.size() << " write(s) not taken: " << e.what() << "\n";
    {
      std::lock_guard lock(refusal_mutex_);
      refuse_until_ = std::chrono::steady_clock::now() + settings_.refuse_after_failure;
      refusing_because_ = e.what();
    }
    for (const auto &write : writes)
      tell(write.id, {WriteResult::Ended::failed, kNotTaken, "null"});
  }
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

ClusterWrites::Outcome ClusterWrites::outcome_of(ClusterWrite write) {
  std::promise<Outcome> told;
  auto outcome = told.get_future();
  expect(write.id, [&told](const Outcome &ended) { told.set_value(ended); });
  if (refusing_now())
    tell(write.id, {WriteResult::Ended::failed, kNotTaken, "null"});
  else
    publish({write});
  return outcome.get();
}

std::string ClusterWrites::submit_raising(ClusterWrite write) {
  return result_or_raise(outcome_of(std::move(write)));
}

void ClusterWrites::submit_then(ClusterWrite write, std::function<void(const Outcome &)> told) {
  // Refused at once while the stream has just refused one, or while the queue is full: a
  // reader waits no longer than the stream takes to answer, and memory stays bounded.
  const auto id = write.id;
  expect(id, std::move(told));
  bool refused = refusing_now();
  if (!refused) {
    std::lock_guard lock(queue_mutex_);
    refused = to_publish_.size() >= settings_.most_queued;
    if (!refused) to_publish_.push_back({std::move(write), std::chrono::steady_clock::now()});
  }
  if (refused) return tell(id, {WriteResult::Ended::failed, kNotTaken, "null"});
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
      tell(id, {WriteResult::Ended::failed, kNotTaken, "null"});
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
      tell(id, {WriteResult::Ended::done, "", "null"});
    lock.lock();
  }
}

// A write refused: applied as nothing (its sequence recorded, if the refusal came before any
// write did that), and its caller told why.
void ClusterWrites::refused_before_written(const Store::StreamApply &applying,
                                           const std::string &id,
                                           const std::function<void()> &failed) {
  const auto refusal = refusal_of(std::current_exception());
  if (!applying.made_a_write()) store_.apply_nothing(unless_written(failed));
  tell(id, refusal);
}

void ClusterWrites::apply(const cluster::StreamEntry &entry, const std::function<void()> &failed) {
  const auto writes = decoded_cluster_writes(entry.payload);
  const auto unreadable = [&entry] {
    return std::runtime_error("the cluster's write " + std::to_string(entry.sequence) +
                              " cannot be read by this version of verdict: upgrade it");
  };
  if (!writes) throw unreadable();
  // Only votes are published together: each is queued, and the entry's are written at once.
  if (writes->size() > 1)
    for (const auto &write : *writes)
      if (write.kind != kind::tool_vote && write.kind != kind::pair_vote) throw unreadable();
  Store::StreamApply applying(entry.sequence, writes->front().taken_at_ms, writes->front().today);
  for (const auto &write : *writes) {
    applying.next_writes_taken(write.taken_at_ms, write.today);
    apply_write(applying, entry.sequence, write, failed);
  }
}

void ClusterWrites::apply_write(const Store::StreamApply &applying, uint64_t sequence,
                                const ClusterWrite &write, const std::function<void()> &failed) {
  const auto &a = write.arguments;
  const auto vote_done = [this, id = write.id, sequence,
                          failed](std::optional<std::string> failure) {
    if (!failure) return tell(id, {WriteResult::Ended::done, "", "null"});
    // Refused as every node refuses it (its tool deleted meanwhile): applied as nothing.
    if (store_.applied_sequence() >= sequence)
      return tell(id, {WriteResult::Ended::refused, *failure, "null"});
    // Not applied: the follower starts again from the file's place; the caller is told once
    // it is, or given up waiting for.
    failed();
  };
  try {
    const auto &k = write.kind;
    json result;
    if (k == kind::tool_vote) {
      const auto tool = a.at("tool").get<int64_t>();
      return local_.cast_tool_vote(
          judged_ballot(a.at("ballot"), auth::tool_vote_target(tool), write), tool,
          verdict_of(a.at("verdict")), vote_done);
    }
    if (k == kind::pair_vote) {
      const auto a_id = a.at("a").get<int64_t>(), b_id = a.at("b").get<int64_t>();
      return local_.cast_pair_vote(
          judged_ballot(a.at("ballot"), auth::pair_vote_target(a_id, b_id), write), a_id, b_id,
          optional_int(a.at("pick")), vote_done);
    }
    // A write as a value: decoded by its one encoding, applied by the store's one apply.
    if (const auto value = write_from(k, a)) {
      const auto ended = verdict::apply(store_, *value);
      // The file could not take it: the follower reads the stream again from the file's place.
      if (ended.ended == WriteResult::Ended::failed) throw StoreUnavailable(ended.words);
      if (!applying.made_a_write()) store_.apply_nothing(unless_written(failed));
      return tell(write.id, {ended.ended, ended.words, "null"});
    }
    const auto text = [&a](const char *key) { return a.at(key).get<std::string>(); };
    if (k == kind::request_subscription) {
      // Whether a mail may go was asked where the sign-up was taken (its rations are that
      // node's): every node applies the same answer.
      const bool may_mail = a.at("may_mail").get<bool>();
      result = static_cast<int>(local_.request_subscription(
          text("email"), a.at("now").get<int64_t>(), [may_mail] { return may_mail; }));
    } else if (k == kind::confirm_subscription)
      result = static_cast<int>(
          local_.confirm_subscription(text("token_hash"), a.at("now").get<int64_t>()));
    else if (k == kind::resubscribe)
      result = static_cast<int>(local_.resubscribe(a.at("id").get<int64_t>()));
    else if (k == kind::claim_confirmation)
      result = local_.claim_confirmation(a.at("subscriber").get<int64_t>(),
                                         a.at("now").get<int64_t>(), a.at("lease").get<int64_t>());
    else if (k == kind::start_confirmation)
      result = local_.start_confirmation(a.at("subscriber").get<int64_t>(), text("token_hash"),
                                         a.at("expires_at").get<int64_t>());
    else if (k == kind::confirmation_mailed)
      local_.confirmation_mailed(a.at("subscriber").get<int64_t>());
    else if (k == kind::confirmation_failed)
      local_.confirmation_failed(a.at("subscriber").get<int64_t>(), optional_int(a.at("next")),
                                 text("error"));
    else if (k == kind::make_checkpoint) {
      // Every node's checkpointer asks once a day: the first asked is made, and the others,
      // finding one younger than half a day, add none.
      const auto now = a.at("now").get<int64_t>();
      const auto latest = store_.latest_checkpoint();
      if (!latest || now - latest->made_at >= kCheckpointEverySeconds / 2)
        local_.make_checkpoint(now);
    } else if (k == kind::import_content) {
      // The content as its file writes it: parsed here as `verdict import` parsed it there.
      const auto parsed = parse_content(text("content"));
      if (!parsed.errors.empty()) throw Refused("the content file is invalid: " + parsed.errors[0]);
      const auto summary = local_.import_content(parsed.content);
      result = json::array();
      for (const auto *counts : {&summary.site, &summary.categories, &summary.reviewers,
                                 &summary.tools, &summary.reviews, &summary.comparisons})
        result.push_back({counts->created, counts->updated});
    } else if (k == kind::record_digest)
      result = local_.record_digest(text("today"), a.at("days").get<int>()).id;
    else if (k == kind::claim_digest_send)
      result = local_.claim_digest_send(a.at("digest").get<int64_t>(),
                                        a.at("subscriber").get<int64_t>());
    else if (k == kind::digest_sent)
      local_.digest_sent(a.at("digest").get<int64_t>(), a.at("subscriber").get<int64_t>());
    else if (k == kind::digest_send_failed)
      local_.digest_send_failed(a.at("digest").get<int64_t>(), a.at("subscriber").get<int64_t>(),
                                static_cast<SendFailure>(a.at("failure").get<int>()),
                                text("error"));
    else
      throw std::runtime_error("the cluster's write " + std::to_string(sequence) + " is a " + k +
                               ", which this version of verdict cannot apply: upgrade it");
    if (!applying.made_a_write()) store_.apply_nothing(unless_written(failed));
    tell(write.id, {WriteResult::Ended::done, "", result.dump()});
  } catch (const NotFound &) {
    refused_before_written(applying, write.id, failed);
  } catch (const AlreadyExists &) {
    refused_before_written(applying, write.id, failed);
  } catch (const Refused &) {
    refused_before_written(applying, write.id, failed);
  } catch (const json::exception &e) {
    throw std::runtime_error("the cluster's write " + std::to_string(sequence) +
                             " cannot be read by this version of verdict (" + e.what() +
                             "): upgrade it");
  } catch (const std::invalid_argument &e) {
    throw std::runtime_error("the cluster's write " + std::to_string(sequence) +
                             " cannot be read by this version of verdict (" + e.what() +
                             "): upgrade it");
  }
}

// The writes themselves: each taken with its arguments, published, and heard back.

Ballot ClusterWrites::judged_ballot(const json &ballot, const std::string &target,
                                    const ClusterWrite &write) const {
  const auto token = ballot.at("token").get<std::string>();
  const auto check = auth::check_vote_token(token_key_, token, target, write.taken_at_ms / 1000);
  if (check.fault)
    throw Refused("The vote's token was not made by this site for this vote: it was not taken.");
  // "wider" from a node of this version on; an older node's vote meets no wider quota.
  return {ballot.at("voter").get<std::string>(),
          ballot.at("network").get<std::string>(),
          write.today,
          check.seconds_on_page,
          token,
          ballot.value("wider", std::string())};
}

void ClusterWrites::cast_tool_vote(const Ballot &ballot, int64_t tool_id,
                                   std::optional<Verdict> verdict, WriteDone done) {
  submit_then(taken(kind::tool_vote, json{{"ballot", ballot_json(ballot)},
                                          {"tool", tool_id},
                                          {"verdict", verdict_json(verdict)}}),
              [done = std::move(done)](const Outcome &outcome) { done(failure_of(outcome)); });
}

void ClusterWrites::cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                                   std::optional<int64_t> pick, WriteDone done) {
  submit_then(taken(kind::pair_vote, json{{"ballot", ballot_json(ballot)},
                                          {"a", a_id},
                                          {"b", b_id},
                                          {"pick", optional_json(pick)}}),
              [done = std::move(done)](const Outcome &outcome) { done(failure_of(outcome)); });
}

WriteResult ClusterWrites::submit(const Write &write) {
  const auto outcome = outcome_of(taken(std::string(kind_name(write)), arguments_of(write)));
  return {outcome.ended, outcome.message};
}

SubscriptionRequest ClusterWrites::request_subscription(std::string_view email, int64_t now,
                                                        const std::function<bool()> &may_mail) {
  const bool mail_allowed = !may_mail || may_mail();
  const auto result =
      submit_raising(taken(kind::request_subscription,
                           json{{"email", email}, {"now", now}, {"may_mail", mail_allowed}}));
  return static_cast<SubscriptionRequest>(given_back(result).get<int>());
}
ConfirmationCheck ClusterWrites::confirm_subscription(std::string_view token_hash, int64_t now) {
  const auto result = submit_raising(
      taken(kind::confirm_subscription, json{{"token_hash", token_hash}, {"now", now}}));
  return static_cast<ConfirmationCheck>(given_back(result).get<int>());
}
Resubscription ClusterWrites::resubscribe(int64_t id) {
  return static_cast<Resubscription>(
      given_back(submit_raising(taken(kind::resubscribe, json{{"id", id}}))).get<int>());
}

// The site's secrets are the cluster key's: the same on every node, and never an entry.
std::string ClusterWrites::site_secret(std::string_view name, std::string_view) {
  return key_.secret(name);
}

bool ClusterWrites::claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds) {
  return given_back(
             submit_raising(taken(
                 kind::claim_confirmation,
                 json{{"subscriber", subscriber_id}, {"now", now}, {"lease", lease_seconds}})))
      .get<bool>();
}
bool ClusterWrites::start_confirmation(int64_t subscriber_id, std::string_view token_hash,
                                       int64_t expires_at) {
  return given_back(
             submit_raising(taken(kind::start_confirmation, json{{"subscriber", subscriber_id},
                                                                 {"token_hash", token_hash},
                                                                 {"expires_at", expires_at}})))
      .get<bool>();
}
void ClusterWrites::confirmation_mailed(int64_t subscriber_id) {
  submit_raising(taken(kind::confirmation_mailed, json{{"subscriber", subscriber_id}}));
}
void ClusterWrites::confirmation_failed(int64_t subscriber_id,
                                        std::optional<int64_t> next_attempt_at,
                                        std::string_view error) {
  submit_raising(taken(kind::confirmation_failed, json{{"subscriber", subscriber_id},
                                                       {"next", optional_json(next_attempt_at)},
                                                       {"error", error}}));
}

std::string ClusterWrites::log_signing_key() {
  return key_.secret("vote_log_signing");
}

void ClusterWrites::make_checkpoint(int64_t now) {
  submit_raising(taken(kind::make_checkpoint, json{{"now", now}}));
}

ImportSummary ClusterWrites::import_content(const Content &content) {
  const auto counted = given_back(
      submit_raising(taken(kind::import_content, json{{"content", content_to_json(content)}})));
  ImportSummary summary;
  size_t i = 0;
  for (auto *counts : {&summary.site, &summary.categories, &summary.reviewers, &summary.tools,
                       &summary.reviews, &summary.comparisons}) {
    counts->created = counted.at(i).at(0).get<size_t>();
    counts->updated = counted.at(i++).at(1).get<size_t>();
  }
  return summary;
}

Digest ClusterWrites::record_digest(std::string_view today, int days) {
  submit_raising(taken(kind::record_digest, json{{"today", today}, {"days", days}}));
  // Recorded in this file now, whichever node's run made it: it is the digest owed.
  return store_.digest_to_send(today, days, false);
}
bool ClusterWrites::claim_digest_send(int64_t digest_id, int64_t subscriber_id) {
  return given_back(
             submit_raising(taken(kind::claim_digest_send,
                                  json{{"digest", digest_id}, {"subscriber", subscriber_id}})))
      .get<bool>();
}
void ClusterWrites::digest_sent(int64_t digest_id, int64_t subscriber_id) {
  submit_raising(
      taken(kind::digest_sent, json{{"digest", digest_id}, {"subscriber", subscriber_id}}));
}
void ClusterWrites::digest_send_failed(int64_t digest_id, int64_t subscriber_id,
                                       SendFailure failure, std::string_view error) {
  submit_raising(taken(kind::digest_send_failed, json{{"digest", digest_id},
                                                      {"subscriber", subscriber_id},
                                                      {"failure", static_cast<int>(failure)},
                                                      {"error", error}}));
}

} // namespace verdict
