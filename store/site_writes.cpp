#include "store/site_writes.h"

namespace verdict {

void StoreWrites::cast_tool_vote(const Ballot &ballot, int64_t tool_id,
                                 std::optional<Verdict> verdict, WriteDone done) {
  store_.cast_tool_vote(ballot, tool_id, verdict, std::move(done));
}

void StoreWrites::cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                                 std::optional<int64_t> pick, WriteDone done) {
  store_.cast_pair_vote(ballot, a_id, b_id, pick, std::move(done));
}

void StoreWrites::create_category(const ContentCategory &category, std::string_view editor) {
  store_.create_category(category, editor);
}

void StoreWrites::update_category(std::string_view slug, const ContentCategory &category,
                                  std::string_view editor) {
  store_.update_category(slug, category, editor);
}

void StoreWrites::delete_category(std::string_view slug, std::string_view editor) {
  store_.delete_category(slug, editor);
}

void StoreWrites::create_tool(const ContentTool &tool, std::string_view editor) {
  store_.create_tool(tool, editor);
}

void StoreWrites::update_tool(std::string_view slug, const ContentTool &tool,
                              std::string_view editor) {
  store_.update_tool(slug, tool, editor);
}

void StoreWrites::delete_tool(std::string_view slug, std::string_view editor) {
  store_.delete_tool(slug, editor);
}

void StoreWrites::create_review(const ContentReview &review, std::string_view editor) {
  store_.create_review(review, editor);
}

void StoreWrites::update_review(std::string_view tool, std::string_view reviewer,
                                const ContentReview &review, std::string_view editor) {
  store_.update_review(tool, reviewer, review, editor);
}

void StoreWrites::delete_review(std::string_view tool, std::string_view reviewer,
                                std::string_view editor) {
  store_.delete_review(tool, reviewer, editor);
}

void StoreWrites::create_reviewer(const ContentReviewer &reviewer, std::string_view editor) {
  store_.create_reviewer(reviewer, editor);
}

void StoreWrites::update_reviewer(std::string_view slug, const ContentReviewer &reviewer,
                                  std::string_view editor) {
  store_.update_reviewer(slug, reviewer, editor);
}

void StoreWrites::delete_reviewer(std::string_view slug, std::string_view editor) {
  store_.delete_reviewer(slug, editor);
}

void StoreWrites::create_comparison(const ContentComparison &comparison, std::string_view editor) {
  store_.create_comparison(comparison, editor);
}

void StoreWrites::update_comparison(std::string_view pair, const ContentComparison &comparison,
                                    std::string_view editor) {
  store_.update_comparison(pair, comparison, editor);
}

void StoreWrites::delete_comparison(std::string_view pair, std::string_view editor) {
  store_.delete_comparison(pair, editor);
}

bool StoreWrites::erase_subscriber(int64_t id, std::string_view editor) {
  return store_.erase_subscriber(id, editor);
}

SubscriptionRequest StoreWrites::request_subscription(std::string_view email, int64_t now,
                                                      const std::function<bool()> &may_mail) {
  return store_.request_subscription(email, now, may_mail);
}

ConfirmationCheck StoreWrites::confirm_subscription(std::string_view token_hash, int64_t now) {
  return store_.confirm_subscription(token_hash, now);
}

bool StoreWrites::unsubscribe(int64_t id) {
  return store_.unsubscribe(id);
}

Resubscription StoreWrites::resubscribe(int64_t id) {
  return store_.resubscribe(id);
}

void StoreWrites::start_session(std::string_view secret_hash, int64_t editor_id,
                                std::string_view csrf_token, int64_t expires_at) {
  store_.start_session(secret_hash, editor_id, csrf_token, expires_at);
}

void StoreWrites::end_session(std::string_view secret_hash) {
  store_.end_session(secret_hash);
}

bool StoreWrites::set_editor_password(std::string_view email, std::string_view password_hash) {
  return store_.set_editor_password(email, password_hash);
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

void StoreWrites::add_editor(std::string_view email, std::string_view password_hash) {
  store_.add_editor(email, password_hash);
}

bool StoreWrites::remove_editor(std::string_view email) {
  return store_.remove_editor(email);
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
