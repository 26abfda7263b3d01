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

namespace {
constexpr size_t kMostSeparatorsRead = 12;
} // namespace

std::vector<std::vector<std::string>> slug_splits(std::string_view address, size_t parts,
                                                  size_t most) {
  std::vector<std::vector<std::string>> splits;
  if (parts == 0 || most == 0) return splits;
  // Past a dozen "-vs-" the address names no tools of this site's making, and reading it every
  // way would cost thousands of tries: it is read no way.
  size_t separators = 0;
  for (auto at = address.find(kPairSeparator); at != std::string_view::npos;
       at = address.find(kPairSeparator, at + 1))
    ++separators;
  if (separators > kMostSeparatorsRead) return splits;
  if (parts == 1) {
    if (is_valid_slug(address)) splits.push_back({std::string(address)});
    return splits;
  }
  for (auto at = address.find(kPairSeparator); at != std::string_view::npos && splits.size() < most;
       at = address.find(kPairSeparator, at + 1)) {
    const auto first = address.substr(0, at);
    if (!is_valid_slug(first)) continue;
    for (auto &rest :
         slug_splits(address.substr(at + kPairSeparator.size()), parts - 1, most - splits.size())) {
      rest.insert(rest.begin(), std::string(first));
      splits.push_back(std::move(rest));
    }
  }
  return splits;
}

std::string joined_slugs(const std::vector<std::string> &slugs) {
  std::string joined;
  for (const auto &slug : slugs)
    joined.append(joined.empty() ? "" : kPairSeparator).append(slug);
  return joined;
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
