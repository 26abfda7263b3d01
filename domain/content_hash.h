// A short, stable fingerprint of some bytes (FNV-1a over 64-bit words, 64 bits), written as hex
// digits: names static files by their content and makes page ETags. Not for security.
#pragma once

#include <string>
#include <string_view>

namespace verdict {

// The first `digits` hex digits (at most 16) of the hash of `bytes`.
std::string content_hash(std::string_view bytes, size_t digits = 16);

} // namespace verdict
