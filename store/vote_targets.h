// The tools votes are sent to, by the address in the vote's path, kept while the catalogue
// stands (Store::catalogue_generation: every write but a vote's moves it). A vote is answered
// by the reactor that read it (handlers/routes.cpp), and under a stream of votes the same few
// addresses come again and again: kept, they cost a lookup instead of a read of the file.
// A tool added, renamed or removed moves the catalogue, and what was kept before is never
// given again. Internal to store/.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

#include "base/bounded_cache.h"
#include "domain/model.h"
#include "store/store.h"

namespace verdict {

struct Store::VoteTargets {
  // Far more than any site's tools' addresses; an attacker's made-up ones are never kept.
  static constexpr size_t kBytes = 256 * 1024;

  // The tool kept under `address` while the catalogue is at `catalogue`.
  std::optional<ToolKey> find(uint64_t catalogue, std::string_view address) {
    std::lock_guard lock(mutex);
    if (catalogue != kept_at) return std::nullopt;
    const auto *kept = tools.find(address);
    return kept ? std::optional(*kept) : std::nullopt;
  }

  // Keeps `tool`, read from the file once the catalogue was at `catalogue`.
  void keep(uint64_t catalogue, std::string_view address, const ToolKey &tool) {
    std::lock_guard lock(mutex);
    if (catalogue < kept_at) return; // read before a change another reader has seen
    if (catalogue > kept_at) {
      tools = BoundedCache<ToolKey>(kBytes);
      kept_at = catalogue;
    }
    tools.put(std::string(address), tool, sizeof tool + tool.slug.size());
  }

  std::mutex mutex;
  uint64_t kept_at = 0;
  BoundedCache<ToolKey> tools{kBytes};
};

} // namespace verdict
