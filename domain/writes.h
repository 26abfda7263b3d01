// Every write the site takes, as a value: one plain struct per kind, holding what the write
// needs and nothing else, all of them one `Write`. A handler makes one and hands it to
// `SiteWrites::submit` (store/site_writes.h); a lone server applies it to its file at once
// (store/apply_write.h), a cluster node publishes it to the stream of writes first
// (domain/write_encoding.h is its one encoding) and every node applies the same value.
// docs/ARCHITECTURE.md, "How to add a write", says what a new kind takes.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "domain/content.h"

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

using Write = std::variant<CreateCategory, UpdateCategory, DeleteCategory, CreateTool, UpdateTool,
                           DeleteTool, CreateReviewer, UpdateReviewer, DeleteReviewer, CreateReview,
                           UpdateReview, DeleteReview, CreateComparison, UpdateComparison,
                           DeleteComparison, AddEditor, RemoveEditor, SetEditorPassword,
                           StartSession, EndSession, EraseSubscriber, Unsubscribe>;

// How a write ended, as its caller hears it. Done: it is written (and, for a write that makes
// something, `made` says what). Otherwise nothing of it was written, and `words` say why in
// words for the reader or the editor: it names something that is not there (not_found), would
// take a name already taken (already_exists), breaks a rule of the site's (refused: deleting a
// category that still holds tools), or the site could not take it now (failed: its file or its
// cluster's stream; try again later).
struct [[nodiscard]] WriteResult {
  enum class Ended { done, not_found, already_exists, refused, failed };
  Ended ended = Ended::done;
  std::string words;

  bool done() const { return ended == Ended::done; }
  static WriteResult written() { return {}; }
  static WriteResult not_done(Ended ended, std::string words) { return {ended, std::move(words)}; }
};

} // namespace verdict
