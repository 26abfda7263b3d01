#include "domain/content_hash.h"

#include <cstdint>
#include <cstring>

namespace verdict {

std::string content_hash(std::string_view bytes, size_t digits) {
  // FNV-1a over eight bytes at a time (a page of megabytes is hashed for its ETag), then the
  // last few one by one, and a final mix so every input bit reaches every digit.
  uint64_t hash = 1469598103934665603ULL;
  size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + at, 8);
    hash = (hash ^ word) * 1099511628211ULL;
  }
  for (; at < bytes.size(); ++at)
    hash = (hash ^ static_cast<unsigned char>(bytes[at])) * 1099511628211ULL;
  hash ^= hash >> 33; // MurmurHash3's finalizer
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  hash *= 0xc4ceb9fe1a85ec53ULL;
  hash ^= hash >> 33;
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 0 && out.size() < digits; shift -= 4)
    out.push_back(hex[(hash >> shift) & 0xf]);
  return out;
}

} // namespace verdict
