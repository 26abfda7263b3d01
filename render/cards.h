// The site's images as SVG: a comparison's share card (what a link to it shows on social
// sites, as og:image) and the badges other sites embed for a tool or a pair. They show the
// numbers and sentences the pages show, made by the same functions (domain/glance.h,
// domain/numbers.h), and fit their text to their boxes (render/text_fit.h). The templates
// (views/card.svg.mustache, views/badge.svg.mustache) hold no logic and escape every text.
#pragma once

#include <string>

#include "domain/model.h"
#include "render/views.h"

namespace verdict::cards {

// The share card's size: what og:image consumers crop to (1.91:1).
inline constexpr int kCardWidth = 1200;
inline constexpr int kCardHeight = 630;

// The card of a comparison: the site, "A vs B", each tool's name, tagline, panel ship rate
// and community share with their counts, and the verdict at a glance (the editor's bottom
// line when there is one, else the statement computed from the numbers).
std::string comparison_card(const Views &views, const Comparison &comparison, const SiteCopy &site);
// What the card says, as one sentence: its <title> and the page's og:image:alt.
std::string card_description(const Comparison &comparison);

// A shields-style badge: a dark label and a coloured message, 20 px tall.
struct Badge {
  std::string label;   // "Verdict"
  std::string message; // "panel ship 75% · 3 of 4 reviews"
  std::string title;   // the whole statement, for <title> and an <img>'s alt
  std::string colour;  // the message's background
};
// A tool's panel ship rate, or that the panel has not reviewed it yet.
Badge tool_badge(const Tool &tool, const SiteCopy &site);
// Whom the panel and the readers favour in a pair, as the verdict at a glance says it.
Badge pair_badge(const Comparison &comparison);
int badge_width(const Badge &badge);
std::string badge_svg(const Views &views, const Badge &badge);

} // namespace verdict::cards
