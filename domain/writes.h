// Every write the site takes, as a value: one plain struct per kind, holding what the write
// needs and nothing else, all of them one `Write`. A handler makes one and hands it to
// `SiteWrites::submit` (store/site_writes.h); a lone server applies it to its file at once
// (store/apply_write.h), a cluster node publishes it to the stream of writes first
// (domain/write_encoding.h) and every node applies the same value.
//
// Each kind says what it is, once, on its struct:
// - `kind`, its name on the stream, and `version`, its fields' version there. Both are pinned
//   (tests/wire/kinds.txt): nodes of two versions share one stream during an upgrade, so a
//   kind is never renamed, and a version goes up only with code that still reads the old.
// - `fields()`, each field's key on the stream and its member (domain/wire_fields.h): its
//   encoding and decoding follow from them.
// - what other code asks of it: `Made`, what it answers with; `casts_vote`, a reader's vote,
//   judged from its ballot where it is applied; `leaves_catalogue`, a write that changes no
//   page's words, so pages kept for the catalogue stay. Each is false when not said.
// docs/ARCHITECTURE.md, "How to add a write", says what a new kind takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>

#include "domain/content.h"
#include "domain/model.h"
#include "domain/wire_fields.h"

namespace verdict {

// The desk's saves and deletions of content, each in its editor's name (their email, which
// the edit log records). An update or deletion names the item by the key it had when the
// form was opened (a slug; a review by its tool and reviewer; a comparison by its pair).
struct CreateCategory {
  static constexpr std::string_view kind = "create_category";
  static constexpr int version = 1;
  ContentCategory item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("item", &CreateCategory::item),
                      wire::field("editor", &CreateCategory::editor)};
  }
};
struct UpdateCategory {
  static constexpr std::string_view kind = "update_category";
  static constexpr int version = 1;
  std::string slug;
  ContentCategory item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &UpdateCategory::slug),
                      wire::field("item", &UpdateCategory::item),
                      wire::field("editor", &UpdateCategory::editor)};
  }
};
struct DeleteCategory {
  static constexpr std::string_view kind = "delete_category";
  static constexpr int version = 1;
  std::string slug, editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &DeleteCategory::slug),
                      wire::field("editor", &DeleteCategory::editor)};
  }
};

struct CreateTool {
  static constexpr std::string_view kind = "create_tool";
  static constexpr int version = 1;
  ContentTool item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("item", &CreateTool::item),
                      wire::field("editor", &CreateTool::editor)};
  }
};
struct UpdateTool {
  static constexpr std::string_view kind = "update_tool";
  static constexpr int version = 1;
  std::string slug;
  ContentTool item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &UpdateTool::slug),
                      wire::field("item", &UpdateTool::item),
                      wire::field("editor", &UpdateTool::editor)};
  }
};
struct DeleteTool {
  static constexpr std::string_view kind = "delete_tool";
  static constexpr int version = 1;
  std::string slug, editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &DeleteTool::slug),
                      wire::field("editor", &DeleteTool::editor)};
  }
};

struct CreateReviewer {
  static constexpr std::string_view kind = "create_reviewer";
  static constexpr int version = 1;
  ContentReviewer item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("item", &CreateReviewer::item),
                      wire::field("editor", &CreateReviewer::editor)};
  }
};
struct UpdateReviewer {
  static constexpr std::string_view kind = "update_reviewer";
  static constexpr int version = 1;
  std::string slug;
  ContentReviewer item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &UpdateReviewer::slug),
                      wire::field("item", &UpdateReviewer::item),
                      wire::field("editor", &UpdateReviewer::editor)};
  }
};
struct DeleteReviewer {
  static constexpr std::string_view kind = "delete_reviewer";
  static constexpr int version = 1;
  std::string slug, editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("slug", &DeleteReviewer::slug),
                      wire::field("editor", &DeleteReviewer::editor)};
  }
};

