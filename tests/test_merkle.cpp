// The vote log's Merkle tree (base/merkle.h) against Certificate Transparency's own test
// vectors (the RFC 6962 reference leaves, roots and proofs that every CT log's tools check
// themselves against), and every proof of every small tree, made and checked, with each
// corruption of it refused.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "base/merkle.h"

using namespace verdict::merkle;

namespace {

std::string bytes_from_hex(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

Hash h(const char *text) {
  const auto hash = from_hex(text);
  REQUIRE(hash);
  return *hash;
}

// The reference leaves of RFC 6962's test data (certificate-transparency's merkle tests).
const std::vector<std::string> kReferenceEntries = {"",
                                                    "00",
                                                    "10",
                                                    "2021",
                                                    "3031",
                                                    "40414243",
                                                    "5051525354555657",
                                                    "606162636465666768696a6b6c6d6e6f"};

// The roots of the trees of their first 1..8 leaves.
const std::vector<const char *> kReferenceRoots = {
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};

std::vector<Hash> reference_leaves() {
  std::vector<Hash> leaves;
  for (const auto &entry : kReferenceEntries)
    leaves.push_back(leaf_hash(bytes_from_hex(entry)));
  return leaves;
}

std::vector<Hash> made_up_leaves(size_t n) {
  std::vector<Hash> leaves;
  for (size_t i = 0; i < n; ++i)
    leaves.push_back(leaf_hash("vote " + std::to_string(i)));
  return leaves;
}

Hash flipped(Hash hash, size_t byte) {
  hash[byte % hash.size()] ^= 0x08;
  return hash;
}

} // namespace

TEST_CASE("merkle: roots are RFC 6962's for its reference leaves, and the empty tree's is "
          "SHA-256 of nothing") {
  const auto leaves = reference_leaves();
  const auto tree = over(leaves);
  CHECK(hex(root(0, tree)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  for (size_t n = 1; n <= leaves.size(); ++n) {
    INFO("tree of " << n << " leaves");
    CHECK(hex(root(n, tree)) == kReferenceRoots[n - 1]);
  }
}

TEST_CASE("merkle: inclusion proofs are RFC 6962's reference paths") {
  const auto leaves = reference_leaves();
  const auto tree = over(leaves);
  struct Case {
    uint64_t leaf, size;
    std::vector<const char *> path;
  };
  const std::vector<Case> cases = {
      {0, 1, {}},
      {0,
       8,
       {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
      {5,
       8,
       {"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
      {2, 3, {"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
      {1,
       5,
       {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}}};
  for (const auto &c : cases) {
    INFO("leaf " << c.leaf << " of " << c.size);
    std::vector<Hash> expected;
    for (const auto *step : c.path)
      expected.push_back(h(step));
    CHECK(inclusion_proof(c.leaf, c.size, tree) == expected);
    CHECK(
        inclusion_holds(c.leaf, c.size, leaves[c.leaf], expected, h(kReferenceRoots[c.size - 1])));
  }
}

TEST_CASE("merkle: consistency proofs are RFC 6962's reference proofs") {
  const auto tree = over(reference_leaves());
  struct Case {
    uint64_t old_size, size;
    std::vector<const char *> proof;
  };
  const std::vector<Case> cases = {
      {1, 1, {}},
      {1,
       8,
       {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
      {6,
       8,
       {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
      {2,
       5,
       {"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}}};
  for (const auto &c : cases) {
    INFO(c.old_size << " to " << c.size);
    std::vector<Hash> expected;
    for (const auto *step : c.proof)
      expected.push_back(h(step));
    CHECK(consistency_proof(c.old_size, c.size, tree) == expected);
    CHECK(consistency_holds(c.old_size, c.size, h(kReferenceRoots[c.old_size - 1]),
                            h(kReferenceRoots[c.size - 1]), expected));
  }
}

TEST_CASE("merkle: every leaf's proof in every tree up to 40 leaves holds, and no corruption "
          "of it does") {
  const auto leaves = made_up_leaves(40);
  const auto tree = over(leaves);
  for (uint64_t size = 1; size <= leaves.size(); ++size) {
    const auto top = root(size, tree);
    for (uint64_t leaf = 0; leaf < size; ++leaf) {
      INFO("leaf " << leaf << " of " << size);
      const auto proof = inclusion_proof(leaf, size, tree);
      REQUIRE(inclusion_holds(leaf, size, leaves[leaf], proof, top));
      CHECK_FALSE(inclusion_holds(leaf, size, flipped(leaves[leaf], 0), proof, top));
      CHECK_FALSE(inclusion_holds(leaf, size, leaves[leaf], proof, flipped(top, 5)));
      CHECK_FALSE(inclusion_holds(leaf + 1, size, leaves[leaf], proof, top));
      if (leaf > 0) CHECK_FALSE(inclusion_holds(leaf - 1, size, leaves[leaf], proof, top));
      CHECK_FALSE(inclusion_holds(leaf, size * 2, leaves[leaf], proof, top));
      for (size_t i = 0; i < proof.size(); ++i) {
        auto wrong = proof;
        wrong[i] = flipped(wrong[i], i);
        CHECK_FALSE(inclusion_holds(leaf, size, leaves[leaf], wrong, top));
      }
      auto longer = proof;
      longer.push_back(top);
      CHECK_FALSE(inclusion_holds(leaf, size, leaves[leaf], longer, top));
      if (!proof.empty()) {
        auto shorter = proof;
        shorter.pop_back();
        CHECK_FALSE(inclusion_holds(leaf, size, leaves[leaf], shorter, top));
      }
    }
  }
}

TEST_CASE("merkle: every consistency proof between trees up to 40 leaves holds, and a tree "
          "with one leaf changed is not consistent with the old one") {
  const auto leaves = made_up_leaves(40);
  const auto tree = over(leaves);
  for (uint64_t size = 1; size <= leaves.size(); ++size) {
    const auto top = root(size, tree);
    for (uint64_t old_size = 1; old_size <= size; ++old_size) {
      INFO(old_size << " to " << size);
      const auto old_top = root(old_size, tree);
      const auto proof = consistency_proof(old_size, size, tree);
      REQUIRE(consistency_holds(old_size, size, old_top, top, proof));
      if (old_size == size) continue;
      CHECK_FALSE(consistency_holds(old_size, size, flipped(old_top, 1), top, proof));
      CHECK_FALSE(consistency_holds(old_size, size, old_top, flipped(top, 2), proof));
      CHECK_FALSE(consistency_holds(old_size, size, top, old_top, proof));
      CHECK_FALSE(consistency_holds(old_size, size, old_top, top, {}));
      for (size_t i = 0; i < proof.size(); ++i) {
        auto wrong = proof;
        wrong[i] = flipped(wrong[i], i);
        CHECK_FALSE(consistency_holds(old_size, size, old_top, top, wrong));
      }
      // The log rewritten under the old tree: its first leaf changed, the rest kept.
      auto rewritten = leaves;
      rewritten[0] = leaf_hash("a vote quietly changed");
      const auto rewritten_tree = over(rewritten);
      CHECK_FALSE(consistency_holds(old_size, size, old_top, root(size, rewritten_tree),
                                    consistency_proof(old_size, size, rewritten_tree)));
    }
  }
}

TEST_CASE("merkle: hashes are written as 64 lower-case hex digits and read back only so") {
  const auto hash = leaf_hash("x");
  CHECK(from_hex(hex(hash)) == hash);
  CHECK_FALSE(from_hex(hex(hash).substr(1)));
  CHECK_FALSE(from_hex(hex(hash) + "0"));
  CHECK_FALSE(from_hex(std::string(64, 'g')));
}
