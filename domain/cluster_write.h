// A write as the cluster's stream carries it (cluster/write_stream.h): the node that took it
// from a reader or an editor publishes it, and every node, itself included, applies the same
// write from the stream to its own file (app/cluster_writes.h). Applied in the same order to
// the same starting file, each write does the same on every node: so it carries all that could
// differ between them, the time it was taken and the site's date then among it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace verdict {

struct ClusterWrite {
  std::string id;           // the taking node's name and a count: a publish retried lands once
  std::string kind;         // which write ("tool_vote", "create_tool"…: app/cluster_writes.cpp)
  int64_t taken_at_ms = 0;  // since 1970: every node records this time for it
  std::string today;        // the site's date (YYYY-MM-DD) when it was taken
  nlohmann::json arguments; // the write's own, one JSON object (nested: parsed once)
};

// As the stream holds it: one JSON object.
std::string encoded(const ClusterWrite &write);
// Several writes as one entry of the stream, applied together (votes taken at once, so the
// stream stores one entry for many: its servers agree on each entry, not on each vote).
std::string encoded_together(const std::vector<ClusterWrite> &writes);
// The writes `payload` holds, in order: one as encoded() writes it, or those encoded_together()
// wrote; none when it is neither. Entries from before arguments were nested (their arguments a
// JSON text inside the entry's) are read too: the stream keeps them.
std::optional<std::vector<ClusterWrite>> decoded_cluster_writes(std::string_view payload);

} // namespace verdict
