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
  const auto size = key.size() + page->body.size();
  std::unique_lock lock(mutex_);
  if (const auto it = entries_.find(key); it != entries_.end()) {
    bytes_ -= it->first.size() + it->second.page->body.size();
    entries_.erase(it);
  }
  if (bytes_ + size > kMaxBytes) {
    entries_.clear();
    bytes_ = 0;
  }
  bytes_ += size;
  entries_[std::move(key)] = {generation, std::move(day), std::move(page)};
}

std::string etag_of(std::string_view body) {
  return "\"" + content_hash(body) + "\"";
}

} // namespace verdict
