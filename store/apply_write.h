// A Write (domain/writes.h) applied to the store's file: each kind by its aggregate
// (store/aggregate_writes.h), at the moment and on the date of its WriteContext, inside the
// writer's transaction. A lone server's writes come here as they are taken
// (store/site_writes.h), a cluster node's once the stream of writes holds them
// (app/cluster_writes.h), with the context they were taken with: so a write ends alike on
// every node, whenever it is applied.
#pragma once

#include <exception>
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
// Applies the entry at `sequence` of the cluster's stream: its writes, and the sequence as
// this file's place, in one transaction, so each entry is applied once whatever stops when,
// and in order (an entry past the next is not applied: the transaction fails). An entry
// applied before writes nothing again. A write the site refuses is applied as nothing, as on
// every node, its caller told why; trouble with the file writes none of the entry, and each
// write's `done`, then `entry_done`, hear so. An entry with no writes (one skipped, or refused
// before it was written) records its sequence alone.
void apply_entry(Store &store, uint64_t sequence, std::vector<EntryWrite> writes,
                 WriteDone entry_done);

} // namespace verdict
