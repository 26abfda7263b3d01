// The pieces several pages are made of (render/page_parts.h), and the display strings pages.h
// shares: a share as the lists write it, a tool's card, a quote, the sign-up form.
#include "render/page_parts.h"

#include <cctype>

#include "domain/counting.h"
#include "domain/dates.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
#include "domain/slugs.h"
#include "render/pages.h"

namespace verdict::pages {

using kainjow::mustache::list;

namespace parts {

void set_if(Data &data, const std::string &key, const std::string &value) {
  if (!value.empty()) data.set(key, value);
}

Data bool_data(bool value) {
  return value ? Data::type::bool_true : Data::type::bool_false;
}

const char *verdict_label(Verdict v) {
  return v == Verdict::ship ? "Ship" : "Skip";
}

const char *verdict_class(Verdict v) {
  return verdict_word(v);
}

std::string title_of(const std::string &a, const std::string &b) {
  return a + " vs " + b;
}

std::string page_path(const std::string &path, int number) {
  if (number == 1) return path;
  return path + (path.find('?') == std::string::npos ? "?" : "&") +
         "page=" + std::to_string(number);
}

// `text` as one value of an address's query: every byte but letters, digits and -._~
// percent-encoded.
std::string query_value(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out;
}

std::string page_suffix(int number) {
  return number == 1 ? std::string() : " · page " + std::to_string(number);
}

std::string comparison_list(const Views &views, const std::vector<ComparisonSummary> &comparisons) {
  Data items{list{}};
  for (const auto &c : comparisons) {
    Data item;
    item.set("slug", pair_slug(c.a_slug, c.b_slug));
    item.set("title", title_of(c.a_name, c.b_name));
    item.set("published_on", c.published_on);
    const auto leads = lead_lines(c.a_name, c.b_name, c.numbers);
    item.set("panel_lead", leads.panel);
    item.set("readers_lead", leads.readers);
    items.push_back(item);
  }
  Data data;
  data.set("comparisons", items);
  return views.fragment("comparison_list", data);
}

std::string interval_readings(const Views &views, const std::vector<std::string> &readings) {
  Data items{list{}};
  for (const auto &reading : readings)
    if (!reading.empty()) {
      Data item;
      item.set("reading", reading);
      items.push_back(item);
    }
  if (items.is_empty_list()) return "";
  Data data;
  data.set("readings", items);
  return views.fragment("interval_readings", data);
}

std::string panel_share_of(const Tool &t) {
  return "of reviewers like the panel's who would ship " + t.name;
}
std::string community_share_of(const Tool &t) {
  return "of readers who would ship " + t.name;
}
std::string picks_share_of(const Tool &picked, const Tool &other) {
  return "of readers who pick " + picked.name + " over " + other.name;
}
std::string ship_rate_share_of(const Reviewer &r) {
  return "of tools like these that " + r.name + " would ship";
}

namespace {

// A tool's panel and community intervals, read in plain words.
std::vector<std::string> tool_readings(const Tool &t) {
  return {interval_reading(t.panel.ships, t.panel.total, panel_share_of(t)),
          interval_reading(t.community.ships, t.community.total, community_share_of(t))};
}

// Too few to show an interval, though some: a figure drawn fainter than a sure one.
bool few(const ShipTally &tally) {
  return tally.total > 0 && tally.total < kMinVotesForInterval;
}

} // namespace

Data tool_row(const Tool &t) {
  Data row;
  row.set("slug", t.slug);
  row.set("name", t.name);
  row.set("tagline", t.tagline);
  row.set("category", t.category.name);
  row.set("category_slug", t.category.slug);
  row.set("entry", t.entry);
  row.set("panel", panel_summary(t.panel));
  row.set("community", community_summary(t.community, t.community_set_aside));
  return row;
}

std::string tool_table(const Views &views, const std::vector<Tool> &tools) {
  Data rows{list{}};
  std::vector<std::string> readings;
  for (const auto &t : tools) {
    for (auto &reading : tool_readings(t))
      readings.push_back(std::move(reading));
    rows.push_back(tool_row(t));
  }
  Data data;
  data.set("tools", rows);
  data.set("readings", interval_readings(views, readings));
  return views.fragment("tool_table", data);
}

std::string newsletter(const Views &views, const SiteCopy &site, const std::string &email,
                       const std::string &problem) {
  Data data;
  data.set("title", site.newsletter_title);
  data.set("lead", site.newsletter_lead);
  data.set("pitch", site.newsletter_pitch);
  if (!problem.empty()) {
    data.set("problem", problem);
    data.set("email", email);
  }
  return views.fragment("newsletter", data);
}

std::string tool_card(const Views &views, const Tool &t, const char *side,
                      const std::string &vote_form, bool is_page_heading) {
  Data card;
  card.set("page_heading", bool_data(is_page_heading));
  card.set("side", side);
  card.set("slug", t.slug);
  card.set("name", t.name);
  card.set("category", t.category.name);
  card.set("category_slug", t.category.slug);
  card.set("tagline", t.tagline);
  card.set("description", t.description);
  card.set("entry", t.entry);
  card.set("panel_percent", t.panel.total ? percent_phrase(t.panel.ships, t.panel.total) : "—");
  card.set("panel_basis", std::to_string(t.panel.ships) + " of " + std::to_string(t.panel.total));
  if (t.community.total == 0) {
    card.set("community_percent", "—");
  } else {
    card.set("community_percent", percent_phrase(t.community.ships, t.community.total));
    card.set("community_basis", count_phrase(t.community.total, "vote", "votes"));
  }
  // Each on a line of its own under the figure: the " · " that joins them in running text is
  // the template's, and hidden there (a line never starts with a separator).
  set_if(card, "panel_interval", interval_phrase(t.panel.ships, t.panel.total));
  set_if(card, "community_interval", interval_phrase(t.community.ships, t.community.total));
  set_if(card, "community_set_aside", set_aside_phrase(t.community_set_aside, t.community.total));
  card.set("panel_few", bool_data(few(t.panel)));
  card.set("community_few", bool_data(few(t.community)));
  card.set("readings", interval_readings(views, tool_readings(t)));
  card.set("log_tally", log_tally(tool_target(t.id), tool_standing(t)));
  card.set("vote_form", vote_form);
  return views.fragment("tool_card", card);
}

void set_pricing_check(Data &data, const Tool &t, const std::string &today) {
  set_if(data, "checked_on", t.pricing_checked_on);
  set_if(data, "source", t.pricing_source);
  if (is_stale(t.pricing_checked_on, today)) data.set("stale", bool_data(true));
}

namespace {

// The first words of a quote, for the line that stands for it while it is folded: up to about
// twelve words, cut at a space (never inside a word or a character), then an ellipsis.
std::string opening_of(const std::string &quote) {
  constexpr size_t kOpening = 80;
  const auto first_line = quote.substr(0, quote.find('\n'));
  if (first_line.size() <= kOpening)
    return first_line.size() == quote.size() ? quote : first_line + "…";
  auto cut = first_line.rfind(' ', kOpening);
  if (cut == std::string::npos || cut == 0) cut = std::min(first_line.size(), kOpening);
  while (cut > 0 && (first_line[cut - 1] == ',' || first_line[cut - 1] == ' '))
    --cut;
  return first_line.substr(0, cut) + "…";
}

} // namespace

Data review_item(const Review &r, const char *side) {
  Data item;
  item.set("side", side);
  item.set("quote", r.quote);
  item.set("opening", opening_of(r.quote));
  item.set("tool_slug", r.tool_slug);
  item.set("tool_name", r.tool_name);
  item.set("reviewer_slug", r.reviewer_slug);
  item.set("reviewer_name", r.reviewer_name);
  item.set("reviewer_lens", r.reviewer_lens);
  item.set("verdict", verdict_class(r.verdict));
  item.set("verdict_label", verdict_label(r.verdict));
  return item;
}

nlohmann::ordered_json software(const Tool &t) {
  nlohmann::ordered_json app = {{"@type", "SoftwareApplication"},
                                {"name", t.name},
                                {"applicationCategory", t.category.name},
                                {"description", t.tagline}};
  if (!t.url.empty()) app["url"] = t.url;
  return app;
}

Data log_tally(const VoteTarget &target, const DayTally &standing) {
  Data tally;
  tally.set("target", vote_target_code(target));
  tally.set("first", std::to_string(standing.first));
  tally.set("second", std::to_string(standing.second));
  tally.set("network", std::to_string(standing.set_aside.network));
  tally.set("too_fast", std::to_string(standing.set_aside.too_fast));
  return tally;
}

} // namespace parts

std::string panel_summary(const ShipTally &panel) {
  return share_phrase(kPanelTally, panel.ships, panel.total);
}

std::string community_summary(const ShipTally &votes, const SetAside &set_aside) {
  return share_phrase(kCommunityTally, votes.ships, votes.total, set_aside);
}

} // namespace verdict::pages
