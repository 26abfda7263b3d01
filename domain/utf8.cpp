#include "domain/utf8.h"

namespace verdict {

namespace {

//   lead byte     length  code point range       (RFC 3629, section 4)
//   00-7F         1       U+0000   - U+007F
//   C2-DF         2       U+0080   - U+07FF      (C0, C1: overlong)
//   E0-EF         3       U+0800   - U+FFFF      less the surrogates U+D800 - U+DFFF
//   F0-F4         4       U+10000  - U+10FFFF    (F5-F7: past Unicode)
//   80-BF, F8-FF  —       a continuation byte alone, or no UTF-8 lead byte at all
constexpr char32_t kSmallestOfLength[] = {0, 0, 0x80, 0x800, 0x10000};

bool is_control(char32_t code) {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

} // namespace

Utf8Character first_character(std::string_view text) {
  constexpr Utf8Character broken{0xfffd, 1, false};
  const auto lead = static_cast<unsigned char>(text[0]);
  const size_t length = lead < 0x80           ? 1
                        : (lead >> 5) == 0x6  ? 2
                        : (lead >> 4) == 0xe  ? 3
                        : (lead >> 3) == 0x1e ? 4
                                              : 0;
  if (length == 0 || length > text.size()) return broken;
  // The lead byte's own bits: all of an ASCII byte's, fewer the longer the sequence.
  char32_t code = length == 1 ? lead : static_cast<char32_t>(lead & (0xffu >> (length + 1)));
  for (size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[k]);
    if ((next & 0xc0) != 0x80) return broken;
    code = (code << 6) | (next & 0x3fu);
  }
  if (code < kSmallestOfLength[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
    return broken;
  return {code, length, true};
}

bool is_valid_utf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const auto character = first_character(text.substr(at));
    if (!character.valid) return false;
    at += character.length;
  }
  return true;
}

size_t character_count(std::string_view text) {
  size_t count = 0;
  for (size_t at = 0; at < text.size(); ++count)
    at += first_character(text.substr(at)).length;
  return count;
}

std::string_view cut_to_whole_characters(std::string_view text, size_t max_bytes) {
  size_t end = 0;
  while (end < text.size()) {
    const auto length = first_character(text.substr(end)).length;
    if (end + length > max_bytes) break;
    end += length;
  }
  return text.substr(0, end);
}

std::string with_invalid_replaced(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t at = 0; at < bytes.size();) {
    const auto character = first_character(bytes.substr(at));
    if (character.valid)
      out.append(bytes.substr(at, character.length));
    else
      out.append(kReplacementCharacter);
    at += character.length;
  }
  return out;
}

std::string reflectable_text(std::string_view bytes, size_t max_bytes) {
  std::string out;
  for (size_t at = 0; at < bytes.size();) {
    const auto character = first_character(bytes.substr(at));
    const auto shown = character.valid && !is_control(character.code)
                           ? bytes.substr(at, character.length)
                           : kReplacementCharacter;
    if (out.size() + shown.size() > max_bytes) return out + "\u2026";
    out.append(shown);
    at += character.length;
  }
  return out;
}

} // namespace verdict
