// A Write (domain/writes.h) applied to the store's file: the one place each kind becomes the
// Store calls that make it. A lone server's writes come here at once (store/site_writes.h), a
// cluster node's once the stream of writes holds them (app/cluster_writes.h), so a write
// ends alike on every node.
#pragma once

#include <exception>

#include "domain/writes.h"
#include "store/store.h"

namespace verdict {

// Applies `write`; how it ended. Nothing of it is written unless it ended done.
WriteResult apply(Store &store, const Write &write);

// The same, `done` hearing how it ended. A vote is queued for the writer's next batch and
// `done` hears once it is durable, on the writer's thread, so it must only hand the result
// on; every other kind is applied at once, as `apply`.
void apply_queued(Store &store, const Write &write, WriteDone done);

// The Store's writes say why they wrote nothing by what they throw: NotFound, AlreadyExists,
// Refused, StoreUnavailable (unavailable), anything else (failed). These two are the one
// place between those exceptions and a WriteResult, either way.
WriteResult result_of(std::exception_ptr thrown);
// Throws what `result` ended with; returns when it is done.
void raise_unless_done(const WriteResult &result);

} // namespace verdict
