// Every write the site takes, as one interface: a Write value (domain/writes.h) submitted. A
// lone server's goes straight to its store (StoreWrites, store/apply_write.h); a cluster
// node's goes through the cluster's stream of writes first and is applied from it on every
// node (app/cluster_writes.h). Handlers write only through this, so which of the two a site
// runs is decided once, where it starts.
#pragma once

#include <string>
#include <string_view>

#include "domain/clock.h"
#include "domain/writes.h"
#include "store/apply_write.h"
#include "store/store.h"

namespace verdict {

class SiteWrites {
public:
  virtual ~SiteWrites() = default;

  // Applies `write` (on a cluster node, once the stream holds it); how it ended.
  virtual WriteResult submit(const Write &write) = 0;
  // The same without waiting: `done` hears how it ended, on another thread, and must only hand
  // that on. Votes are queued and written together with the others waiting (a lone server's
  // group commit, a cluster node's entry of many votes); a reader's answer waits for `done`.
  virtual void submit_queued(const Write &write, WriteDone done) = 0;

  // For the site's own tasks (the confirmation mailer, a digest run, the checkpointer), which
  // stop at a write not done: `write` submitted, WriteNotDone thrown unless it was done
  // (store/write_refusals.h), and what it made for a kind that makes something.
  template <class W> auto submit_or_throw(const W &write) {
    const auto ended = submit(write);
    throw_unless_done(ended);
    if constexpr (requires { typename W::Made; }) return ended.template made_by<W>().value();
  }
};

// A lone server's writes: its store's own, each taken at `clock`'s time (the site's one clock,
// which outlives these writes).
class StoreWrites : public SiteWrites {
public:
  StoreWrites(Store &store, const Clock &clock) : store_(store), clock_(clock) {}

  WriteResult submit(const Write &write) override;
  void submit_queued(const Write &write, WriteDone done) override;

private:
  Store &store_;
  const Clock &clock_;
};

// The site's secrets (store/store.h site_secret) and the vote log's signing key: kept in a
// lone server's file (StoreKeys), derived from the cluster's key on a cluster node
// (app/cluster_writes.h). Not writes: never an entry of the stream.
class SiteKeys {
public:
  virtual ~SiteKeys() = default;
  // The secret of `name`; `if_new` is kept as it when the site has none yet (a lone server).
  virtual std::string site_secret(std::string_view name, std::string_view if_new) = 0;
  virtual std::string log_signing_key() = 0;
};

class StoreKeys : public SiteKeys {
public:
  explicit StoreKeys(Store &store) : store_(store) {}

  std::string site_secret(std::string_view name, std::string_view if_new) override;
  std::string log_signing_key() override;

private:
  Store &store_;
};

} // namespace verdict
