#include "render/text_fit.h"

#include <array>
#include <cstdint>

#include "domain/utf8.h"

namespace verdict {

namespace {

// Advance widths of printable ASCII (U+0020 to U+007E) in thousandths of an em, as DejaVu
// 2.37 (Debian's fonts-dejavu-core) draws them.
using AsciiWidths = std::array<uint16_t, 95>;
constexpr AsciiWidths kSans = {
    318,  401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // ' '–'/'
    636,  636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // '0'–'?'
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // '@'–'O'
    603,  787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // 'P'–'_'
    500,  613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // '`'–'o'
    635,  635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};     // 'p'–'~'
constexpr AsciiWidths kSansBold = {
    348,  456, 521, 838, 696, 1002, 872, 306,  457, 457, 523, 838, 380, 415,  380, 365,
    696,  696, 696, 696, 696, 696,  696, 696,  696, 696, 400, 400, 838, 838,  838, 580,
    1000, 774, 762, 734, 830, 683,  683, 821,  837, 372, 372, 775, 637, 995,  837, 850,
    733,  850, 770, 720, 682, 812,  774, 1103, 771, 724, 725, 457, 365, 457,  838, 500,
    500,  675, 716, 593, 716, 678,  435, 716,  712, 343, 343, 665, 343, 1042, 712, 687,
    716,  716, 493, 595, 478, 712,  652, 924,  645, 652, 582, 712, 365, 712,  838};
constexpr AsciiWidths kSerifBold = {
    348,  439, 521, 838, 696, 950, 903, 306,  473, 473, 523, 838, 348, 415,  348, 365,
    696,  696, 696, 696, 696, 696, 696, 696,  696, 696, 369, 369, 838, 838,  838, 586,
    1000, 776, 845, 796, 867, 762, 710, 854,  945, 468, 473, 869, 703, 1107, 914, 871,
    752,  871, 831, 722, 744, 872, 776, 1123, 776, 714, 730, 473, 365, 473,  838, 500,
    500,  648, 699, 609, 699, 636, 430, 699,  727, 380, 362, 693, 380, 1058, 727, 667,
    699,  699, 527, 563, 462, 727, 581, 861,  596, 581, 568, 643, 364, 643,  838};

const AsciiWidths &ascii_widths(Face face) {
  switch (face) {
  case Face::sans:
    return kSans;
  case Face::sans_bold:
    return kSansBold;
  case Face::serif_bold:
    break;
  }
  return kSerifBold;
}

constexpr std::string_view kEllipsis = "\u2026"; // as wide as an em in every face measured

// Thousandths of an em that code point `cp` takes.
unsigned advance(char32_t cp, Face face) {
  if (cp >= 0x20 && cp <= 0x7e) return ascii_widths(face)[cp - 0x20];
  if (cp >= 0x300 && cp <= 0x36f) return 0; // combining accents sit on the letter before
  // Accented Latin, Greek and Cyrillic, which DejaVu has: no wider than its widest capital.
  if ((cp >= 0xa0 && cp <= 0x52f) || (cp >= 0x1e00 && cp <= 0x1fff))
    return ascii_widths(face)['W' - 0x20];
  if (cp >= 0x2000 && cp <= 0x206f) return 1000; // dashes, quotes, ellipsis
  // Anything else comes from a fallback font: ideographs take an em, emoji up to 1.3.
  return 1300;
}

// Calls `each(code point, its UTF-8 bytes)` for every character of `text` as plain_text
// keeps it.
template <class Each> void for_each_plain(std::string_view text, Each each) {
  for (size_t i = 0; i < text.size();) {
    const auto character = first_character(text.substr(i));
    const auto cp = character.code;
    const auto encoded = character.valid ? text.substr(i, character.length) : kReplacementCharacter;
    i += character.length;
    if (cp == '\t' || cp == '\n' || cp == '\r')
      each(char32_t{' '}, std::string_view(" "));
    else if (cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f) && cp != 0xfffe &&
             cp != 0xffff)
      each(cp, encoded);
  }
}

// The longest start of `text` (plain) that fits in `width` px, and the rest.
std::pair<std::string, std::string> split_at_width(std::string_view text, Face face, double size,
                                                   double width) {
  std::string head, tail;
  double used = 0;
  bool full = false;
  for_each_plain(text, [&](char32_t cp, std::string_view encoded) {
    if (!full) {
      const double next = used + advance(cp, face) * size / 1000.0;
      if (next <= width || head.empty()) { // at least one character per line
        head += encoded;
        used = next;
        return;
      }
      full = true;
    }
    tail += encoded;
  });
  return {head, tail};
}

std::string without_trailing_spaces(std::string text) {
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text;
}

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for_each_plain(text, [&](char32_t cp, std::string_view encoded) {
    if (cp != ' ') {
      word += encoded;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  });
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

} // namespace

std::string plain_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_plain(text, [&](char32_t, std::string_view encoded) { out += encoded; });
  return out;
}

double text_width(std::string_view text, Face face, double size) {
  unsigned long thousandths = 0;
  for_each_plain(text, [&](char32_t cp, std::string_view) { thousandths += advance(cp, face); });
  return static_cast<double>(thousandths) * size / 1000.0;
}

std::string fit_line(std::string_view text, Face face, double size, double width) {
  if (text_width(text, face, size) <= width) return plain_text(text);
  const double room = width - text_width(kEllipsis, face, size);
  return without_trailing_spaces(split_at_width(text, face, size, room).first) +
         std::string(kEllipsis);
}

std::vector<std::string> wrap_lines(std::string_view text, Face face, double size, double width,
                                    size_t max_lines) {
  std::vector<std::string> lines;
  auto words = words_of(text);
  size_t next = 0;
  while (next < words.size() && lines.size() < max_lines) {
    if (lines.size() + 1 == max_lines) { // the last line takes the rest, cut to fit
      std::string rest;
      for (; next < words.size(); ++next)
        rest += (rest.empty() ? "" : " ") + words[next];
      lines.push_back(fit_line(rest, face, size, width));
      break;
    }
    std::string line;
    while (next < words.size()) {
      const auto candidate = line.empty() ? words[next] : line + " " + words[next];
      if (text_width(candidate, face, size) <= width) {
        line = candidate;
        ++next;
        continue;
      }
      if (line.empty()) { // a word longer than a whole line is broken where the line ends
        auto [head, tail] = split_at_width(words[next], face, size, width);
        line = std::move(head);
        if (tail.empty())
          ++next;
        else
          words[next] = std::move(tail);
      }
      break;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

} // namespace verdict
