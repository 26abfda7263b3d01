// Whole answers (status line, headers and body, exactly as cpp-httplib wrote them) to plain
// GETs that a shared cache may reuse, so the reactor thread that read a request can answer it
// again at once, without waking a worker or parsing anything further. The same rule as any
// HTTP cache in front of the site: only a request without cookies, credentials, conditions or
// a query, only an answer that says `Cache-Control: public` and sets no cookie, and only while
// the site's page epoch (middleware/page_cache.h) is the one it was produced under. Every other
// request goes through httplib's parser and routes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "base/bounded_cache.h"
#include "transport/request_framing.h"

namespace verdict::transport {

class ResponseCache {
public:
  explicit ResponseCache(std::function<uint64_t()> epoch) : epoch_(std::move(epoch)) {}

  // The epoch now; none when it cannot be known (the function threw), and then nothing is
  // given or kept.
  std::optional<uint64_t> epoch() const;
  // The answer kept for a GET of `target` in `coding` under the current epoch, or null.
  std::shared_ptr<const std::string> find(std::string_view target, Framing::Coding coding) const;
  // Keeps `response`, produced for `target` in `coding` under `epoch`, if a shared cache may
  // reuse it.
  void offer(std::string_view target, Framing::Coding coding, std::optional<uint64_t> epoch,
             std::string_view response);

  // 32 MiB, as the page cache; when full it starts over (base/bounded_cache.h).
  static constexpr size_t kMaxBytes = 32u << 20;

private:
  struct Entry {
    uint64_t epoch;
    std::shared_ptr<const std::string> response;
  };
  std::function<uint64_t()> epoch_;
  // Finds share the lock; an offer takes it alone to keep.
  mutable std::shared_mutex mutex_;
  BoundedCache<Entry> entries_{kMaxBytes}; // weighed by key and response
};

// Whether a shared cache may keep this answer: 200, `Cache-Control: public`, no Set-Cookie.
bool is_shareable_response(std::string_view response);

} // namespace verdict::transport
