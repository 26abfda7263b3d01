// Small text rules shared by layers that compare names without regard to ASCII case: email
// addresses, HTTP header names.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace verdict {

// `text` with A-Z made a-z; every other byte (UTF-8 included) as it is.
inline std::string ascii_lowercase(std::string_view text) {
  std::string out(text);
  for (auto &c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

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

} // namespace verdict
