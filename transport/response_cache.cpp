#include "transport/response_cache.h"

#include <algorithm>
#include <mutex>

namespace verdict::transport {

namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char p, char t) {
           return p == (t >= 'A' && t <= 'Z' ? char(t - 'A' + 'a') : t);
         });
}

// One entry per target and coding: the coding's letter, then the target.
std::string key_of(std::string_view target, Framing::Coding coding) {
  std::string key(1, static_cast<char>(coding));
  key += target;
  return key;
}

} // namespace

std::optional<uint64_t> ResponseCache::epoch() const {
  try {
    return epoch_();
  } catch (const std::exception &) {
    return std::nullopt; // the request goes to httplib, whose error page says what it can
  }
}

std::shared_ptr<const std::string> ResponseCache::find(std::string_view target,
                                                       Framing::Coding coding) const {
  const auto now = epoch();
  if (!now) return nullptr;
  const auto key = key_of(target, coding);
  std::shared_lock lock(mutex_);
  const auto *entry = entries_.find(key);
  if (!entry || entry->epoch != *now) return nullptr;
  return entry->response;
}

void ResponseCache::offer(std::string_view target, Framing::Coding coding,
                          std::optional<uint64_t> epoch, std::string_view response) {
  if (!epoch || !is_shareable_response(response)) return;
  auto kept = std::make_shared<const std::string>(response);
  auto key = key_of(target, coding);
  const auto response_bytes = kept->size();
  std::unique_lock lock(mutex_);
  entries_.put(std::move(key), Entry{*epoch, std::move(kept)}, response_bytes);
}

bool is_shareable_response(std::string_view response) {
  const auto head_end = response.find("\r\n\r\n");
  if (head_end == std::string_view::npos || response.substr(0, 13) != "HTTP/1.1 200 ") return false;
  bool is_public = false;
  auto head = response.substr(0, head_end + 2);
  for (auto at = head.find("\r\n"); at != std::string_view::npos && at + 2 < head.size();) {
    const auto end = head.find("\r\n", at + 2);
    const auto line = head.substr(at + 2, end - at - 2);
    at = end;
    if (starts_with_ignoring_case(line, "set-cookie:")) return false;
    if (starts_with_ignoring_case(line, "cache-control:")) {
      auto value = line.substr(14);
      while (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
      is_public = starts_with_ignoring_case(value, "public");
    }
  }
  return is_public;
}

} // namespace verdict::transport
