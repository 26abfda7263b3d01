// Slug rules (domain/slugs.h): which text is a slug, and how two make a pair.
#include "domain/slugs.h"

namespace verdict {

bool is_valid_slug(std::string_view slug) {
  if (slug.empty() || slug.size() > kMaxSlugLength || slug.front() == '-' || slug.back() == '-')
    return false;
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
  std::vector<std::pair<std::string, std::string>> splits;
  for (auto at = pair.find(kPairSeparator); at != std::string_view::npos;
       at = pair.find(kPairSeparator, at + 1)) {
    const auto a = pair.substr(0, at);
    const auto b = pair.substr(at + kPairSeparator.size());
    if (is_valid_slug(a) && is_valid_slug(b)) splits.emplace_back(a, b);
  }
  return splits;
}

std::string pair_slug(std::string_view a, std::string_view b) {
  std::string slug;
  slug.reserve(a.size() + b.size() + kPairSeparator.size());
  slug.append(a).append(kPairSeparator).append(b);
  return slug;
}

std::string slug_from_name(std::string_view name) {
  std::string slug;
  bool hyphen_due = false;
  for (char c : name) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool alnum = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (!alnum) {
      hyphen_due = !slug.empty();
      continue;
    }
    if (hyphen_due) slug += '-';
    hyphen_due = false;
    slug += lower;
  }
  if (slug.size() > kMaxSlugLength) {
    // Cut at the last whole word, unless the first word alone is longer than a slug may be.
    const bool cut_between_words = slug[kMaxSlugLength] == '-';
    slug.resize(kMaxSlugLength);
    const auto last_hyphen = slug.rfind('-');
    if (!cut_between_words && last_hyphen != std::string::npos) slug.resize(last_hyphen);
  }
  return slug;
}

} // namespace verdict
