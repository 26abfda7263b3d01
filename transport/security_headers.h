// The headers every answer of the site carries, whether a handler wrote it or the transport
// refused the request before any handler saw it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace verdict::transport {

// Content-Security-Policy (nothing but our own styles and images; no framing, no forms sent
// elsewhere), nosniff, X-Frame-Options and Referrer-Policy.
const std::vector<std::pair<std::string, std::string>> &security_headers();

} // namespace verdict::transport
