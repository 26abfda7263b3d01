// A hash for maps keyed by std::string that lets them be searched with a std::string_view
// (a request's target or cookie as the reactor holds it) without copying the key first.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace verdict {

struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

} // namespace verdict
