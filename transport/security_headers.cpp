#include "transport/security_headers.h"

namespace verdict::transport {

const std::vector<std::pair<std::string, std::string>> &security_headers() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; "
                                  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "same-origin"},
  };
  return headers;
}

} // namespace verdict::transport
