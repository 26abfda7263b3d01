// How the store says what is not a write's answer. A write the site refuses ends as a value
// (WriteResult, domain/writes.h: its aggregate returns not_found, already_exists or refused);
// these are the rest: a read that finds nothing (NotFound), a file that cannot take writes
// (StoreUnavailable), trouble writing told as a result (failed_with), and a write not done for
// the caller that stops at one (WriteNotDone, carrying how it ended).
#pragma once

#include <exception>
#include <stdexcept>
#include <utility>

#include "domain/writes.h"

namespace verdict {

// Thrown by a read asked for something that is not there (a proof of a leaf the vote log never
// held); the words say what.
struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a read or write the database file cannot safely take: the file was deleted, moved
// or replaced under the running server, or it is read-only. Nothing was written.
struct StoreUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by those who stop at a write not done (the site's own tasks, SiteWrites::submit_or_throw;
// a command run on the file): how it ended, whole, its words as what().
struct WriteNotDone : std::runtime_error {
  explicit WriteNotDone(WriteResult ended)
      : std::runtime_error(ended.words), result(std::move(ended)) {}
  WriteResult result;
};

// Trouble writing (an SQLite error, a full disk), as a result: failed, with the error's words
// for the owner's log.
WriteResult failed_with(std::exception_ptr thrown);
// Throws WriteNotDone unless `result` is done.
void throw_unless_done(const WriteResult &result);

} // namespace verdict
