#include "app/command_writes.h"

#include <unistd.h>

#include <filesystem>

#include "app/cluster_command.h"
#include "app/cluster_node.h"
#include "app/server.h"
#include "store/maintenance.h"

namespace verdict {

// A command's own node, on its copy of the node's file: current before the command writes.
struct CommandWrites::Node : ClusterNode {
  Node(Store &store, const Options &options, const std::string &name, const Clock &clock)
      : ClusterNode(store, stream_settings(options, name), options.cluster_key_file, "", clock) {
    if (const auto behind = follower.too_far_behind(); !behind.empty())
      throw std::runtime_error(behind);
    follower.catch_up();
    follower.start();
  }
};

CommandWrites::CommandWrites(const Options &options, const std::string &command) {
  if (options.cluster.empty()) {
    store_ = std::make_unique<Store>(options.db);
    own_ = std::make_unique<StoreWrites>(*store_, clock_);
    own_keys_ = std::make_unique<StoreKeys>(*store_);
    return;
  }
  if (!std::filesystem::exists(options.db))
    throw std::runtime_error("no database at " + options.db +
                             ": a node's file is a copy of the site's (docs/CLUSTER.md)");
  copy_ = options.db + "." + command + "-" + std::to_string(getpid());
  backup_database(options.db, copy_);
  store_ = std::make_unique<Store>(copy_);
  node_ = std::make_unique<Node>(*store_, options, options.node + "-" + command, clock_);
}

CommandWrites::~CommandWrites() {
  node_.reset();
  own_.reset();
  own_keys_.reset();
  store_.reset();
  if (copy_.empty()) return;
  for (const auto *suffix : {"", "-wal", "-shm"})
    std::filesystem::remove(copy_ + suffix);
}

SiteWrites &CommandWrites::writes() {
  if (node_) return node_->writes;
  return *own_;
}

SiteKeys &CommandWrites::keys() {
  if (node_) return node_->writes;
  return *own_keys_;
}

} // namespace verdict