struct CreateReview {
  static constexpr std::string_view kind = "create_review";
  static constexpr int version = 1;
  ContentReview item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("item", &CreateReview::item),
                      wire::field("editor", &CreateReview::editor)};
  }
};
struct UpdateReview {
  static constexpr std::string_view kind = "update_review";
  static constexpr int version = 1;
  std::string tool, reviewer;
  ContentReview item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{
        wire::field("tool", &UpdateReview::tool), wire::field("reviewer", &UpdateReview::reviewer),
        wire::field("item", &UpdateReview::item), wire::field("editor", &UpdateReview::editor)};
  }
};
struct DeleteReview {
  static constexpr std::string_view kind = "delete_review";
  static constexpr int version = 1;
  std::string tool, reviewer, editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("tool", &DeleteReview::tool),
                      wire::field("reviewer", &DeleteReview::reviewer),
                      wire::field("editor", &DeleteReview::editor)};
  }
};

struct CreateComparison {
  static constexpr std::string_view kind = "create_comparison";
  static constexpr int version = 1;
  ContentComparison item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("item", &CreateComparison::item),
                      wire::field("editor", &CreateComparison::editor)};
  }
};
struct UpdateComparison {
  static constexpr std::string_view kind = "update_comparison";
  static constexpr int version = 1;
  std::string pair; // "a-vs-b"
  ContentComparison item;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("pair", &UpdateComparison::pair),
                      wire::field("item", &UpdateComparison::item),
                      wire::field("editor", &UpdateComparison::editor)};
  }
};
struct DeleteComparison {
  static constexpr std::string_view kind = "delete_comparison";
  static constexpr int version = 1;
  std::string pair, editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("pair", &DeleteComparison::pair),
                      wire::field("editor", &DeleteComparison::editor)};
  }
};

// Editors (`verdict user`) and their desk sessions. A password is carried as its hash
// (auth/passwords.h), a session as its secret's hash: never the secret a browser holds.
struct AddEditor {
  static constexpr std::string_view kind = "add_editor";
  static constexpr int version = 1;
  std::string email, password_hash;
  static constexpr auto fields() {
    return std::tuple{wire::field("email", &AddEditor::email),
                      wire::field("password_hash", &AddEditor::password_hash)};
  }
};
struct RemoveEditor { // and every session they hold
  static constexpr std::string_view kind = "remove_editor";
  static constexpr int version = 1;
  std::string email;
  static constexpr auto fields() { return std::tuple{wire::field("email", &RemoveEditor::email)}; }
};
struct SetEditorPassword { // and ends every session they hold
  static constexpr std::string_view kind = "set_editor_password";
  static constexpr int version = 1;
  std::string email, password_hash;
  static constexpr auto fields() {
    return std::tuple{wire::field("email", &SetEditorPassword::email),
                      wire::field("password_hash", &SetEditorPassword::password_hash)};
  }
};
struct StartSession {
  static constexpr std::string_view kind = "start_session";
  static constexpr int version = 1;
  std::string secret_hash;
  int64_t editor_id = 0;
  std::string csrf_token;
  int64_t expires_at = 0; // seconds since 1970
  static constexpr auto fields() {
    return std::tuple{wire::field("secret_hash", &StartSession::secret_hash),
                      wire::field("editor_id", &StartSession::editor_id),
                      wire::field("csrf", &StartSession::csrf_token),
                      wire::field("expires_at", &StartSession::expires_at)};
  }
};
struct EndSession {
  static constexpr std::string_view kind = "end_session";
  static constexpr int version = 1;
  std::string secret_hash;
  static constexpr auto fields() {
    return std::tuple{wire::field("secret_hash", &EndSession::secret_hash)};
  }
};

// The newsletter's list: a subscriber erased at the desk in `editor`'s name (the edit log
// records that one was, not who), or unsubscribed by their own link.
struct EraseSubscriber {
  static constexpr std::string_view kind = "erase_subscriber";
  static constexpr int version = 1;
  int64_t id = 0;
  std::string editor;
  static constexpr auto fields() {
    return std::tuple{wire::field("id", &EraseSubscriber::id),
                      wire::field("editor", &EraseSubscriber::editor)};
  }
};
struct Unsubscribe {
  static constexpr std::string_view kind = "unsubscribe";
  static constexpr int version = 1;
  int64_t id = 0;
  static constexpr auto fields() { return std::tuple{wire::field("id", &Unsubscribe::id)}; }
};

