#include "domain/slugs.h"

namespace verdict {

bool is_valid_slug(std::string_view slug) {
  if (slug.empty() || slug.size() > 120 || slug.front() == '-' || slug.back() == '-') return false;
  char previous = 0;
  for (char c : slug) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && c != '-') return false;
    if (c == '-' && previous == '-') return false;
    previous = c;
  }
  return true;
}

std::vector<std::pair<std::string, std::string>> pair_slug_splits(std::string_view pair) {
  constexpr std::string_view separator = "-vs-";
  std::vector<std::pair<std::string, std::string>> splits;
  for (auto at = pair.find(separator); at != std::string_view::npos;
       at = pair.find(separator, at + 1)) {
    const auto a = pair.substr(0, at);
    const auto b = pair.substr(at + separator.size());
    if (is_valid_slug(a) && is_valid_slug(b)) splits.emplace_back(a, b);
  }
  return splits;
}

std::string pair_slug(std::string_view a, std::string_view b) {
  std::string slug;
  slug.reserve(a.size() + b.size() + 4);
  slug.append(a).append("-vs-").append(b);
  return slug;
}

} // namespace verdict
