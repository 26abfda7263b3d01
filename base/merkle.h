// Merkle trees as Certificate Transparency makes them (RFC 6962 §2.1, RFC 9162 §2.1), over
// SHA-256 from libsodium: the same bytes give the same root here as in any other log's tools,
// so anyone can check what a log here says with code that is not ours.
//
//   leaf hash   SHA-256(0x00 || entry)
//   node hash   SHA-256(0x01 || left || right)
//   root        of n leaves: n = 0 → SHA-256(""); n = 1 → the leaf hash; else split at k,
//               the largest power of two below n: node hash(root of the first k, root of the rest)
//
// A tree is read through the hashes of its perfect subtrees (2^level leaves starting at leaf
// index · 2^level): every root and proof here is made of O(log² n) of them, so a log that keeps
// them answers any proof without reading its leaves.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace verdict::merkle {

using Hash = std::array<unsigned char, 32>;

Hash leaf_hash(std::string_view entry);
Hash node_hash(const Hash &left, const Hash &right);

// The hash of the perfect subtree of 2^level leaves whose first leaf is index · 2^level.
using PerfectSubtree = std::function<Hash(int level, uint64_t index)>;

// The perfect subtrees of leaf hashes held in memory (what a verifier rebuilds from a log it
// fetched), kept by the function. Each call hashes the subtree's leaves afresh: a root reads
// each leaf once.
PerfectSubtree over(std::vector<Hash> leaves);

// The root of the tree of its first `size` leaves.
Hash root(uint64_t size, const PerfectSubtree &tree);
// RFC 6962's audit path of leaf `leaf` (from 0) in the tree of its first `size` leaves.
std::vector<Hash> inclusion_proof(uint64_t leaf, uint64_t size, const PerfectSubtree &tree);
// RFC 6962's consistency proof between the trees of the first `old_size` and `size` leaves.
std::vector<Hash> consistency_proof(uint64_t old_size, uint64_t size, const PerfectSubtree &tree);

// RFC 9162 §2.1.3.2: whether `proof` shows the leaf with hash `leaf_hash` at `leaf` in the tree
// of `size` leaves whose root is `root`.
bool inclusion_holds(uint64_t leaf, uint64_t size, const Hash &leaf_hash,
                     const std::vector<Hash> &proof, const Hash &root);
// RFC 9162 §2.1.4.2: whether `proof` shows the tree of `old_size` leaves with root `old_root`
// to be the first leaves of the tree of `size` leaves with root `root`: nothing changed, only
// leaves added.
bool consistency_holds(uint64_t old_size, uint64_t size, const Hash &old_root, const Hash &root,
                       const std::vector<Hash> &proof);

std::string hex(const Hash &hash);
std::optional<Hash> from_hex(std::string_view text); // empty unless 64 hex digits

} // namespace verdict::merkle
