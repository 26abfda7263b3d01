#include "store_writes.h"

#include <string>
#include <utility>

#include "domain/clock.h"
#include "store/apply_write.h"

namespace verdict::test {

namespace {

// Applied at `at_ms` (now, unless a helper is given a time).
template <class W> WriteResult applied_now(Store &store, W write, int64_t at_ms = unix_now_ms()) {
  return apply(store, Write(std::move(write)), store.context_at(at_ms));
}

// Applied now (or at `at_ms`); what it made, for a kind that makes something; WriteNotDone
// unless done.
template <class W> auto applied_or_thrown(Store &store, W write, int64_t at_ms = unix_now_ms()) {
  const auto ended = applied_now(store, std::move(write), at_ms);
  throw_unless_done(ended);
  if constexpr (requires { typename W::Made; }) return *ended.template made_by<W>();
}

} // namespace

void create_category(Store &store, const ContentCategory &category, std::string_view editor) {
  applied_or_thrown(store, CreateCategory{category, std::string(editor)});
}
void update_category(Store &store, std::string_view slug, const ContentCategory &category,
                     std::string_view editor) {
  applied_or_thrown(store, UpdateCategory{std::string(slug), category, std::string(editor)});
}
void delete_category(Store &store, std::string_view slug, std::string_view editor) {
  applied_or_thrown(store, DeleteCategory{std::string(slug), std::string(editor)});
}
void create_tool(Store &store, const ContentTool &tool, std::string_view editor) {
  applied_or_thrown(store, CreateTool{tool, std::string(editor)});
}
void update_tool(Store &store, std::string_view slug, const ContentTool &tool,
                 std::string_view editor) {
  applied_or_thrown(store, UpdateTool{std::string(slug), tool, std::string(editor)});
}
void delete_tool(Store &store, std::string_view slug, std::string_view editor) {
  applied_or_thrown(store, DeleteTool{std::string(slug), std::string(editor)});
}
void create_reviewer(Store &store, const ContentReviewer &reviewer, std::string_view editor) {
  applied_or_thrown(store, CreateReviewer{reviewer, std::string(editor)});
}
void update_reviewer(Store &store, std::string_view slug, const ContentReviewer &reviewer,
                     std::string_view editor) {
  applied_or_thrown(store, UpdateReviewer{std::string(slug), reviewer, std::string(editor)});
}
void delete_reviewer(Store &store, std::string_view slug, std::string_view editor) {
  applied_or_thrown(store, DeleteReviewer{std::string(slug), std::string(editor)});
}
void create_review(Store &store, const ContentReview &review, std::string_view editor) {
  applied_or_thrown(store, CreateReview{review, std::string(editor)});
}
void update_review(Store &store, std::string_view tool, std::string_view reviewer,
                   const ContentReview &review, std::string_view editor) {
  applied_or_thrown(
      store, UpdateReview{std::string(tool), std::string(reviewer), review, std::string(editor)});
}
void delete_review(Store &store, std::string_view tool, std::string_view reviewer,
                   std::string_view editor) {
  applied_or_thrown(store,
                    DeleteReview{std::string(tool), std::string(reviewer), std::string(editor)});
}
void create_comparison(Store &store, const ContentComparison &comparison, std::string_view editor) {
  applied_or_thrown(store, CreateComparison{comparison, std::string(editor)});
}
void update_comparison(Store &store, std::string_view pair, const ContentComparison &comparison,
                       std::string_view editor) {
  applied_or_thrown(store, UpdateComparison{std::string(pair), comparison, std::string(editor)});
}
void delete_comparison(Store &store, std::string_view pair, std::string_view editor) {
  applied_or_thrown(store, DeleteComparison{std::string(pair), std::string(editor)});
}

void add_editor(Store &store, std::string_view email, std::string_view password_hash) {
  applied_or_thrown(store, AddEditor{std::string(email), std::string(password_hash)});
}
bool remove_editor(Store &store, std::string_view email) {
  const auto ended = applied_now(store, RemoveEditor{std::string(email)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  throw_unless_done(ended);
  return true;
}
bool set_editor_password(Store &store, std::string_view email, std::string_view password_hash) {
  const auto ended =
      applied_now(store, SetEditorPassword{std::string(email), std::string(password_hash)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  throw_unless_done(ended);
  return true;
}
void start_session(Store &store, std::string_view secret_hash, int64_t editor_id,
                   std::string_view csrf_token, int64_t expires_at) {
  applied_or_thrown(store, StartSession{std::string(secret_hash), editor_id,
                                        std::string(csrf_token), expires_at});
}
void end_session(Store &store, std::string_view secret_hash) {
  applied_or_thrown(store, EndSession{std::string(secret_hash)});
}

VoteStanding cast_tool_vote(Store &store, const Ballot &ballot, int64_t tool_id,
                            std::optional<Verdict> verdict) {
  return applied_or_thrown(store, CastToolVote{ballot, tool_id, verdict});
}
VoteStanding cast_pair_vote(Store &store, const Ballot &ballot, int64_t a_id, int64_t b_id,
                            std::optional<int64_t> pick) {
  return applied_or_thrown(store, CastPairVote{ballot, a_id, b_id, pick});
}
void cast_tool_vote(Store &store, const Ballot &ballot, int64_t tool_id,
                    std::optional<Verdict> verdict, WriteDone done) {
  apply_queued(store, CastToolVote{ballot, tool_id, verdict}, store.context_at(unix_now_ms()),
               std::move(done));
}
void cast_pair_vote(Store &store, const Ballot &ballot, int64_t a_id, int64_t b_id,
                    std::optional<int64_t> pick, WriteDone done) {
  apply_queued(store, CastPairVote{ballot, a_id, b_id, pick}, store.context_at(unix_now_ms()),
               std::move(done));
}

SubscriptionRequest request_subscription(Store &store, std::string_view email, int64_t now) {
  return applied_or_thrown(store, RequestSubscription{std::string(email), true}, now * 1000);
}
ConfirmationCheck confirm_subscription(Store &store, std::string_view token_hash, int64_t now) {
  return applied_or_thrown(store, ConfirmSubscription{std::string(token_hash)}, now * 1000);
}
bool unsubscribe(Store &store, int64_t id) {
  const auto before = store.subscriber(id);
  applied_or_thrown(store, Unsubscribe{id});
  return before && before->status != "unsubscribed";
}
Resubscription resubscribe(Store &store, int64_t id) {
  return applied_or_thrown(store, Resubscribe{id});
}
bool claim_confirmation(Store &store, int64_t subscriber_id, int64_t now, int64_t lease_seconds) {
  return applied_or_thrown(store, ClaimConfirmation{subscriber_id, lease_seconds}, now * 1000);
}
bool start_confirmation(Store &store, int64_t subscriber_id, std::string_view token_hash,
                        int64_t expires_at) {
  return applied_or_thrown(store,
                           StartConfirmation{subscriber_id, std::string(token_hash), expires_at});
}
void confirmation_mailed(Store &store, int64_t subscriber_id) {
  applied_or_thrown(store, ConfirmationMailed{subscriber_id});
}
void confirmation_failed(Store &store, int64_t subscriber_id,
                         std::optional<int64_t> next_attempt_at, std::string_view error) {
  applied_or_thrown(store, ConfirmationFailed{subscriber_id, next_attempt_at, std::string(error)});
}
bool erase_subscriber(Store &store, int64_t id, std::string_view editor) {
  const auto ended = applied_now(store, EraseSubscriber{id, std::string(editor)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  throw_unless_done(ended);
  return true;
}

Digest record_digest(Store &store, std::string_view today, int days) {
  const auto recorded = applied_or_thrown(store, RecordDigest{std::string(today), days});
  auto digest = store.digest_to_send(today, days);
  digest.resumed = recorded.resumed;
  return digest;
}
bool claim_digest_send(Store &store, int64_t digest_id, int64_t subscriber_id) {
  return applied_or_thrown(store, ClaimDigestSend{digest_id, subscriber_id});
}
void digest_sent(Store &store, int64_t digest_id, int64_t subscriber_id) {
  applied_or_thrown(store, DigestSent{digest_id, subscriber_id});
}
void digest_send_failed(Store &store, int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                        std::string_view error) {
  applied_or_thrown(store, DigestSendFailed{digest_id, subscriber_id, failure, std::string(error)});
}

ImportSummary import_content(Store &store, const Content &content) {
  return applied_or_thrown(store, ImportContent{content});
}

} // namespace verdict::test
