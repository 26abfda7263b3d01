#include "store/apply_write.h"

#include <sqlite3.h>

#include <algorithm>
#include <future>
#include <memory>

#include "domain/clock.h"
#include "store/aggregate_writes.h"
#include "store/sqlite.h"

namespace verdict {

WriteResult apply_in(sql::Db &db, const Write &write, const WriteContext &at) {
  return std::visit([&](const auto &kind) { return aggregates::apply_in(db, at, kind); }, write);
}

namespace {

// Votes leave the catalogue as it was, so pages kept for it stay (Store::catalogue_generation).
Changes changes_of(const Write &write) {
  return std::holds_alternative<CastToolVote>(write) || std::holds_alternative<CastPairVote>(write)
             ? Changes::votes_only
             : Changes::anything;
}

} // namespace

WriteResult apply(Store &store, const Write &write, const WriteContext &at) {
  std::promise<WriteResult> told;
  auto ended = told.get_future();
  apply_queued(store, write, at, [&told](const WriteResult &result) { told.set_value(result); });
  return ended.get();
}

void apply_queued(Store &store, const Write &write, const WriteContext &at, WriteDone done) {
  // The writer runs each job in a savepoint of its own, and tells a job that threw (a refusal
  // included) what it threw, as a result (result_of): nothing of a refused write stays.
  auto applied = std::make_shared<WriteResult>();
  store.write_then([applied, write, at](sql::Db &db) { *applied = apply_in(db, write, at); },
                   [applied, done = std::move(done)](const WriteResult &transaction) {
                     done(transaction.done() ? *applied : transaction);
                   },
                   changes_of(write));
}

void apply_entry(Store &store, uint64_t sequence, std::vector<EntryWrite> writes,
                 WriteDone entry_done) {
  struct Entry {
    std::vector<EntryWrite> writes;
    std::vector<WriteResult> applied;
    WriteDone done;
  };
  auto entry = std::make_shared<Entry>();
  entry->applied.resize(writes.size());
  const bool votes_only = std::all_of(writes.begin(), writes.end(), [](const EntryWrite &each) {
    return changes_of(each.write) == Changes::votes_only;
  });
  entry->writes = std::move(writes);
  entry->done = std::move(entry_done);
  store.write_then(
      [entry, sequence](sql::Db &db) {
        auto place = db.cached("SELECT sequence FROM cluster_applied WHERE only_row = 1");
        const uint64_t applied = place.step() ? static_cast<uint64_t>(place.int64(0)) : 0;
        if (sequence <= applied) return; // applied before: once is all
        if (sequence != applied + 1)
          throw std::runtime_error("the cluster's write " + std::to_string(sequence) +
                                   " came before " + std::to_string(applied + 1) +
                                   " was applied: the stream is applied in order");
        db.cached("INSERT INTO cluster_applied (only_row, sequence) VALUES (1, :sequence) "
                  "ON CONFLICT (only_row) DO UPDATE SET sequence = excluded.sequence")
            .bind(":sequence", static_cast<int64_t>(sequence))
            .run();
        for (size_t i = 0; i < entry->writes.size(); ++i) {
          const auto &each = entry->writes[i];
          // Each in a savepoint of its own: a refused write leaves nothing, and the entry's
          // other writes stand.
          try {
            sql::Savepoint own(db);
            entry->applied[i] = apply_in(db, each.write, each.at);
            if (entry->applied[i].done()) own.release();
          } catch (const NotFound &) {
            entry->applied[i] = result_of(std::current_exception());
          } catch (const AlreadyExists &) {
            entry->applied[i] = result_of(std::current_exception());
          } catch (const Refused &) {
            entry->applied[i] = result_of(std::current_exception());
          } catch (const sql::Error &e) {
            // A key the write names that is gone by the time it is applied (an editor removed
            // on another node before their session began here): refused alike on every node.
            // Trouble with the file itself is not the write's, and none of the entry is
            // written: the node reads it again.
            if ((e.code & 0xff) != SQLITE_CONSTRAINT) throw;
            entry->applied[i] = WriteResult::not_done(WriteResult::Ended::refused,
                                                      "the write no longer fits the site: " +
                                                          std::string(e.what()));
          }
        }
      },
      [entry](const WriteResult &transaction) {
        for (size_t i = 0; i < entry->writes.size(); ++i)
          entry->writes[i].done(transaction.done() ? entry->applied[i] : transaction);
        entry->done(transaction);
      },
      votes_only ? Changes::votes_only : Changes::anything);
}

} // namespace verdict

