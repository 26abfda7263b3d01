// A write as the cluster's stream carries it (cluster/write_stream.h): the node that took it
// from a reader publishes it, and every node, itself included, applies the same write from
// the stream to its own file. So a write names what every node knows alike (a tool by its
// slug, never a row id), and carries the ballot as it was judged where it was cast. The first
// kind is a reader's vote on a tool; the other writes follow it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/model.h"

namespace verdict {

struct ToolVoteWrite {
  Ballot ballot;
  std::string tool;               // its slug
  std::optional<Verdict> verdict; // none: the vote is withdrawn
};

// As the stream holds it: one JSON object, {"kind": "tool_vote", …}.
std::string encoded(const ToolVoteWrite &write);
// The write `payload` holds; none when it is not a tool vote as encoded() writes one.
std::optional<ToolVoteWrite> decoded_tool_vote(std::string_view payload);

} // namespace verdict
