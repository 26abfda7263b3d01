// A Write (domain/writes.h) applied to the store's file: each kind by its aggregate
// (store/aggregate_writes.h), at the moment and on the date of its WriteContext, inside the
// writer's transaction. A lone server's writes come here as they are taken
// (store/site_writes.h), a cluster node's once the stream of writes holds them
// (app/cluster_writes.h), with the context they were taken with: so a write ends alike on
// every node, whenever it is applied.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "domain/writes.h"
#include "store/store.h"
#include "store/write_refusals.h"

namespace verdict {

// Applies `write` inside the writer's open transaction on `db`, by its aggregate
// (store/aggregate_writes.h). A write the site refuses, before or after writing part of
// itself, ends not done; trouble with the file is thrown. The caller runs it in a savepoint of
// its own and undoes it unless it was done, so a refused write leaves nothing.
WriteResult apply_in(sql::Db &db, const Write &write, const WriteContext &at);

// Applies `write` in the writer's next transaction and waits until it is durable; how it ended.
WriteResult apply(Store &store, const Write &write, const WriteContext &at);

// The same without waiting: `done` hears how it ended once it is durable, on the writer's
// thread, so it must only hand the result on.
void apply_queued(Store &store, const Write &write, const WriteContext &at, WriteDone done);

// One write of an entry of the cluster's stream, with the context it was taken with; `done`
// hears how it ended (on the writer's thread).
struct EntryWrite {
  Write write;
  WriteContext at;
  WriteDone done;
};
// Where an entry stands in the cluster's stream, and what makes it that entry.
struct StreamPlace {
  uint64_t sequence = 0;
  std::string id;           // the id it was published under: applied once, ever
  int64_t forget_at_ms = 0; // by the stream's clock, when nothing published again under the
                            // id could pass for new any more (app/stream_follower.h)
  int64_t stored_at_ms = 0; // when the stream stored it, by its clock
};
// Applies the entry at `place` of the cluster's stream: its writes, and its sequence as this
// file's place, in one transaction, so each entry is applied once whatever stops when, and in
// order (an entry past the next is not applied: the transaction fails). An entry applied before
// writes nothing again; so does one under an id applied before (published again): that is
// counted as skipped, and `entry_done` hears `refused`. A write the site refuses is applied
// as nothing, as on every node, its caller told why; trouble with the file writes none of the
// entry, and each write's `done`, then `entry_done`, hear so.
void apply_entry(Store &store, const StreamPlace &place, std::vector<EntryWrite> writes,
                 WriteDone entry_done);
// Records the entry at `sequence` as applied with nothing written, and counts it skipped (not
// the cluster's: app/stream_follower.h), in one transaction.
void skip_entry(Store &store, uint64_t sequence, WriteDone done);

} // namespace verdict