// The Store's short ways to each write: applied now, at once, by the commands that run on
// the file itself and by the tests. The site's handlers never call these: they submit a
// Write (store/site_writes.h), which a cluster node publishes before it is applied.
namespace verdict {

namespace {

template <class W> WriteResult applied_now(Store &store, W write) {
  return apply(store, Write(std::move(write)), store.context_now());
}

template <class W> auto applied_or_thrown(Store &store, W write) {
  const auto ended = applied_now(store, std::move(write));
  raise_unless_done(ended);
  if constexpr (requires { typename W::Made; }) return *ended.template made_by<W>();
}

} // namespace

WriteContext Store::context_now() const {
  return {unix_now_ms(), today()};
}

void Store::create_category(const ContentCategory &category, std::string_view editor) {
  applied_or_thrown(*this, CreateCategory{category, std::string(editor)});
}
void Store::update_category(std::string_view slug, const ContentCategory &category,
                            std::string_view editor) {
  applied_or_thrown(*this, UpdateCategory{std::string(slug), category, std::string(editor)});
}
void Store::delete_category(std::string_view slug, std::string_view editor) {
  applied_or_thrown(*this, DeleteCategory{std::string(slug), std::string(editor)});
}
void Store::create_tool(const ContentTool &tool, std::string_view editor) {
  applied_or_thrown(*this, CreateTool{tool, std::string(editor)});
}
void Store::update_tool(std::string_view slug, const ContentTool &tool, std::string_view editor) {
  applied_or_thrown(*this, UpdateTool{std::string(slug), tool, std::string(editor)});
}
void Store::delete_tool(std::string_view slug, std::string_view editor) {
  applied_or_thrown(*this, DeleteTool{std::string(slug), std::string(editor)});
}
void Store::create_reviewer(const ContentReviewer &reviewer, std::string_view editor) {
  applied_or_thrown(*this, CreateReviewer{reviewer, std::string(editor)});
}
void Store::update_reviewer(std::string_view slug, const ContentReviewer &reviewer,
                            std::string_view editor) {
  applied_or_thrown(*this, UpdateReviewer{std::string(slug), reviewer, std::string(editor)});
}
void Store::delete_reviewer(std::string_view slug, std::string_view editor) {
  applied_or_thrown(*this, DeleteReviewer{std::string(slug), std::string(editor)});
}
void Store::create_review(const ContentReview &review, std::string_view editor) {
  applied_or_thrown(*this, CreateReview{review, std::string(editor)});
}
void Store::update_review(std::string_view tool, std::string_view reviewer,
                          const ContentReview &review, std::string_view editor) {
  applied_or_thrown(
      *this, UpdateReview{std::string(tool), std::string(reviewer), review, std::string(editor)});
}
void Store::delete_review(std::string_view tool, std::string_view reviewer,
                          std::string_view editor) {
  applied_or_thrown(*this,
                    DeleteReview{std::string(tool), std::string(reviewer), std::string(editor)});
}
void Store::create_comparison(const ContentComparison &comparison, std::string_view editor) {
  applied_or_thrown(*this, CreateComparison{comparison, std::string(editor)});
}
void Store::update_comparison(std::string_view pair, const ContentComparison &comparison,
                              std::string_view editor) {
  applied_or_thrown(*this, UpdateComparison{std::string(pair), comparison, std::string(editor)});
}
void Store::delete_comparison(std::string_view pair, std::string_view editor) {
  applied_or_thrown(*this, DeleteComparison{std::string(pair), std::string(editor)});
}

void Store::add_editor(std::string_view email, std::string_view password_hash) {
  applied_or_thrown(*this, AddEditor{std::string(email), std::string(password_hash)});
}
bool Store::remove_editor(std::string_view email) {
  const auto ended = applied_now(*this, RemoveEditor{std::string(email)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  raise_unless_done(ended);
  return true;
}
bool Store::set_editor_password(std::string_view email, std::string_view password_hash) {
  const auto ended =
      applied_now(*this, SetEditorPassword{std::string(email), std::string(password_hash)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  raise_unless_done(ended);
  return true;
}
void Store::start_session(std::string_view secret_hash, int64_t editor_id,
                          std::string_view csrf_token, int64_t expires_at) {
  applied_or_thrown(*this, StartSession{std::string(secret_hash), editor_id,
                                        std::string(csrf_token), expires_at});
}
void Store::end_session(std::string_view secret_hash) {
  applied_or_thrown(*this, EndSession{std::string(secret_hash)});
}

VoteStanding Store::cast_tool_vote(const Ballot &ballot, int64_t tool_id,
                                   std::optional<Verdict> verdict) {
  return applied_or_thrown(*this, CastToolVote{ballot, tool_id, verdict});
}
VoteStanding Store::cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                                   std::optional<int64_t> pick) {
  return applied_or_thrown(*this, CastPairVote{ballot, a_id, b_id, pick});
}
void Store::cast_tool_vote(const Ballot &ballot, int64_t tool_id, std::optional<Verdict> verdict,
                           WriteDone done) {
  apply_queued(*this, CastToolVote{ballot, tool_id, verdict}, context_now(), std::move(done));
}
void Store::cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                           std::optional<int64_t> pick, WriteDone done) {
  apply_queued(*this, CastPairVote{ballot, a_id, b_id, pick}, context_now(), std::move(done));
}

SubscriptionRequest Store::request_subscription(std::string_view email, int64_t now) {
  return applied_or_thrown(*this, RequestSubscription{std::string(email), now, true});
}
ConfirmationCheck Store::confirm_subscription(std::string_view token_hash, int64_t now) {
  return applied_or_thrown(*this, ConfirmSubscription{std::string(token_hash), now});
}
bool Store::unsubscribe(int64_t id) {
  const auto before = subscriber(id);
  applied_or_thrown(*this, Unsubscribe{id});
  return before && before->status != "unsubscribed";
}
Resubscription Store::resubscribe(int64_t id) {
  return applied_or_thrown(*this, Resubscribe{id});
}
bool Store::claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds) {
  return applied_or_thrown(*this, ClaimConfirmation{subscriber_id, now, lease_seconds});
}
bool Store::start_confirmation(int64_t subscriber_id, std::string_view token_hash,
                               int64_t expires_at) {
  return applied_or_thrown(*this,
                           StartConfirmation{subscriber_id, std::string(token_hash), expires_at});
}
void Store::confirmation_mailed(int64_t subscriber_id) {
  applied_or_thrown(*this, ConfirmationMailed{subscriber_id});
}
void Store::confirmation_failed(int64_t subscriber_id, std::optional<int64_t> next_attempt_at,
                                std::string_view error) {
  applied_or_thrown(*this, ConfirmationFailed{subscriber_id, next_attempt_at, std::string(error)});
}
bool Store::erase_subscriber(int64_t id, std::string_view editor) {
  const auto ended = applied_now(*this, EraseSubscriber{id, std::string(editor)});
  if (ended.ended == WriteResult::Ended::not_found) return false;
  raise_unless_done(ended);
  return true;
}

bool Store::claim_digest_send(int64_t digest_id, int64_t subscriber_id) {
  return applied_or_thrown(*this, ClaimDigestSend{digest_id, subscriber_id});
}
void Store::digest_sent(int64_t digest_id, int64_t subscriber_id) {
  applied_or_thrown(*this, DigestSent{digest_id, subscriber_id});
}
void Store::digest_send_failed(int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                               std::string_view error) {
  applied_or_thrown(*this, DigestSendFailed{digest_id, subscriber_id, failure, std::string(error)});
}

ImportSummary Store::import_content(const Content &content) {
  return applied_or_thrown(*this, ImportContent{content});
}

} // namespace verdict
