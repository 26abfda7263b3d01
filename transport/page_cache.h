// Rendered pages for visitors without cookies, who all see identical bytes. An entry is valid
// while the store's write generation and the date are the ones it was rendered under, so any
// committed write (a vote, an import) retires every page at once. Keyed by path and a list's
// page number alone (only pages that exist are kept), so other query strings cannot multiply
// it, and bounded in bytes: when a new page would pass the
// bound the cache starts over (every entry can be rendered again; none is precious).
#pragma once

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace verdict {

struct CachedPage {
  int status = 200;
  std::string body;
  std::string etag;
  std::string content_type;
};

class PageCache {
public:
  std::shared_ptr<const CachedPage> find(std::string_view key, uint64_t generation,
                                         std::string_view day) const;
  void put(std::string key, uint64_t generation, std::string day,
           std::shared_ptr<const CachedPage> page);

private:
  struct Entry {
    uint64_t generation;
    std::string day;
    std::shared_ptr<const CachedPage> page;
  };
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  size_t bytes_ = 0; // keys and bodies held

public:
  // 32 MiB: every page of a site of thousands of tools, a small part of a server's memory.
  static constexpr size_t kMaxBytes = 32u << 20;
  size_t bytes() const {
    std::shared_lock lock(mutex_);
    return bytes_;
  }
};

// A strong validator for `body`: FNV-1a, hex, quoted.
std::string etag_of(std::string_view body);

} // namespace verdict
