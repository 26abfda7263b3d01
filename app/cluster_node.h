// A node of a cluster as a process holds it (docs/CLUSTER.md): the cluster's key, its link to
// the stream of writes, its writes through it and its follower applying the stream to its file.
// `verdict serve --cluster` runs one for its site; a command that writes through the cluster
// (`verdict user`, `import`, `digest`) runs one of its own on a copy of the node's file.
#pragma once

#include <string>

#include "app/cluster_writes.h"
#include "app/stream_follower.h"
#include "cluster/cluster_key.h"
#include "cluster/write_stream.h"
#include "store/store.h"

namespace verdict {

struct ClusterNode {
  // Connects, and proves the key is the cluster's before anything is written to the file
  // (check_cluster_key): throws cluster::BadClusterKey, saying why, when it is not, and
  // cluster::StreamUnavailable when the stream cannot be reached. `reported_as`: the name
  // this node reports its place under (`verdict cluster status`); empty, none is reported.
  // `clock`: the site's, which its writes take their time from.
  ClusterNode(Store &store, cluster::StreamSettings settings, const std::string &key_file,
              const std::string &reported_as, const Clock &clock);

  cluster::ClusterKey key;
  cluster::WriteStream stream;

private:
  // Made between the stream and the writes, which keep the key's site secrets in the file.
  struct KeyChecked {
    KeyChecked(Store &store, cluster::WriteStream &stream, const cluster::ClusterKey &key);
  } key_checked_;

public:
  ClusterWrites writes;
  StreamFollower follower;
};

} // namespace verdict
