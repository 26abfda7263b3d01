#include "render/transparency.h"

#include <nlohmann/json.hpp>

namespace verdict::transparency {

namespace {

nlohmann::json hex_list(const std::vector<merkle::Hash> &hashes) {
  auto list = nlohmann::json::array();
  for (const auto &hash : hashes)
    list.push_back(merkle::hex(hash));
  return list;
}

} // namespace

std::string checkpoint(const Checkpoint &checkpoint, const std::string &public_key) {
  return nlohmann::json{{"log", "verdict vote log"},
                        {"public_key", public_key},
                        {"size", checkpoint.size},
                        {"root", merkle::hex(checkpoint.root)},
                        {"made_at", checkpoint.made_at},
                        {"signature", checkpoint.signature},
                        {"signed_text", checkpoint_text(checkpoint)}}
      .dump();
}

std::string log_entries(uint64_t from, const std::vector<VoteLogEntry> &entries, bool more) {
  auto list = nlohmann::json::array();
  for (const auto &logged : entries)
    list.push_back({{"leaf", logged.leaf}, {"entry", logged.entry}});
  const auto next = from + entries.size();
  return nlohmann::json{
      {"from", from},
      {"entries", list},
      {"next", more ? nlohmann::json("/transparency/log?from=" + std::to_string(next))
                    : nlohmann::json(nullptr)}}
      .dump();
}

std::string inclusion(uint64_t leaf, uint64_t size, const merkle::Hash &leaf_hash,
                      const std::vector<merkle::Hash> &path) {
  return nlohmann::json{{"leaf", leaf},
                        {"size", size},
                        {"leaf_hash", merkle::hex(leaf_hash)},
                        {"path", hex_list(path)}}
      .dump();
}

std::string consistency(uint64_t from, uint64_t size, const std::vector<merkle::Hash> &proof) {
  return nlohmann::json{{"from", from}, {"size", size}, {"proof", hex_list(proof)}}.dump();
}

} // namespace verdict::transparency
