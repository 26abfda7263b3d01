#include "render/cards.h"

#include <cmath>

#include "domain/counting.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "render/text_fit.h"

namespace verdict::cards {

namespace {

using kainjow::mustache::list;

// The site's colours (public/style.css): each tool keeps its side's colour everywhere.
constexpr const char *kSideA = "#3546a8";
constexpr const char *kSideB = "#9c5a0f";
constexpr const char *kQuiet = "#4a5563"; // --ink-soft: a badge with nothing to report yet

// The card's grid: a 48 px margin, two tool panels of 540 px with 24 px between them.
constexpr double kContentWidth = kCardWidth - 2 * 48;
constexpr double kPanelTextWidth = 540 - 2 * 32;

std::string percent(const ShipTally &t) {
  return std::to_string(whole_percent(t.ships, t.total)) + "%";
}

// "3 of 4 reviews", "1 review", as the verdict at a glance counts the panel.
std::string reviews_basis(const ShipTally &panel) {
  if (panel.total == 1) return "1 review";
  return std::to_string(panel.ships) + " of " + count_phrase(panel.total, "review", "reviews");
}

// The largest of `sizes` (px, largest first) at which `text` fits in `width`; at the smallest,
// the text is cut to fit.
std::pair<std::string, int> fitted(const std::string &text, Face face,
                                   std::initializer_list<int> sizes, double width) {
  for (const int size : sizes)
    if (text_width(text, face, size) <= width) return {plain_text(text), size};
  const int smallest = *(sizes.end() - 1);
  return {fit_line(text, face, smallest, width), smallest};
}

Data lines_data(const std::vector<std::string> &lines) {
  Data items{list{}};
  for (const auto &line : lines) {
    Data item;
    item.set("line", line);
    items.push_back(item);
  }
  return items;
}

// `tally` gives the interval line under the count, as every share on the pages has one from
// kMinVotesForInterval on.
Data stat(int x, const char *label, std::string value, std::string basis, const ShipTally &tally) {
  Data item;
  item.set("x", std::to_string(x));
  item.set("middle", std::to_string(x + 115));
  item.set("label", label);
  item.set("value", std::move(value));
  item.set("basis", fit_line(basis, Face::sans, 15, 214));
  item.set("interval", fit_line(interval_phrase(tally.ships, tally.total), Face::sans, 13, 214));
  return item;
}

Data tool_panel(const Tool &tool, int x, const char *colour) {
  Data panel;
  panel.set("x", std::to_string(x));
  panel.set("colour", colour);
  const auto [name, size] = fitted(tool.name, Face::serif_bold, {34, 30, 26}, kPanelTextWidth);
  panel.set("name", name);
  panel.set("name_size", std::to_string(size));
  panel.set("tagline", lines_data(wrap_lines(tool.tagline, Face::sans, 21, kPanelTextWidth, 2)));
  Data stats{list{}};
  const auto &reviews = tool.panel, &votes = tool.community;
  stats.push_back(stat(32, "PANEL SHIP", reviews.total ? percent(reviews) : "—",
                       reviews.total ? reviews_basis(reviews) : "No reviews yet", reviews));
  const auto set_aside = tool.community_set_aside.total();
  stats.push_back(stat(278, "COMMUNITY", votes.total ? percent(votes) : "—",
                       (votes.total ? count_phrase(votes.total, "vote", "votes") : "No votes yet") +
                           (set_aside ? " · " + std::to_string(set_aside) + " set aside" : ""),
                       votes));
  panel.set("stats", stats);
  return panel;
}

std::string title_of(const Comparison &comparison) {
  return comparison.a.name + " vs " + comparison.b.name;
}

} // namespace

std::string card_description(const Comparison &comparison) {
  const auto glance = glance_of(comparison, {}, {});
  std::string description = title_of(comparison) + ": ";
  if (!comparison.bottom_line.empty())
    description += "the editor's bottom line: " + comparison.bottom_line + " ";
  return plain_text(description + glance.statement);
}

std::string comparison_card(const Views &views, const Comparison &comparison,
                            const SiteCopy &site) {
  Data card;
  card.set("width", std::to_string(kCardWidth));
  card.set("height", std::to_string(kCardHeight));
  card.set("sans", kSansFamily);
  card.set("serif", kSerifFamily);
  card.set("description", card_description(comparison));
  card.set("site_name", fit_line(site.site_name, Face::serif_bold, 30, 480));
  std::string eyebrow = site.comparison_eyebrow;
  if (comparison.published) eyebrow += " · " + comparison.published_on;
  card.set("eyebrow", fit_line(eyebrow, Face::sans_bold, 16, 520));
  const auto [title, title_size] =
      fitted(title_of(comparison), Face::serif_bold, {48, 44, 40, 36}, kContentWidth);
  card.set("title", title);
  card.set("title_size", std::to_string(title_size));
  Data tools{list{}};
  tools.push_back(tool_panel(comparison.a, 48, kSideA));
  tools.push_back(tool_panel(comparison.b, 612, kSideB));
  card.set("tools", tools);
  // The editor's answer when there is one; otherwise what the numbers say.
  const bool has_bottom_line = !comparison.bottom_line.empty();
  card.set("glance_label", has_bottom_line ? "THE EDITOR'S BOTTOM LINE" : "VERDICT AT A GLANCE");
  const auto glance =
      has_bottom_line ? comparison.bottom_line : glance_of(comparison, {}, {}).statement;
  card.set("glance", lines_data(wrap_lines(glance, Face::sans, 22, kContentWidth, 3)));
  // Readers' votes the counting rule set aside, and why, under everything.
  std::string set_aside;
  for (const auto *tool : {&comparison.a, &comparison.b}) {
    const auto phrase = set_aside_phrase(tool->community_set_aside, tool->community.total);
    if (!phrase.empty())
      set_aside += (set_aside.empty() ? "on " : "; on ") + tool->name + ": " + phrase;
  }
  if (!set_aside.empty())
    card.set("set_aside", fit_line("Reader votes " + set_aside, Face::sans, 14, kContentWidth));
  return views.fragment("card.svg", card);
}

Badge tool_badge(const Tool &tool, const SiteCopy &site) {
  const auto &reviews = tool.panel, &votes = tool.community;
  Badge badge;
  badge.label = site.site_name;
  badge.message = reviews.total ? "panel ship " + percent(reviews) + " · " + reviews_basis(reviews)
                                : "no panel reviews yet";
  badge.title = tool.name + " on " + site.site_name + ": " +
                (reviews.total ? "panel ship " + percent(reviews) + ", " + reviews_basis(reviews)
                               : "the panel has not reviewed it yet") +
                (votes.total ? "; readers " + percent(votes) + " ship, " +
                                   count_phrase(votes.total, "vote", "votes")
                 : tool.community_set_aside.total() ? "; no reader votes counted yet"
                                                    : "; no reader votes yet") +
                with_set_aside(tool.community_set_aside, votes.total) + ".";
  badge.colour = reviews.total ? kSideA : kQuiet;
  return badge;
}

Badge pair_badge(const Comparison &comparison) {
  using Lead = Glance::Lead;
  const auto glance = glance_of(comparison, {}, {});
  const auto name = [&](Lead lead) {
    return fit_line(lead == Lead::a ? comparison.a.name : comparison.b.name, Face::sans, 11, 150);
  };
  const auto panel = glance.panel_lead, readers = glance.readers_lead;
  const auto says = [&](const char *who, Lead lead, const char *favour, const char *rate) {
    return std::string(who) + " " +
           (lead == Lead::level ? std::string(rate) + " them alike" : favour + (" " + name(lead)));
  };
  Badge badge;
  badge.label = title_of(comparison);
  if (panel == Lead::unknown)
    badge.message = "panel has not reviewed both";
  else if (readers == panel)
    badge.message = says("panel and readers", panel, "favour", "rate");
  else
    badge.message = says("panel", panel, "favours", "rates");
  if (readers != Lead::unknown && readers != panel)
    badge.message += " · " + says("readers", readers, "favour", "rate");
  badge.title = title_of(comparison) + ": " + glance.statement + " Readers: " + comparison.a.name +
                " " + glance.community_a + "; " + comparison.b.name + " " + glance.community_b +
                ".";
  badge.colour = panel == Lead::unknown && readers == Lead::unknown ? kQuiet : kSideA;
  return badge;
}

namespace {

constexpr double kBadgeText = 11;       // px
constexpr double kBadgeLabelRoom = 300; // px of label text before it is cut
constexpr int kBadgePadding = 7;        // px each side of each text

// A text's drawn width rounded up to an even number, so each half of the badge has a whole
// middle.
int even_width(const std::string &text) {
  return 2 * static_cast<int>(std::ceil(text_width(text, Face::sans, kBadgeText) / 2));
}

struct BadgeLayout {
  std::string label, message;
  int label_text = 0, message_text = 0; // px each text takes
  int label_box = 0, message_box = 0;   // px each half takes
};

BadgeLayout layout_of(const Badge &badge) {
  BadgeLayout layout;
  layout.label = fit_line(badge.label, Face::sans, kBadgeText, kBadgeLabelRoom);
  layout.message = plain_text(badge.message);
  layout.label_text = even_width(layout.label);
  layout.message_text = even_width(layout.message);
  layout.label_box = layout.label_text + 2 * kBadgePadding;
  layout.message_box = layout.message_text + 2 * kBadgePadding;
  return layout;
}

} // namespace

int badge_width(const Badge &badge) {
  const auto layout = layout_of(badge);
  return layout.label_box + layout.message_box;
}

std::string badge_svg(const Views &views, const Badge &badge) {
  const auto layout = layout_of(badge);
  Data data;
  data.set("sans", kSansFamily);
  data.set("title", plain_text(badge.title));
  data.set("colour", badge.colour);
  data.set("width", std::to_string(layout.label_box + layout.message_box));
  data.set("label", layout.label);
  data.set("label_width", std::to_string(layout.label_box));
  data.set("label_text_width", std::to_string(layout.label_text));
  data.set("label_middle", std::to_string(layout.label_box / 2));
  data.set("message", layout.message);
  data.set("message_width", std::to_string(layout.message_box));
  data.set("message_text_width", std::to_string(layout.message_text));
  data.set("message_middle", std::to_string(layout.label_box + layout.message_box / 2));
  return views.fragment("badge.svg", data);
}

} // namespace verdict::cards
