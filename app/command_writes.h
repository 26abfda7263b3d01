// Where a command's writes go (`verdict user`, `verdict import`, `verdict digest`): into the
// database file, or, given --cluster and --node (or VERDICT_CLUSTER and VERDICT_NODE) on a node
// of a cluster, through the cluster's stream, so every node has them. Then the command follows
// the stream itself, on a copy of the node's file made for it and gone when it ends: the
// node's own server goes on applying the stream to the file.
#pragma once

#include <memory>
#include <string>

#include "app/options.h"
#include "store/site_writes.h"
#include "store/store.h"

namespace verdict {

class CommandWrites {
public:
  // Opens options.db as it is (main.cpp has refused a path with no site), or joins the
  // cluster; throws what stops it (the cluster unreachable, the file behind it).
  CommandWrites(const Options &options, const std::string &command);
  ~CommandWrites();
  CommandWrites(const CommandWrites &) = delete;
  CommandWrites &operator=(const CommandWrites &) = delete;

  Store &store() { return *store_; } // reads: the copy's, in a cluster
  // The command's one clock: its writes take their time from it, and so does whatever else
  // of the command stamps or judges a time (a digest's date, its mails).
  const Clock &clock() const { return clock_; }
  SiteWrites &writes();
  SiteKeys &keys();

private:
  struct Node;
  Clock clock_;
  std::string copy_; // the copy of the node's file, in a cluster
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreWrites> own_;
  std::unique_ptr<StoreKeys> own_keys_;
  std::unique_ptr<Node> node_;
};

} // namespace verdict
