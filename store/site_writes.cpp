#include "store/site_writes.h"

#include "store/apply_write.h"

namespace verdict {

void StoreWrites::cast_tool_vote(const Ballot &ballot, int64_t tool_id,
                                 std::optional<Verdict> verdict, WriteDone done) {
  store_.cast_tool_vote(ballot, tool_id, verdict, std::move(done));
}

void StoreWrites::cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                                 std::optional<int64_t> pick, WriteDone done) {
  store_.cast_pair_vote(ballot, a_id, b_id, pick, std::move(done));
}

WriteResult StoreWrites::submit(const Write &write) {
  return apply(store_, write);
}

SubscriptionRequest StoreWrites::request_subscription(std::string_view email, int64_t now,
                                                      const std::function<bool()> &may_mail) {
  return store_.request_subscription(email, now, may_mail);
}

ConfirmationCheck StoreWrites::confirm_subscription(std::string_view token_hash, int64_t now) {
  return store_.confirm_subscription(token_hash, now);
}

Resubscription StoreWrites::resubscribe(int64_t id) {
  return store_.resubscribe(id);
}

std::string StoreWrites::site_secret(std::string_view name, std::string_view if_new) {
  return store_.site_secret(name, if_new);
}

bool StoreWrites::claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds) {
  return store_.claim_confirmation(subscriber_id, now, lease_seconds);
}

bool StoreWrites::start_confirmation(int64_t subscriber_id, std::string_view token_hash,
                                     int64_t expires_at) {
  return store_.start_confirmation(subscriber_id, token_hash, expires_at);
}

void StoreWrites::confirmation_mailed(int64_t subscriber_id) {
  store_.confirmation_mailed(subscriber_id);
}

void StoreWrites::confirmation_failed(int64_t subscriber_id, std::optional<int64_t> next_attempt_at,
                                      std::string_view error) {
  store_.confirmation_failed(subscriber_id, next_attempt_at, error);
}

std::string StoreWrites::log_signing_key() {
  return store_.log_signing_key();
}

void StoreWrites::make_checkpoint(int64_t now) {
  store_.make_checkpoint(store_.log_signing_key(), now);
}

ImportSummary StoreWrites::import_content(const Content &content) {
  return store_.import_content(content);
}

Digest StoreWrites::record_digest(std::string_view today, int days) {
  return store_.digest_to_send(today, days, true);
}

bool StoreWrites::claim_digest_send(int64_t digest_id, int64_t subscriber_id) {
  return store_.claim_digest_send(digest_id, subscriber_id);
}

void StoreWrites::digest_sent(int64_t digest_id, int64_t subscriber_id) {
  store_.digest_sent(digest_id, subscriber_id);
}

void StoreWrites::digest_send_failed(int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                                     std::string_view error) {
  store_.digest_send_failed(digest_id, subscriber_id, failure, error);
}

} // namespace verdict
