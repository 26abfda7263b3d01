#include "base/merkle.h"

#include <bit>
#include <memory>
#include <stdexcept>

#include <sodium.h>

namespace verdict::merkle {

namespace {

Hash sha256_of(std::initializer_list<std::string_view> parts) {
  // Picks the fastest SHA-256 this CPU has; thread-safe, once.
  [[maybe_unused]] static const int started = sodium_init();
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  for (const auto part : parts)
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char *>(part.data()),
                              part.size());
  Hash out;
  crypto_hash_sha256_final(&state, out.data());
  return out;
}

std::string_view bytes_of(const Hash &hash) {
  return {reinterpret_cast<const char *>(hash.data()), hash.size()};
}

// The largest power of two below n, for n ≥ 2: where RFC 6962 splits a tree of n leaves.
uint64_t split_of(uint64_t n) {
  return uint64_t{1} << (63 - std::countl_zero(n - 1));
}

// The root of the `n` leaves starting at `begin`. In RFC 6962's recursion every subtree starts
// at a multiple of its own split, so its left part is always a perfect subtree.
Hash range_root(uint64_t begin, uint64_t n, const PerfectSubtree &tree) {
  if (std::has_single_bit(n)) {
    const int level = std::countr_zero(n);
    return tree(level, begin >> level);
  }
  const auto k = split_of(n);
  return node_hash(range_root(begin, k, tree), range_root(begin + k, n - k, tree));
}

// PATH(m, D[begin : begin + n]) of RFC 6962 §2.1.1, appended to `out`.
void path(uint64_t m, uint64_t begin, uint64_t n, const PerfectSubtree &tree,
          std::vector<Hash> &out) {
  if (n <= 1) return;
  const auto k = split_of(n);
  if (m < k) {
    path(m, begin, k, tree, out);
    out.push_back(range_root(begin + k, n - k, tree));
  } else {
    path(m - k, begin + k, n - k, tree, out);
    out.push_back(range_root(begin, k, tree));
  }
}

// SUBPROOF(m, D[begin : begin + n], whole) of RFC 6962 §2.1.2, appended to `out`.
void subproof(uint64_t m, uint64_t begin, uint64_t n, bool whole, const PerfectSubtree &tree,
              std::vector<Hash> &out) {
  if (m == n) {
    if (!whole) out.push_back(range_root(begin, n, tree));
    return;
  }
  const auto k = split_of(n);
  if (m <= k) {
    subproof(m, begin, k, whole, tree, out);
    out.push_back(range_root(begin + k, n - k, tree));
  } else {
    subproof(m - k, begin + k, n - k, false, tree, out);
    out.push_back(range_root(begin, k, tree));
  }
}

// RFC 9162's step in both checks: fn and sn shifted right together until fn's lowest bit is
// set or fn is 0.
void shift_to_set_bit(uint64_t &fn, uint64_t &sn) {
  while (!(fn & 1) && fn != 0) {
    fn >>= 1;
    sn >>= 1;
  }
}

} // namespace

Hash leaf_hash(std::string_view entry) {
  return sha256_of({std::string_view("\x00", 1), entry});
}

Hash node_hash(const Hash &left, const Hash &right) {
  return sha256_of({"\x01", bytes_of(left), bytes_of(right)});
}

PerfectSubtree over(std::vector<Hash> leaves) {
  auto kept = std::make_shared<const std::vector<Hash>>(std::move(leaves));
  return [kept](int level, uint64_t index) {
    const std::function<Hash(int, uint64_t)> at = [&](int lvl, uint64_t i) -> Hash {
      if (lvl == 0) return kept->at(i);
      return node_hash(at(lvl - 1, 2 * i), at(lvl - 1, 2 * i + 1));
    };
    return at(level, index);
  };
}

Hash root(uint64_t size, const PerfectSubtree &tree) {
  if (size == 0) return sha256_of({});
  return range_root(0, size, tree);
}

std::vector<Hash> inclusion_proof(uint64_t leaf, uint64_t size, const PerfectSubtree &tree) {
  if (leaf >= size) throw std::out_of_range("no such leaf in the tree");
  std::vector<Hash> out;
  path(leaf, 0, size, tree, out);
  return out;
}

std::vector<Hash> consistency_proof(uint64_t old_size, uint64_t size, const PerfectSubtree &tree) {
  if (old_size > size) throw std::out_of_range("the older tree is larger");
  std::vector<Hash> out;
  if (old_size == 0 || old_size == size) return out;
  subproof(old_size, 0, size, true, tree, out);
  return out;
}

bool inclusion_holds(uint64_t leaf, uint64_t size, const Hash &leaf_hash,
                     const std::vector<Hash> &proof, const Hash &root) {
  if (leaf >= size) return false;
  uint64_t fn = leaf, sn = size - 1;
  Hash r = leaf_hash;
  for (const auto &p : proof) {
    if (sn == 0) return false;
    if ((fn & 1) || fn == sn) {
      r = node_hash(p, r);
      if (!(fn & 1)) shift_to_set_bit(fn, sn);
    } else {
      r = node_hash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn == 0 && r == root;
}

bool consistency_holds(uint64_t old_size, uint64_t size, const Hash &old_root, const Hash &root,
                       const std::vector<Hash> &proof) {
  if (old_size > size) return false;
  if (old_size == size) return proof.empty() && old_root == root;
  if (old_size == 0) return proof.empty(); // the empty tree is the start of every tree
  if (proof.empty()) return false;
  std::vector<Hash> path = proof;
  if (std::has_single_bit(old_size)) path.insert(path.begin(), old_root);
  uint64_t fn = old_size - 1, sn = size - 1;
  while (fn & 1) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = path[0], sr = path[0];
  for (size_t i = 1; i < path.size(); ++i) {
    const auto &c = path[i];
    if (sn == 0) return false;
    if ((fn & 1) || fn == sn) {
      fr = node_hash(c, fr);
      sr = node_hash(c, sr);
      if (!(fn & 1)) shift_to_set_bit(fn, sn);
    } else {
      sr = node_hash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return fr == old_root && sr == root && sn == 0;
}

std::string hex(const Hash &hash) {
  std::string out(2 * hash.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), hash.data(), hash.size());
  out.pop_back();
  return out;
}

std::optional<Hash> from_hex(std::string_view text) {
  if (text.size() != 64) return std::nullopt;
  Hash out;
  size_t written = 0;
  const char *end = nullptr;
  if (sodium_hex2bin(out.data(), out.size(), text.data(), text.size(), nullptr, &written, &end) !=
          0 ||
      written != out.size() || end != text.data() + text.size())
    return std::nullopt;
  return out;
}

} // namespace verdict::merkle
