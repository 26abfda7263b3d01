// The headers every answer of the site carries, whether a handler wrote it or the transport
// refused the request before any handler saw it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace verdict::transport {

// Content-Security-Policy (nothing but our own styles and images; no framing, no forms sent
// elsewhere), nosniff, X-Frame-Options and Referrer-Policy.
const std::vector<std::pair<std::string, std::string>> &security_headers();

// The Vary value for an answer of `content_type` that varies by `vary` already ("" when by
// nothing). httplib compresses an answer it takes for text (transport/negotiation.h's
// is_compressible) for a client that accepts br or gzip, so such an answer varies by
// Accept-Encoding too; a cache in front, whose
// key is the address alone (nginx's proxy_cache), must be told.
std::string vary_for(std::string_view vary, std::string_view content_type);

} // namespace verdict::transport
