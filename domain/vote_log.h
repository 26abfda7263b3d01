// The vote log's records (store/vote_log.h keeps them): its entries, and its checkpoints — its
// size and root at a moment, signed by the site (Ed25519, auth/log_signing.h). Anyone holding
// two checkpoints can ask for a consistency proof between them (base/merkle.h): the later log
// is the earlier one with entries added, nothing changed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/merkle.h"
#include "domain/model.h"

namespace verdict {

struct VoteLogEntry {
  uint64_t leaf = 0;   // from 0
  std::string entry;   // the JSON object the leaf hash is made of
  merkle::Hash hash{}; // its RFC 6962 leaf hash
};

// The log as it stands: how many entries, and the root of their tree.
struct VoteLogHead {
  uint64_t size = 0;
  merkle::Hash root{};
};

struct Checkpoint {
  uint64_t size = 0;
  merkle::Hash root{};
  int64_t made_at = 0;   // seconds since 1970
  std::string signature; // hex, of checkpoint_text
};

// What is signed, four lines:
//   verdict vote log
//   <size>
//   <root, 64 hex digits>
//   <made_at>
std::string checkpoint_text(const Checkpoint &checkpoint);

// A voter's current vote on one tool or pair, as the log holds it: its receipt. The entry is
// the voter's latest on the target, and is not a withdrawal.
struct VoteReceipt {
  std::string what;               // "Codestral 2.1", "Cursor Background Agent vs Codestral 2.1"
  std::string address;            // its page: "/tools/codestral-2-1", "/compare/a-vs-b"
  std::optional<Verdict> verdict; // the vote on a tool
  std::string picked;             // on a pair: the name of the tool picked
  bool waiting = false;           // for the log's next batch: not logged yet
  VoteLogEntry logged;            // its entry, once its batch is in
};

// How often the site makes one on its own (`verdict checkpoint` makes one at any time).
constexpr int64_t kCheckpointEverySeconds = 24 * 3600;

} // namespace verdict
