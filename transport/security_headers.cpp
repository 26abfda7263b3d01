#include "transport/security_headers.h"

#include "transport/negotiation.h"

namespace verdict::transport {

const std::vector<std::pair<std::string, std::string>> &security_headers() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      // No script runs on any page (script-src falls back to 'none'), so connect-src 'self'
      // opens nothing to a page; it lets a browser's own tools fetch the site's files from a
      // page, as Lighthouse does for robots.txt.
      {"Content-Security-Policy",
       "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "same-origin"},
  };
  return headers;
}

std::string vary_for(std::string_view vary, std::string_view content_type) {
  if (!is_compressible(content_type)) return std::string(vary);
  return vary.empty() ? "Accept-Encoding" : std::string(vary) + ", Accept-Encoding";
}

} // namespace verdict::transport
