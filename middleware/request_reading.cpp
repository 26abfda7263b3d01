#include "middleware/request_reading.h"

#include "auth/secrets.h"
#include "domain/text.h"
#include "middleware/rate_limit.h"
#include "middleware/request_parsing.h"

namespace verdict {

std::string client_of(const App &app, const httplib::Request &req) {
  // The proxy appends the address it saw to the last X-Forwarded-For line; lines before it
  // are the client's own words.
  const auto lines = req.get_header_value_count("X-Forwarded-For");
  const auto forwarded =
      lines == 0 ? std::string() : req.get_header_value("X-Forwarded-For", lines - 1);
  return client_address(req.remote_addr, forwarded, app.trusted_proxies);
}

bool came_over_https(const App &app, const httplib::Request &req) {
  return app.trusted_proxies.contains(req.remote_addr) &&
         req.get_header_value("X-Forwarded-Proto") == "https";
}

std::optional<Audience> metrics_audience(const App &app, const httplib::Request &req) {
  // RFC 9110: the scheme is case-blind; "Bearer" with no token is a wrong token too.
  const auto authorization = req.get_header_value("Authorization");
  const auto space = authorization.find(' ');
  if (ascii_lowercase(authorization.substr(0, space)) == "bearer") {
    const auto token = space == std::string::npos ? "" : authorization.substr(space + 1);
    if (!auth::same_secret(token, app.metrics_token)) return std::nullopt;
    return Audience::desk;
  }
  const bool forwarded = req.has_header("X-Forwarded-For") || req.has_header("Forwarded");
  return is_loopback_address(req.remote_addr) && !forwarded ? Audience::desk : Audience::everyone;
}

std::vector<std::string> param_values(const httplib::Request &req, const char *name) {
  std::vector<std::string> values;
  for (size_t i = 0; i < req.get_param_value_count(name); ++i)
    values.push_back(req.get_param_value(name, i));
  return values;
}

std::optional<int> requested_page(const httplib::Request &req) {
  return parse_page_number(param_values(req, "page"));
}

} // namespace verdict
