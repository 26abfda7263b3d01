#include "app/cluster_node.h"

namespace verdict {

namespace {

ClusterWrites::Settings writes_settings(const std::string &node, const Clock &clock) {
  ClusterWrites::Settings settings;
  settings.node = node;
  settings.clock = clock;
  return settings;
}

} // namespace

ClusterNode::KeyChecked::KeyChecked(Store &store, cluster::WriteStream &stream,
                                    const cluster::ClusterKey &key) {
  check_cluster_key(store, stream, key);
}

ClusterNode::ClusterNode(Store &store, cluster::StreamSettings settings,
                         const std::string &key_file, const std::string &reported_as,
                         const Clock &clock)
    : key(cluster::ClusterKey::from_file(key_file)), stream(settings),
      key_checked_(store, stream, key),
      writes(store, stream, key, writes_settings(settings.node, clock)),
      follower(
          store, stream, key,
          [this](const cluster::StreamEntry &entry, const StreamPlace &place,
                 const std::function<void()> &failed) { writes.apply(entry, place, failed); },
          [this](const cluster::StreamEntry &entry, const std::string &why) {
            writes.refused(entry, why);
          },
          reported_as, StreamFollower::kReplayAfter, clock) {
  writes.refuse_while([this] { return follower.clock_problem(); });
}

} // namespace verdict
