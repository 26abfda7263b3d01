#include "transport/page_cache.h"

#include <mutex>

#include "domain/content_hash.h"

namespace verdict {

std::shared_ptr<const CachedPage> PageCache::find(std::string_view key, uint64_t generation,
                                                  std::string_view day) const {
  std::shared_lock lock(mutex_);
  const auto it = entries_.find(std::string(key));
  if (it == entries_.end() || it->second.generation != generation || it->second.day != day)
    return nullptr;
  return it->second.page;
}

void PageCache::put(std::string key, uint64_t generation, std::string day,
                    std::shared_ptr<const CachedPage> page) {
  std::unique_lock lock(mutex_);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_[std::move(key)] = {generation, std::move(day), std::move(page)};
}

std::string etag_of(std::string_view body) {
  return "\"" + content_hash(body) + "\"";
}

} // namespace verdict
