#include "domain/content_hash.h"

#include <cstdint>

namespace verdict {

std::string content_hash(std::string_view bytes, size_t digits) {
  uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : bytes)
    hash = (hash ^ c) * 1099511628211ULL;
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 0 && out.size() < digits; shift -= 4)
    out.push_back(hex[(hash >> shift) & 0xf]);
  return out;
}

} // namespace verdict
