// `verdict cluster status`: how far each node of a cluster has applied its stream of writes.
#pragma once

#include <ostream>

#include "app/options.h"
#include "cluster/write_stream.h"

namespace verdict {

// Prints each node's applied sequence and lag behind the stream's last write; exits 1 when the
// stream cannot be read.
int run_cluster_status(const Options &options, std::ostream &out, std::ostream &err);

// `verdict cluster key --out FILE [--db PATH]`: writes a new key file, mode 600, never over
// one that exists; with --db, carrying that site's secrets. Exits 1, saying why, otherwise.
int run_cluster_key(const Options &options, std::ostream &out, std::ostream &err);

// The stream's settings for a command or node run with `options`: its servers, name and how
// it proves itself.
cluster::StreamSettings stream_settings(const Options &options, const std::string &name);

} // namespace verdict
