// The pages that help a reader choose beyond one pair: a tool's alternatives
// (domain/alternatives.h), ranked by readers' head-to-head picks with their intervals, in
// tiers; and three or four tools side by side, with each pair's picks and who leads it.
#include "render/pages.h"

#include <algorithm>
#include <cmath>

#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/slugs.h"
#include "render/page_parts.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

namespace {

// A chance as a whole percent; an interval's ends outward (floor, ceiling), so the printed
// interval never claims more than the fit.
std::string percent(double chance) {
  return std::to_string(std::lround(chance * 100)) + "%";
}
std::string interval(const Strength &s) {
  return std::to_string(static_cast<int>(std::floor(s.low * 100 + 1e-9))) + "–" +
         std::to_string(static_cast<int>(std::ceil(s.high * 100 - 1e-9))) + "%";
}

// "Picked over an average alternative 62% of the time (95% interval 48–74%), from 23 picks".
std::string readers_said(const Strength &s) {
  if (s.picks == 0) return "No head-to-head picks yet";
  return "Picked over an average alternative " + percent(s.chance) + " of the time (95% interval " +
         interval(s) + "), from " + count_phrase(s.picks, "pick", "picks");
}

std::string versus_said(const std::string &tool, const std::string &other, const PairTally &v) {
  if (v.a + v.b == 0) return "Not picked between yet";
  return tool + " " + std::to_string(v.a) + ", " + other + " " + std::to_string(v.b) +
         " (counted picks)";
}

std::string panel_said(const ShipTally &panel, double lower) {
  if (panel.total == 0) return "No panel reviews yet";
  return "At least " + std::to_string(static_cast<int>(std::floor(lower * 100 + 1e-9))) +
         "% ship (95% lower bound; " + std::to_string(panel.ships) + " of " +
         std::to_string(panel.total) + " reviews)";
}

} // namespace

std::string alternatives(const Views &views, const RankedAlternatives &ranked,
                         const SiteCopy &site) {
  const auto &t = ranked.tool;
  Data rows{list{}};
  for (const auto &row : ranked.ranked) {
    const auto &other = row.candidate.tool;
    Data item;
    item.set("tier", std::to_string(row.tier));
    item.set("slug", other.slug);
    item.set("name", other.name);
    item.set("tagline", other.tagline);
    item.set("entry", other.entry);
    item.set("readers", readers_said(row.strength));
    item.set("versus", versus_said(t.name, other.name, row.versus));
    item.set("panel", panel_said(other.panel, row.panel_lower));
    // The editor's head-to-head when there is one; else the two beside the ranking's leader
    // (the next one when this is the leader), three side by side.
    const auto *leader = &ranked.ranked.front().candidate.tool;
    if (leader->id == other.id && ranked.ranked.size() > 1)
      leader = &ranked.ranked[1].candidate.tool;
    if (row.candidate.compared || leader->id == other.id) {
      item.set("compare_path",
               "/compare/" + (row.candidate.tool_is_first ? pair_slug(t.slug, other.slug)
                                                          : pair_slug(other.slug, t.slug)));
      item.set("compare_label", (row.candidate.compared ? "Read the comparison of " : "Compare ") +
                                    t.name + " and " + other.name);
    } else {
      std::vector<std::string> three = {t.slug, other.slug, leader->slug};
      std::sort(three.begin(), three.end());
      item.set("compare_path", "/compare/" + joined_slugs(three));
      item.set("compare_label",
               "Compare " + t.name + ", " + other.name + " and " + leader->name + " side by side");
    }
    rows.push_back(item);
  }
  Data page;
  page.set("name", t.name);
  page.set("slug", t.slug);
  page.set("rows", rows);
  page.set("has_rows", bool_data(!ranked.ranked.empty()));
  page.set("own_strength", readers_said(ranked.strength));
  const auto path = "/tools/" + t.slug + "/alternatives";
  return views.page("alternatives", page,
                    {"Alternatives to " + t.name + " · " + site.site_name,
                     "The tools readers and the panel weigh against " + t.name +
                         ", ranked by readers' head-to-head picks.",
                     path},
                    site);
}

std::string side_by_side(const Views &views, const SideBySide &side, const SiteCopy &site) {
  Data tools{list{}};
  std::vector<std::string> names, slugs;
  for (const auto &t : side.tools) {
    auto item = tool_row(t);
    item.set("pricing_notes", t.pricing_notes);
    tools.push_back(item);
    names.push_back(t.name);
    slugs.push_back(t.slug);
  }
  Data pairs{list{}};
  for (const auto &pair : side.pairs) {
    // In the order the pair's own page names them (the editor's, when written up).
    const auto &a = side.tools[pair.a_is_first ? pair.a : pair.b];
    const auto &b = side.tools[pair.a_is_first ? pair.b : pair.a];
    const auto picks = pair.a_is_first ? pair.picks : PairTally{pair.picks.b, pair.picks.a, {}};
    Data item;
    item.set("title", title_of(a.name, b.name));
    item.set("path", "/compare/" + pair_slug(a.slug, b.slug));
    item.set("link_label", pair.published ? "Read the comparison" : "See the two side by side");
    item.set("picks", picks.a + picks.b == 0
                          ? std::string("No head-to-head picks yet")
                          : "Counted picks: " + a.name + " " + std::to_string(picks.a) + ", " +
                                b.name + " " + std::to_string(picks.b));
    const auto leads =
        lead_lines(a.name, b.name, PairNumbers{a.panel, b.panel, a.community, b.community, picks});
    item.set("panel_lead", leads.panel);
    item.set("readers_lead", leads.readers);
    pairs.push_back(item);
  }
  std::string title;
  for (size_t i = 0; i < names.size(); ++i)
    title += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  Data page;
  page.set("title", title);
  page.set("tools", tools);
  page.set("pairs", pairs);
  PageMeta meta{title + " side by side · " + site.site_name,
                "The panel's and readers' numbers and pricing of " + title +
                    ", with each pair's head-to-head picks.",
                "/compare/" + joined_slugs(slugs)};
  meta.noindex = true; // editors publish pairs; three or four tools are a reader's own view
  return views.page("side_by_side", page, meta, site);
}

} // namespace verdict::pages
