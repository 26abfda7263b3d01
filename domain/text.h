// Small text rules for names compared without regard to ASCII case (email addresses); HTTP's
// own (header names, tokens, optional whitespace) are transport/http_text.h's.
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

} // namespace verdict
