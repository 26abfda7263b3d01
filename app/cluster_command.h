// `verdict cluster status`: how far each node of a cluster has applied its stream of writes.
#pragma once

#include <ostream>

#include "app/options.h"

namespace verdict {

// Prints each node's applied sequence and lag behind the stream's last write; exits 1 when the
// stream cannot be read.
int run_cluster_status(const Options &options, std::ostream &out, std::ostream &err);

} // namespace verdict
