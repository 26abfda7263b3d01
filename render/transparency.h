// The vote log as JSON (handlers/transparency.cpp): its latest checkpoint, its entries and the
// proofs that tie them to checkpoints. Shapes are in docs/NUMBERS.md ("Tallies anyone can
// check").
#pragma once

#include <string>
#include <vector>

#include "base/merkle.h"
#include "domain/vote_log.h"

namespace verdict::transparency {

// {"log", "public_key", "size", "root", "made_at", "signature", "signed_text"}
std::string checkpoint(const Checkpoint &checkpoint, const std::string &public_key);
// {"from", "entries": [{"leaf", "entry"}], "next": "/transparency/log?from=N" or null}
std::string log_entries(uint64_t from, const std::vector<VoteLogEntry> &entries, bool more);
// {"leaf", "size", "leaf_hash", "path": [hex]}
std::string inclusion(uint64_t leaf, uint64_t size, const merkle::Hash &leaf_hash,
                      const std::vector<merkle::Hash> &path);
// {"from", "size", "proof": [hex]}
std::string consistency(uint64_t from, uint64_t size, const std::vector<merkle::Hash> &proof);

} // namespace verdict::transparency
