// A Write (domain/writes.h) applied to the store's file: the one place each kind becomes the
// Store calls that make it. A lone server's writes come here at once (store/site_writes.h), a
// cluster node's once the stream of writes holds them (app/cluster_writes.h), so a write
// ends alike on every node.
#pragma once

#include "domain/writes.h"
#include "store/store.h"

namespace verdict {

// Applies `write`; how it ended. Nothing of it is written unless it ended done.
WriteResult apply(Store &store, const Write &write);

} // namespace verdict
