// HTTP's text rules, for the transport alone: names and tokens compared without regard to
// ASCII case, and optional whitespace (RFC 9110 §5.6).
#pragma once

#include <algorithm>
#include <string_view>

namespace verdict {

// Whether `a` and `b` are the same but for ASCII case (header names, tokens, codings).
inline bool equals_ignoring_ascii_case(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return lower(x) == lower(y); });
}

// `text` without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
inline std::string_view without_outer_whitespace(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

// Whether `a` sorts before `b` with ASCII case ignored: the order of httplib's header map.
inline bool less_ignoring_ascii_case(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](char x, char y) { return lower(x) < lower(y); });
}

} // namespace verdict
