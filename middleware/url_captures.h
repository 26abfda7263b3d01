// What a route's address captured, in the order of its pattern's groups (handlers/routes.cpp):
// a slug, a pair of slugs, a token. Every handler is given them by its guard; none reads the
// request's regex match itself.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace verdict {

class UrlCaptures {
public:
  // The groups the route's pattern matched in the request's path.
  explicit UrlCaptures(const httplib::Request &req) {
    for (size_t i = 1; i < req.matches.size(); ++i)
      groups_.push_back(req.matches[i].str());
  }
  // Given as they would be captured (a handler called directly, as tests do).
  UrlCaptures(std::initializer_list<std::string> groups = {}) : groups_(groups) {}

  // The `i`th group's text (0 is the first); empty past the last, as for a route that has
  // none (the desk's "new" forms share their handler with the item's own address).
  const std::string &operator[](size_t i) const {
    static const std::string none;
    return i < groups_.size() ? groups_[i] : none;
  }

private:
  std::vector<std::string> groups_;
};

} // namespace verdict
