// Rendered pages for visitors without cookies, who all see identical bytes. An entry is valid
// while the store's write generation and the date are the ones it was rendered under, so any
// committed write (a vote, an import) retires every page at once.
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
  static constexpr size_t kMaxEntries = 20000; // bounds memory on a very large site
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

// A strong validator for `body`: FNV-1a, hex, quoted.
std::string etag_of(std::string_view body);

} // namespace verdict
