// Each write applied to a store now, by a short way named for it: how the tests set a site up
// and change it. Each applies its kind (domain/writes.h, which says what each does) with the
// store's context at the time now (or the one given), as a lone server does
// (store/apply_write.h apply), and throws
// WriteNotDone (store/write_refusals.h) when it was not done. The site itself never writes
// this way: its handlers submit a Write (store/site_writes.h), and its commands apply one.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "domain/writes.h"
#include "store/store.h"
#include "store/write_refusals.h"

namespace verdict::test {

// How the writes `apply` makes ended when one was not done (the first WriteNotDone it threw);
// nothing when all were.
template <class F> std::optional<WriteResult::Ended> refusal_of(F &&apply) {
  try {
    apply();
  } catch (const WriteNotDone &not_done) {
    return not_done.result.ended;
  }
  return std::nullopt;
}

void create_category(Store &store, const ContentCategory &category, std::string_view editor);
void update_category(Store &store, std::string_view slug, const ContentCategory &category,
                     std::string_view editor);
void delete_category(Store &store, std::string_view slug, std::string_view editor);
void create_tool(Store &store, const ContentTool &tool, std::string_view editor);
void update_tool(Store &store, std::string_view slug, const ContentTool &tool,
                 std::string_view editor);
void delete_tool(Store &store, std::string_view slug, std::string_view editor);
void create_review(Store &store, const ContentReview &review, std::string_view editor);
void update_review(Store &store, std::string_view tool, std::string_view reviewer,
                   const ContentReview &review, std::string_view editor);
void delete_review(Store &store, std::string_view tool, std::string_view reviewer,
                   std::string_view editor);
void create_reviewer(Store &store, const ContentReviewer &reviewer, std::string_view editor);
void update_reviewer(Store &store, std::string_view slug, const ContentReviewer &reviewer,
                     std::string_view editor);
void delete_reviewer(Store &store, std::string_view slug, std::string_view editor);
void create_comparison(Store &store, const ContentComparison &comparison, std::string_view editor);
void update_comparison(Store &store, std::string_view pair, const ContentComparison &comparison,
                       std::string_view editor);
void delete_comparison(Store &store, std::string_view pair, std::string_view editor);
ImportSummary import_content(Store &store, const Content &content);
// Editors: false when there is no such editor.
void add_editor(Store &store, std::string_view email, std::string_view password_hash);
bool remove_editor(Store &store, std::string_view email);
bool set_editor_password(Store &store, std::string_view email, std::string_view password_hash);
void start_session(Store &store, std::string_view secret_hash, int64_t editor_id,
                   std::string_view csrf_token, int64_t expires_at);
void end_session(Store &store, std::string_view secret_hash);
// A vote: counted (empty) or set aside and why. The same queued: `done` is told once it is
// durable, or why it was not stored.
VoteStanding cast_tool_vote(Store &store, const Ballot &ballot, int64_t tool_id,
                            std::optional<Verdict> verdict);
VoteStanding cast_pair_vote(Store &store, const Ballot &ballot, int64_t a_id, int64_t b_id,
                            std::optional<int64_t> pick);
void cast_tool_vote(Store &store, const Ballot &ballot, int64_t tool_id,
                    std::optional<Verdict> verdict, WriteDone done);
void cast_pair_vote(Store &store, const Ballot &ballot, int64_t a_id, int64_t b_id,
                    std::optional<int64_t> pick, WriteDone done);
// The newsletter: unsubscribe says whether the address left now (false: it had before);
// erase_subscriber whether there was one.
SubscriptionRequest request_subscription(Store &store, std::string_view email, int64_t now);
ConfirmationCheck confirm_subscription(Store &store, std::string_view token_hash, int64_t now);
bool unsubscribe(Store &store, int64_t id);
Resubscription resubscribe(Store &store, int64_t id);
bool start_confirmation(Store &store, int64_t subscriber_id, std::string_view token_hash,
                        int64_t expires_at);
bool claim_confirmation(Store &store, int64_t subscriber_id, int64_t now, int64_t lease_seconds);
void confirmation_mailed(Store &store, int64_t subscriber_id);
void confirmation_failed(Store &store, int64_t subscriber_id,
                         std::optional<int64_t> next_attempt_at, std::string_view error);
bool erase_subscriber(Store &store, int64_t id, std::string_view editor);
// A digest run's first step: the digest recorded (RecordDigest), then read back as the run
// reads it (Store::digest_to_send), resumed only when the record resumed one.
Digest record_digest(Store &store, std::string_view today, int days);
bool claim_digest_send(Store &store, int64_t digest_id, int64_t subscriber_id);
void digest_sent(Store &store, int64_t digest_id, int64_t subscriber_id);
void digest_send_failed(Store &store, int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                        std::string_view error);

} // namespace verdict::test
