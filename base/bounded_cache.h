// A map from text to values that holds at most a given number of bytes (its keys and what each
// value is said to weigh), for the caches of answers that can always be made again.
//
// When a new entry would pass the bound, the cache starts over: everything kept is dropped and
// the new entry is the first of a fresh cache. That is the policy because it is cheap: a find
// costs one lookup and no bookkeeping (no recency list to update, so readers can share a lock),
// a put costs one insertion; and a full cache is rare (the bound is set above what a site
// needs) and refills itself from the next requests, since no entry is precious.
//
// Not thread-safe: each owner keeps its own lock around it, as suits its readers.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "base/text_hash.h"

namespace verdict {

template <typename Value> class BoundedCache {
public:
  explicit BoundedCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The value kept under `key`, or null; valid until the next put.
  const Value *find(std::string_view key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second.value;
  }

  // Keeps `value` under `key`, in place of what was kept there; `value_bytes` is what the
  // value weighs. An entry heavier than the whole bound is still kept, alone.
  void put(std::string key, Value value, size_t value_bytes) {
    if (const auto it = entries_.find(key); it != entries_.end()) {
      bytes_ -= it->first.size() + it->second.bytes;
      entries_.erase(it);
    }
    const auto size = key.size() + value_bytes;
    if (bytes_ + size > max_bytes_) { // start over (see the top of this file)
      entries_.clear();
      bytes_ = 0;
    }
    bytes_ += size;
    entries_.emplace(std::move(key), Kept{std::move(value), value_bytes});
  }

  // The bytes of the keys and values kept now.
  size_t bytes() const { return bytes_; }

private:
  struct Kept {
    Value value;
    size_t bytes; // what the value was said to weigh when kept
  };
  std::unordered_map<std::string, Kept, TextHash, std::equal_to<>> entries_;
  size_t max_bytes_;
  size_t bytes_ = 0;
};

} // namespace verdict
