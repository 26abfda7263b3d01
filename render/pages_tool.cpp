// A tool's page: its card with the vote form, pricing, the panel's reviews, its comparisons,
// a picker to compare it with another tool, and its badge with the snippets that embed it.
#include "render/pages.h"

#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include "render/cards.h"
#include "render/feeds.h"
#include "render/page_parts.h"
#include "render/text_fit.h"
#include "render/voter_places.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

namespace {

// Markdown's own characters in `text` escaped with a backslash, so a name reads as itself.
std::string markdown_text(const std::string &text) {
  std::string out;
  for (const char c : text) {
    if (std::string_view("\\`*_[]<>&!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The tool's badge as the page shows it, and the snippets that embed it elsewhere: HTML and
// Markdown with absolute addresses (Views::public_url), the name escaped for each.
Data badge_embed(const Views &views, const Tool &t, const SiteCopy &site) {
  const auto badge = cards::tool_badge(t, site);
  const auto page_url = views.public_url("/tools/" + t.slug);
  const auto badge_url = page_url + "/badge.svg";
  const auto alt = plain_text(t.name + " on " + site.site_name);
  const auto attribute = [](const std::string &text) {
    return kainjow::mustache::html_escape<std::string>(text);
  };
  Data embed;
  embed.set("path", "/tools/" + t.slug + "/badge.svg");
  embed.set("alt", plain_text(badge.title));
  embed.set("width", std::to_string(cards::badge_width(badge)));
  embed.set("html", "<a href=\"" + attribute(page_url) + "\"><img src=\"" + attribute(badge_url) +
                        "\" alt=\"" + attribute(alt) + "\"></a>");
  embed.set("markdown", "[![" + markdown_text(alt) + "](" + badge_url + ")](" + page_url + ")");
  return embed;
}

// The tool page with the given vote form in its card.
std::string tool_with(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                      const std::string &today, const std::string &vote_form) {
  const auto &t = detail.tool;
  Data page;
  page.set("card", tool_card(views, t, "a", vote_form, true));
  page.set("slug", t.slug);
  page.set("name", t.name);
  page.set("entry", t.entry);
  page.set("pricing_notes", t.pricing_notes);
  set_pricing_check(page, t, today);
  set_if(page, "vendor", t.vendor);
  set_if(page, "url", t.url);
  Data reviews{list{}};
  for (const auto &r : detail.reviews.items)
    reviews.push_back(review_item(r, "a"));
  page.set("reviews", reviews);
  const auto path = "/tools/" + t.slug;
  const auto number = detail.reviews.number;
  page.set("pagination",
           pagination(views, path, number, detail.reviews.has_next || detail.comparisons.has_next));
  page.set("has_comparisons", bool_data(!detail.comparisons.items.empty()));
  page.set("no_comparisons", bool_data(number == 1 && detail.comparisons.items.empty()));
  page.set("comparison_list", comparison_list(views, detail.comparisons.items));
  // A picker of every other tool while they are few; past that, the other tool's slug.
  page.set("others_listed", bool_data(detail.others_complete));
  // Each by its name; two that share one (this tool's too) carry their taglines, never an
  // address, so a reader can tell them apart.
  std::map<std::string, int> named{{t.name, 1}};
  for (const auto &o : detail.others)
    ++named[o.name];
  Data others{list{}};
  for (const auto &o : detail.others) {
    Data option;
    option.set("slug", o.slug);
    option.set("name", named[o.name] > 1 ? o.name + " — " + o.tagline : o.name);
    others.push_back(option);
  }
  page.set("others", others);
  page.set("badge", badge_embed(views, t, site));
  auto about = software(t);
  about["@context"] = "https://schema.org";
  PageMeta meta{t.name + " — " + t.tagline + page_suffix(number) + " · " + site.site_name,
                t.description,
                page_path(path, number),
                false,
                about.dump(),
                feeds::tool_path(t.slug),
                feeds::tool_title(t, site)};
  meta.vote_log_size = std::to_string(detail.vote_log_size);
  return views.page("tool", page, meta, site);
}

} // namespace

std::string tool(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                 const std::string &today, const std::string &token) {
  const auto &t = detail.tool;
  return tool_with(views, detail, site, today,
                   tool_vote(views, t, detail.voter.on_a, detail.voter.on_a_standing,
                             "/tools/" + t.slug, token));
}

PersonalPage tool_page(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                       const std::string &today, const std::string &token) {
  const auto &t = detail.tool;
  PersonalPage page;
  page.a_id = t.id;
  page.pieces =
      cut_at_voter_places(tool_with(views, detail, site, today, std::string(kVoterPlace)), 1);
  page.slots = {PersonalPage::Slot::vote_a};
  page.renderings = {tool_votes(views, t, "/tools/" + t.slug, token)};
  return page;
}

} // namespace verdict::pages
