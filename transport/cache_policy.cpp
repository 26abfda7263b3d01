#include "transport/cache_policy.h"

#include <string>

namespace verdict {

std::string_view cache_control_of(CachePolicy policy) {
  switch (policy) {
  case CachePolicy::never_kept:
    return "no-store";
  case CachePolicy::revalidated:
    return "no-cache";
  case CachePolicy::shared_revalidated:
    return "public, no-cache";
  case CachePolicy::anonymous_page:
    return "public, max-age=0, must-revalidate, s-maxage=30";
  case CachePolicy::personal_page:
    return "private, no-cache";
  case CachePolicy::immutable:
    return "public, max-age=31536000, immutable";
  case CachePolicy::moved_for_a_day:
    return "public, max-age=86400";
  }
  return "no-store";
}

void set_cache_policy(httplib::Response &res, CachePolicy policy) {
  res.headers.erase("Cache-Control");
  res.set_header("Cache-Control", std::string(cache_control_of(policy)));
}

} // namespace verdict
