// How the store says a write was not done, both ways: its writes and reads throw NotFound,
// AlreadyExists, Refused or StoreUnavailable, and a caller hears a WriteResult
// (domain/writes.h). result_of and raise_unless_done are the one place between the two; the
// engine (store/engine.h) tells every write's outcome with them.
#pragma once

#include <exception>
#include <stdexcept>

#include "domain/writes.h"

namespace verdict {

// Thrown by a write that names something that does not exist (an unknown tool id, say).
struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a write that would take a name already taken (an editor's address, a slug).
struct AlreadyExists : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a write refused because of what it would break (deleting a category that still
// has tools); the message says what to do instead.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a write refused because the database file cannot safely take it: the file was
// deleted, moved or replaced under the running server. Nothing of the write happened.
struct StoreUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What was thrown, as a result: NotFound, AlreadyExists, Refused, StoreUnavailable
// (unavailable), anything else (failed).
WriteResult result_of(std::exception_ptr thrown);
// Throws what `result` ended with; returns when it is done.
void raise_unless_done(const WriteResult &result);

} // namespace verdict