// A reader's votes, each with the ballot the taking node saw (domain/model.h). A node
// applying one from the cluster's stream judges its time on page from its token itself
// (app/cluster_writes.cpp); no verdict or pick withdraws the vote. `batched`: the vote waits
// for the next batch of the log (PublishVotes), as the site that took it publishes votes;
// false, it is published with the vote itself (`--publish-votes-every 0`).
struct CastToolVote {
  using Made = VoteStanding; // counted, or set aside and why
  static constexpr bool casts_vote = true;
  static constexpr bool leaves_catalogue = true;
  static constexpr std::string_view kind = "tool_vote";
  static constexpr int version = 1;
  Ballot ballot;
  int64_t tool = 0;
  std::optional<Verdict> verdict;
  bool batched = false;
  static constexpr auto fields() {
    return std::tuple{wire::field("ballot", &CastToolVote::ballot),
                      wire::field("tool", &CastToolVote::tool),
                      wire::field("verdict", &CastToolVote::verdict),
                      wire::field<wire::Carried::only_when_set>("batched", &CastToolVote::batched)};
  }
};
struct CastPairVote {
  using Made = VoteStanding;
  static constexpr bool casts_vote = true;
  static constexpr bool leaves_catalogue = true;
  static constexpr std::string_view kind = "pair_vote";
  static constexpr int version = 1;
  Ballot ballot;
  int64_t a = 0, b = 0;
  std::optional<int64_t> pick;
  bool batched = false;
  static constexpr auto fields() {
    return std::tuple{wire::field("ballot", &CastPairVote::ballot),
                      wire::field("a", &CastPairVote::a), wire::field("b", &CastPairVote::b),
                      wire::field("pick", &CastPairVote::pick),
                      wire::field<wire::Carried::only_when_set>("batched", &CastPairVote::batched)};
  }
};

// The newsletter's sign-ups (store/subscribers.cpp). Whether a confirmation mail may go is
// decided where the sign-up is taken (the mail rations, auth/confirmation_rations.h), so every
// node applies the same answer. Each answers with what it did (Made). Each is judged at its
// write's time (WriteContext): a kind's version 1 carried that time as "now", read and
// passed over.
struct RequestSubscription {
  using Made = SubscriptionRequest;
  static constexpr std::string_view kind = "request_subscription";
  static constexpr int version = 2; // 1 carried the time taken ("now"), its context's now
  std::string email;
  bool may_mail = true;
  static constexpr auto fields() {
    return std::tuple{wire::field("email", &RequestSubscription::email),
                      wire::field("may_mail", &RequestSubscription::may_mail)};
  }
};
struct ConfirmSubscription {
  using Made = ConfirmationCheck;
  static constexpr std::string_view kind = "confirm_subscription";
  static constexpr int version = 2; // 1 carried "now", as above
  std::string token_hash;
  static constexpr auto fields() {
    return std::tuple{wire::field("token_hash", &ConfirmSubscription::token_hash)};
  }
};
struct Resubscribe {
  using Made = Resubscription;
  static constexpr std::string_view kind = "resubscribe";
  static constexpr int version = 1;
  int64_t id = 0;
  static constexpr auto fields() { return std::tuple{wire::field("id", &Resubscribe::id)}; }
};

// The confirmation mailer's steps (app/confirmation_mailer.h): a mail claimed for a while
// (Made: whether this claim holds), its token kept (Made: whether the address still waits for
// it), and how the send ended.
struct ClaimConfirmation {
  using Made = bool;
  static constexpr std::string_view kind = "claim_confirmation";
  static constexpr int version = 2; // 1 carried "now", as above
  int64_t subscriber = 0, lease_seconds = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("subscriber", &ClaimConfirmation::subscriber),
                      wire::field("lease", &ClaimConfirmation::lease_seconds)};
  }
};
struct StartConfirmation {
  using Made = bool;
  static constexpr std::string_view kind = "start_confirmation";
  static constexpr int version = 1;
  int64_t subscriber = 0;
  std::string token_hash;
  int64_t expires_at = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("subscriber", &StartConfirmation::subscriber),
                      wire::field("token_hash", &StartConfirmation::token_hash),
                      wire::field("expires_at", &StartConfirmation::expires_at)};
  }
};
struct ConfirmationMailed {
  static constexpr std::string_view kind = "confirmation_mailed";
  static constexpr int version = 1;
  int64_t subscriber = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("subscriber", &ConfirmationMailed::subscriber)};
  }
};
struct ConfirmationFailed {
  static constexpr std::string_view kind = "confirmation_failed";
  static constexpr int version = 1;
  int64_t subscriber = 0;
  std::optional<int64_t> next_attempt_at;
  std::string error;
  static constexpr auto fields() {
    return std::tuple{wire::field("subscriber", &ConfirmationFailed::subscriber),
                      wire::field("next", &ConfirmationFailed::next_attempt_at),
                      wire::field("error", &ConfirmationFailed::error)};
  }
};

