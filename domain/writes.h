// Every write the site takes, as a value: one plain struct per kind, holding what the write
// needs and nothing else, all of them one `Write`. A handler makes one and hands it to
// `SiteWrites::submit` (store/site_writes.h); a lone server applies it to its file at once
// (store/apply_write.h), a cluster node publishes it to the stream of writes first
// (domain/write_encoding.h is its one encoding) and every node applies the same value.
// docs/ARCHITECTURE.md, "How to add a write", says what a new kind takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "domain/content.h"
#include "domain/model.h"

namespace verdict {

// The desk's saves and deletions of content, each in its editor's name (their email, which
// the edit log records). An update or deletion names the item by the key it had when the
// form was opened (a slug; a review by its tool and reviewer; a comparison by its pair).
struct CreateCategory {
  ContentCategory item;
  std::string editor;
};
struct UpdateCategory {
  std::string slug;
  ContentCategory item;
  std::string editor;
};
struct DeleteCategory {
  std::string slug, editor;
};

struct CreateTool {
  ContentTool item;
  std::string editor;
};
struct UpdateTool {
  std::string slug;
  ContentTool item;
  std::string editor;
};
struct DeleteTool {
  std::string slug, editor;
};

struct CreateReviewer {
  ContentReviewer item;
  std::string editor;
};
struct UpdateReviewer {
  std::string slug;
  ContentReviewer item;
  std::string editor;
};
struct DeleteReviewer {
  std::string slug, editor;
};

struct CreateReview {
  ContentReview item;
  std::string editor;
};
struct UpdateReview {
  std::string tool, reviewer;
  ContentReview item;
  std::string editor;
};
struct DeleteReview {
  std::string tool, reviewer, editor;
};

struct CreateComparison {
  ContentComparison item;
  std::string editor;
};
struct UpdateComparison {
  std::string pair; // "a-vs-b"
  ContentComparison item;
  std::string editor;
};
struct DeleteComparison {
  std::string pair, editor;
};

// Editors (`verdict user`) and their desk sessions. A password is carried as its hash
// (auth/passwords.h), a session as its secret's hash: never the secret a browser holds.
struct AddEditor {
  std::string email, password_hash;
};
struct RemoveEditor { // and every session they hold
  std::string email;
};
struct SetEditorPassword { // and ends every session they hold
  std::string email, password_hash;
};
struct StartSession {
  std::string secret_hash;
  int64_t editor_id = 0;
  std::string csrf_token;
  int64_t expires_at = 0; // seconds since 1970
};
struct EndSession {
  std::string secret_hash;
};

// The newsletter's list: a subscriber erased at the desk in `editor`'s name (the edit log
// records that one was, not who), or unsubscribed by their own link.
struct EraseSubscriber {
  int64_t id = 0;
  std::string editor;
};
struct Unsubscribe {
  int64_t id = 0;
};

// A reader's votes, each with the ballot the taking node saw (domain/model.h). A node
// applying one from the cluster's stream judges its time on page from its token itself
// (app/cluster_writes.cpp); no verdict or pick withdraws the vote. `batched`: the vote waits
// for the next batch of the log (PublishVotes), as the site that took it publishes votes;
// false, it is published with the vote itself (`--publish-votes-every 0`).
struct CastToolVote {
  using Made = VoteStanding; // counted, or set aside and why
  Ballot ballot;
  int64_t tool = 0;
  std::optional<Verdict> verdict;
  bool batched = false;
};
struct CastPairVote {
  using Made = VoteStanding;
  Ballot ballot;
  int64_t a = 0, b = 0;
  std::optional<int64_t> pick;
  bool batched = false;
};

// The newsletter's sign-ups (store/subscribers.cpp). Whether a confirmation mail may go is
// decided where the sign-up is taken (the mail rations, auth/confirmation_rations.h), so every
// node applies the same answer. Each answers with what it did (Made).
struct RequestSubscription {
  using Made = SubscriptionRequest;
  std::string email;
  int64_t now = 0;
  bool may_mail = true;
};
struct ConfirmSubscription {
  using Made = ConfirmationCheck;
  std::string token_hash;
  int64_t now = 0;
};
struct Resubscribe {
  using Made = Resubscription;
  int64_t id = 0;
};

// The confirmation mailer's steps (app/confirmation_mailer.h): a mail claimed for a while
// (Made: whether this claim holds), its token kept (Made: whether the address still waits for
// it), and how the send ended.
struct ClaimConfirmation {
  using Made = bool;
  int64_t subscriber = 0, now = 0, lease_seconds = 0;
};
struct StartConfirmation {
  using Made = bool;
  int64_t subscriber = 0;
  std::string token_hash;
  int64_t expires_at = 0;
};
struct ConfirmationMailed {
  int64_t subscriber = 0;
};
struct ConfirmationFailed {
  int64_t subscriber = 0;
  std::optional<int64_t> next_attempt_at;
  std::string error;
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
  std::string today;
  int days = 0;
};
struct ClaimDigestSend {
  using Made = bool;
  int64_t digest = 0, subscriber = 0;
};
struct DigestSent {
  int64_t digest = 0, subscriber = 0;
};
struct DigestSendFailed {
  int64_t digest = 0, subscriber = 0;
  SendFailure failure = SendFailure::refused;
  std::string error;
};

// A checkpoint of the vote log, signed with the site's key, made at `now` (seconds); none
// when one younger than half a day is there (every node's checkpointer asks once a day),
// unless it is asked for `by_hand` (`verdict checkpoint`), which is made whatever the last one's
// age.
struct MakeCheckpoint {
  int64_t now = 0;
  bool by_hand = false;
};
// The votes waiting since the last batch, into the vote log and the published numbers at
// once (store/vote_log.cpp, docs/NUMBERS.md). Every node's clock asks at the end of each
// period of `every_seconds`; the first applied publishes, and one applied within half a
// period of the last batch adds none.
struct PublishVotes {
  int64_t every_seconds = 0;
};
// Content as a file (`verdict import`): Made says what it created and changed.
struct ImportContent {
  using Made = ImportSummary;
  Content content;
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
