// Fitting text into images. An SVG has no layout engine: a line too long for its box runs
// over the edge, or out of the picture. So the share cards and badges measure their text
// with the advance widths of the fonts they name (DejaVu, which the PNG renderer draws with
// and which browsers without it replace by fonts no wider), and cut what does not fit with
// an ellipsis. Every text an image shows passes through here, which also makes it text XML
// may carry: valid UTF-8 without control characters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace verdict {

enum class Face { sans, sans_bold, serif_bold };

// The font-family lists the images name for each face, first the measured one.
inline constexpr const char *kSansFamily = "DejaVu Sans, Verdana, Geneva, sans-serif";
inline constexpr const char *kSerifFamily = "DejaVu Serif, Georgia, serif";

// `text` as XML may carry it: invalid UTF-8 becomes U+FFFD, tabs and line breaks become
// spaces, other control characters (and U+FFFE, U+FFFF) are dropped.
std::string plain_text(std::string_view text);

// How many pixels `text` takes in `face` at `size` px. Characters DejaVu lacks are counted
// as wide as the widest it has, so an estimate errs towards too wide.
double text_width(std::string_view text, Face face, double size);

// `text` (as plain_text) whole if it fits in `width` px, else cut at a character so that it
// and a trailing "…" fit.
std::string fit_line(std::string_view text, Face face, double size, double width);

// `text` (as plain_text) broken at spaces into at most `max_lines` lines of `width` px; a
// word longer than a line is cut, and when the text needs more lines the last one ends in "…".
std::vector<std::string> wrap_lines(std::string_view text, Face face, double size, double width,
                                    size_t max_lines);

} // namespace verdict