// A run of the weekly digest (app/digest_command.cpp): the digest it sends, recorded (or the
// one an earlier run left owed), each send claimed before it goes (Made: whether the claim
// holds), and how it ended.
struct RecordedDigest {
  int64_t id = 0; // none: nothing new, or nobody to send it to
  int days = 0;
  bool resumed = false; // an earlier run's, still owed
};
struct RecordDigest {
  using Made = RecordedDigest;
  static constexpr std::string_view kind = "record_digest";
  static constexpr int version = 1;
  std::string today;
  int days = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("today", &RecordDigest::today),
                      wire::field("days", &RecordDigest::days)};
  }
};
struct ClaimDigestSend {
  using Made = bool;
  static constexpr std::string_view kind = "claim_digest_send";
  static constexpr int version = 1;
  int64_t digest = 0, subscriber = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("digest", &ClaimDigestSend::digest),
                      wire::field("subscriber", &ClaimDigestSend::subscriber)};
  }
};
struct DigestSent {
  static constexpr std::string_view kind = "digest_sent";
  static constexpr int version = 1;
  int64_t digest = 0, subscriber = 0;
  static constexpr auto fields() {
    return std::tuple{wire::field("digest", &DigestSent::digest),
                      wire::field("subscriber", &DigestSent::subscriber)};
  }
};
struct DigestSendFailed {
  static constexpr std::string_view kind = "digest_send_failed";
  static constexpr int version = 1;
  int64_t digest = 0, subscriber = 0;
  SendFailure failure = SendFailure::refused;
  std::string error;
  static constexpr auto fields() {
    return std::tuple{wire::field("digest", &DigestSendFailed::digest),
                      wire::field("subscriber", &DigestSendFailed::subscriber),
                      wire::field("failure", &DigestSendFailed::failure),
                      wire::field("error", &DigestSendFailed::error)};
  }
};

// A checkpoint of the vote log, signed with the site's key, made at the write's time; none
// when one younger than half a day is there (every node's checkpointer asks once a day),
// unless it is asked for `by_hand` (`verdict checkpoint`), which is made whatever the last one's
// age.
struct MakeCheckpoint {
  static constexpr std::string_view kind = "make_checkpoint";
  static constexpr int version = 2; // 1 carried "now", as above
  bool by_hand = false;
  static constexpr auto fields() {
    return std::tuple{
        wire::field<wire::Carried::only_when_set>("by_hand", &MakeCheckpoint::by_hand)};
  }
};
// The votes waiting since the last batch, into the vote log and the published numbers at
// once (store/vote_log.cpp, docs/NUMBERS.md). Every node's clock asks at the end of each
// period of `every_seconds`; the first applied publishes, and one applied within half a
// period of the last batch adds none.
struct PublishVotes {
  static constexpr bool leaves_catalogue = true;
  static constexpr std::string_view kind = "publish_votes";
  static constexpr int version = 1;
  int64_t every_seconds = 0;
  static constexpr auto fields() {
    return std::tuple{
        wire::field<wire::Carried::not_negative>("every_seconds", &PublishVotes::every_seconds)};
  }
};
// Content as a file (`verdict import`): Made says what it created and changed.
struct ImportContent {
  using Made = ImportSummary;
  static constexpr std::string_view kind = "import_content";
  static constexpr int version = 1;
  Content content;
  static constexpr auto fields() {
    return std::tuple{wire::field("content", &ImportContent::content)};
  }
};

