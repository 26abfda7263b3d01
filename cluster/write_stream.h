// The cluster's ordered log of writes: one NATS JetStream stream, replicated by Raft across
// the NATS servers (Debian's nats-server and its C client, libnats). A node publishes each
// write and treats it as done only once JetStream has acknowledged it (stored on a majority of
// the servers); every node reads the stream in order, by sequence, to apply each write to its
// own SQLite file exactly once. This file knows nothing of what a write means: payloads are
// bytes, and their ids make a retried publish land once (JetStream's de-duplication window).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace verdict::cluster {

// The stream cannot take or give writes now: fewer than a majority of its servers answer, or
// none could be reached. What the node does then (a 503 that says why) is its caller's.
struct StreamUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct StreamSettings {
  std::vector<std::string> servers; // nats://HOST:PORT, each a server of one NATS cluster
  std::string node;                 // this node's name, as the servers see its connection
  std::string stream = "VERDICT_WRITES";
  std::string subject = "verdict.writes";
  int replicas = 3; // servers holding each write; a write is acknowledged by a majority
  // How long a publish waits for its acknowledgement before it is refused as unavailable.
  std::chrono::milliseconds publish_wait{2000};
  // How long a retried publish with the same id is known as a duplicate.
  std::chrono::minutes duplicate_window{2};
};

// One write as the stream holds it.
struct StreamEntry {
  uint64_t sequence = 0; // 1, 2, 3… in the order every node applies them
  std::string payload;
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
  // nothing new and gives the first sequence. StreamUnavailable after publish_wait without an
  // acknowledgement: then the write may or may not be stored, and a retry with the same id
  // settles it.
  uint64_t publish(std::string_view payload, const std::string &id);

  // The entry at `sequence`, or nothing when the stream holds none there yet.
  std::optional<StreamEntry> entry_at(uint64_t sequence);
  // The sequence of the last write the stream holds (0 when it holds none).
  uint64_t last_sequence();

private:
  struct Nats;
  StreamSettings settings_;
  std::unique_ptr<Nats> nats_;
};

} // namespace verdict::cluster
