// The cluster's ordered log of writes: one NATS JetStream stream, replicated by Raft across
// the NATS servers (Debian's nats-server and its C client, libnats). A node publishes each
// write and treats it as done only once JetStream has acknowledged it (stored on a majority of
// the servers); every node reads the stream in order, by sequence, to apply each write to its
// own SQLite file exactly once. This file knows nothing of what a write means: payloads are
// bytes, and their ids make a retried publish land once (JetStream's de-duplication window).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster_key.h"

namespace verdict::cluster {

// The stream cannot take or give writes now: fewer than a majority of its servers answer, or
// none could be reached. What the node does then (a 503 that says why) is its caller's.
struct StreamUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The stream answered a publish as a duplicate of an entry it already held under the same id,
// and that entry is not the one published: someone else took the id first. The write is not
// stored; its caller publishes it again under a new id.
struct IdTaken : StreamUnavailable {
  using StreamUnavailable::StreamUnavailable;
};

struct StreamSettings {
  // nats://[USER:PASSWORD@]HOST:PORT (or tls://…), each a server of one NATS cluster.
  std::vector<std::string> servers;
  std::string node; // this node's name, as the servers see its connection
  // How the node proves itself to the servers and checks them (docs/CLUSTER.md): a NATS
  // credentials file (JWT and nkey), and TLS: the CA that signed the servers' certificates
  // (given, every connection is TLS and a server it did not sign is refused), and this
  // node's own certificate and key for servers that ask for one. Empty: not used.
  std::string creds_file;
  std::string tls_ca, tls_cert, tls_key;
  std::string stream = "VERDICT_WRITES";
  std::string subject = "verdict.writes";
  int replicas = 3; // servers holding each write; a write is acknowledged by a majority
  // How long a publish waits for its acknowledgement before it is refused as unavailable.
  std::chrono::milliseconds publish_wait{2000};
  // How long a retried publish with the same id is known as a duplicate.
  std::chrono::milliseconds duplicate_window{std::chrono::minutes(2)};
  // What the stream keeps, set when it is made: writes this old, and at most this many (0: no
  // limit). A node whose file is older than anything kept starts from a newer backup instead.
  std::chrono::hours kept_for{24 * 60};
  int64_t most_kept = 0;
  // A node that has followed the stream before (so it exists) may connect while the servers
  // cannot answer for it (a majority down): it then serves its file's pages and its writes
  // are refused until they answer. A new node, or a command, needs the stream at once.
  bool may_start_unanswered = false;
  // A command that only looks (`verdict cluster status`, `verdict doctor`) makes nothing: a
  // stream or bucket that is not there is said to be missing, never made.
  bool may_create = true;
};

// One write as the stream holds it.
struct StreamEntry {
  uint64_t sequence = 0; // 1, 2, 3… in the order every node applies them
  std::string payload;
  std::string id;           // the id it was published under (JetStream's Nats-Msg-Id)
  int64_t stored_at_ms = 0; // when the stream stored it, by the servers' clock (0: not known)
};

// `url` as it may be shown: a password in it replaced by "***".
std::string without_password(const std::string &url);
// The NATS user named in `url` (nats://USER:PASSWORD@HOST:PORT), or empty.
std::string user_in(const std::string &url);
// The inbox prefix of a node signed in as `user`: every answer to its requests and every entry
// pushed to its consumers comes to a subject under it, and the shipped authorization lets only
// that user listen there (deploy/cluster/nats-authorization.conf). NATS's own "_INBOX" for no
// user.
std::string inbox_prefix_of(const std::string &user);

// Reads the stream in order from one sequence on, each entry once: a consumer of JetStream's
// that the servers push entries to as they are stored, so a node applies a write moments after
// it was acknowledged without asking for each one.
class StreamReader {
public:
  virtual ~StreamReader() = default;
  // The next entry, its sequence one past the last given, or nothing when none came within
  // `wait`. An entry missed (the servers dropped it under load, or a server went) is asked
  // for again; StreamUnavailable when the stream cannot be read.
  virtual std::optional<StreamEntry> next(std::chrono::milliseconds wait) = 0;
};

class WriteStream {
public:
  // Connects to the servers (any that answers; the others are tried again when it goes) and
  // makes the stream if it does not exist yet. StreamUnavailable when neither can be done.
  explicit WriteStream(StreamSettings settings);
  ~WriteStream();
  WriteStream(const WriteStream &) = delete;
  WriteStream &operator=(const WriteStream &) = delete;

  // Stores `payload` in the stream and gives its sequence once a majority of the servers hold
  // it. `id` names the write: publishing the same id again within the duplicate window stores
  // nothing new and gives the first sequence, if that entry is these very bytes (a retry of
  // this publish); IdTaken when the entry held under the id is another (an id taken first by
  // someone else). StreamUnavailable after publish_wait without an acknowledgement: then the
  // write may or may not be stored, and a retry with the same id settles it.
  uint64_t publish(std::string_view payload, const std::string &id);

  // The entry at `sequence`, or nothing when the stream holds none there yet (tests read the
  // stream with it; a node follows it with read_from).
  std::optional<StreamEntry> entry_at(uint64_t sequence);
  // The sequence of the last write the stream holds (0 when it holds none), and of the first
  // it still holds (older ones may be gone under a retention limit; 0 when it holds none).
  uint64_t last_sequence();
  uint64_t first_sequence();
  // Empty when the stream can take writes now (its servers have a leader for it); otherwise
  // why not. A replica left alone may still answer what it holds, so reading is no proof.
  std::string why_not_writable();
  // Reads the stream from `sequence` on.
  std::unique_ptr<StreamReader> read_from(uint64_t sequence);

  // News between nodes that the stream need not keep (a failed sign-in, which every node's
  // throttle counts): told to every node connected now but this one; a node away misses it.
  void announce(std::string_view news);
  // `heard` is told each other node's news, on the NATS client's thread. Set once.
  void listen(std::function<void(std::string_view news)> heard);

  // Each node tells the others how far its file has applied the stream, kept beside it in a
  // replicated key-value bucket: `verdict cluster status` reads every node's there. A report
  // is sealed with the cluster's key under its node's name, so one that does not open (written
  // by whoever holds a node's NATS password but not the key, or moved from another node's
  // name) is shown as forged, never believed; its time is the seal's, so an old one written
  // again shows its age.
  struct NodePlace {
    std::string node;
    uint64_t applied = 0;
    int64_t reported_at = 0;   // seconds since 1970
    uint64_t skipped = 0;      // entries it skipped as not the cluster's (app/stream_follower.h)
    uint64_t last_skipped = 0; // the last of them
    std::string problem;       // why it cannot follow now, or empty
    bool forged = false;       // the report does not open with the cluster's key: nothing above
  };
  // Under place.node; gives when the servers stored it, by their clock (ms since 1970), so a
  // node can tell how far its own clock is from theirs.
  int64_t report_place(const NodePlace &place, const ClusterKey &key);
  std::vector<NodePlace> node_places(const ClusterKey &key);

private:
  struct Nats;
  StreamSettings settings_;
  std::unique_ptr<Nats> nats_;
};

} // namespace verdict::cluster