using Write =
    std::variant<CreateCategory, UpdateCategory, DeleteCategory, CreateTool, UpdateTool, DeleteTool,
                 CreateReviewer, UpdateReviewer, DeleteReviewer, CreateReview, UpdateReview,
                 DeleteReview, CreateComparison, UpdateComparison, DeleteComparison, AddEditor,
                 RemoveEditor, SetEditorPassword, StartSession, EndSession, EraseSubscriber,
                 Unsubscribe, CastToolVote, CastPairVote, RequestSubscription, ConfirmSubscription,
                 Resubscribe, ClaimConfirmation, StartConfirmation, ConfirmationMailed,
                 ConfirmationFailed, RecordDigest, ClaimDigestSend, DigestSent, DigestSendFailed,
                 MakeCheckpoint, ImportContent, PublishVotes>;

// What a kind says of itself (see above), asked of a write of any kind.
template <class Kind> constexpr bool kCastsVote = requires {
  requires Kind::casts_vote;
};
template <class Kind> constexpr bool kLeavesCatalogue = requires {
  requires Kind::leaves_catalogue;
};
inline bool casts_vote(const Write &write) {
  return std::visit([](const auto &kind) { return kCastsVote<std::decay_t<decltype(kind)>>; },
                    write);
}
inline bool leaves_catalogue(const Write &write) {
  return std::visit([](const auto &kind) { return kLeavesCatalogue<std::decay_t<decltype(kind)>>; },
                    write);
}

// What a write made, for the kinds that answer with something (their `Made`).
using Made = std::variant<std::monostate, bool, VoteStanding, SubscriptionRequest,
                          ConfirmationCheck, Resubscription, RecordedDigest, ImportSummary>;

// When a write was taken: the moment, and the site's date then. It is applied with it wherever
// and whenever it is applied (a cluster node catching up an hour later, a restart replaying
// the stream), so every time it stamps and every date it judges by is the same on every node:
// the store binds these into its statements and never asks the clock.
struct WriteContext {
  int64_t at_ms = 0; // milliseconds since 1970
  std::string today; // YYYY-MM-DD, the site's date at that moment
  int64_t seconds() const { return at_ms / 1000; }
};

// How a write ended, as its caller hears it. Done: it is written, and `made` says what it made
// for a kind that answers with something (none when a cluster node has not applied it yet:
// then only the stream holds it). Otherwise nothing of it was written, and `words` say why: it
// names something that is not there (not_found), would take a name already taken
// (already_exists), breaks a rule of the site's (refused: deleting a category that still holds
// tools), the site takes no writes now (unavailable: its file is read-only or not the one it
// opened, its cluster's stream does not answer; the words are for the reader), or writing it
// failed (failed: the words are the error, for the owner's log, never a reader's page).
struct [[nodiscard]] WriteResult {
  enum class Ended { done, not_found, already_exists, refused, unavailable, failed };
  Ended ended = Ended::done;
  std::string words;
  Made made;

  bool done() const { return ended == Ended::done; }
  // The site could not take it now (unavailable or failed): nothing was saved, try again later.
  bool not_taken() const { return ended == Ended::unavailable || ended == Ended::failed; }
  // What a done write of kind W made (W::Made), if this node knows it yet.
  template <class W> std::optional<typename W::Made> made_by() const {
    if (const auto *made_here = std::get_if<typename W::Made>(&made)) return *made_here;
    return std::nullopt;
  }
  static WriteResult written(Made made = {}) { return {Ended::done, {}, std::move(made)}; }
  static WriteResult not_done(Ended ended, std::string words) {
    return {ended, std::move(words), {}};
  }
  // The three ways the site refuses a write, as an aggregate says them (store/aggregate_writes.h).
  static WriteResult not_found(std::string words) {
    return not_done(Ended::not_found, std::move(words));
  }
  static WriteResult already_exists(std::string words) {
    return not_done(Ended::already_exists, std::move(words));
  }
  static WriteResult refused(std::string words) {
    return not_done(Ended::refused, std::move(words));
  }
};

// Whether a write of this kind answers with something it made (its struct's `Made`).
inline bool makes_something(const Write &write) {
  return std::visit(
      [](const auto &kind) {
        return requires {
          typename std::decay_t<decltype(kind)>::Made;
        };
      },
      write);
}

} // namespace verdict
