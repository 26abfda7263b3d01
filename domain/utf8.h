// UTF-8 as RFC 3629 defines it, read in one place for every layer that takes text from
// outside (form bodies, addresses, query strings) or hands text to something that breaks on
// bad bytes (HTML pages, XML feeds, images, mail headers). One decoder, so "valid" means the
// same everywhere: no overlong forms (0xC0 0xAF for "/"), no UTF-16 surrogates (U+D800 to
// U+DFFF), nothing past U+10FFFF, no 5- or 6-byte forms and no 0xFE or 0xFF byte. A looser
// check lets such bytes through a validator and out again in a page that is not UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace verdict {

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD"; // U+FFFD

// The character at the start of `text`, which is not empty: its code point and how many bytes
// it takes. Where the bytes there are not a UTF-8 character, it is {U+FFFD, 1, false}: the
// first byte stands for the broken sequence and reading goes on from the next.
struct Utf8Character {
  char32_t code;
  size_t length; // 1 to 4
  bool valid;
};
Utf8Character first_character(std::string_view text);

bool is_valid_utf8(std::string_view text);

// How many characters `text` holds, each byte of a broken sequence counted as one.
size_t character_count(std::string_view text);

// The longest start of `text` that is at most `max_bytes` long and ends between characters,
// so a cut never leaves half a character behind.
std::string_view cut_to_whole_characters(std::string_view text, size_t max_bytes);

// `bytes` made valid UTF-8: each byte of a broken sequence becomes U+FFFD (the tests and the
// fuzz target use it; the site shows text through reflectable_text below).
std::string with_invalid_replaced(std::string_view bytes);

// Whatever bytes a request carried, fit to say back in a page or a message: each byte of a
// broken sequence and each control character (C0, DEL, C1; line breaks too) becomes U+FFFD,
// and the text is cut between characters to at most `max_bytes` (not counting a "…" added
// when something was cut off).
std::string reflectable_text(std::string_view bytes, size_t max_bytes);

} // namespace verdict
