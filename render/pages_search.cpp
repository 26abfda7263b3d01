// The search page: its form, the hits (tools and the panel's quotes) with their matches
// marked, and the address of the page that shows each hit.
#include "render/pages.h"

#include "domain/counting.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
#include "domain/slugs.h"
#include "render/page_parts.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

namespace {

// The address of a search hit's page: a tool's, or the page of its tool showing the quote,
// at the quote (tool.mustache gives each quote an id).
std::string hit_link(const SearchHit &hit, int reviews_per_page) {
  const auto tool = "/tools/" + hit.tool_slug;
  if (hit.kind == SearchHit::Kind::tool) return tool;
  const auto page = static_cast<int>(hit.review_position / reviews_per_page) + 1;
  return page_path(tool, page) + "#review-" + hit.reviewer_slug;
}

Data search_item(const SearchHit &hit, int reviews_per_page) {
  const bool is_tool = hit.kind == SearchHit::Kind::tool;
  // A quote's result names its reviewer, lens and verdict as the quote does on a page.
  Data item = is_tool ? Data{}
                      : review_item({hit.tool_slug,
                                     hit.tool_name,
                                     hit.reviewer_slug,
                                     hit.reviewer_name,
                                     hit.reviewer_lens,
                                     hit.verdict,
                                     {}},
                                    "a");
  item.set("is_tool", bool_data(is_tool));
  item.set("is_review", bool_data(!is_tool));
  item.set("link", hit_link(hit, reviews_per_page));
  item.set("marked_excerpt", marked_html(hit.excerpt));
  if (is_tool) {
    item.set("marked_title", marked_html(hit.tool_name));
    item.set("marked_tagline", marked_html(hit.tagline));
    // Its figures as its page says them, the readers' with the votes set aside.
    item.set("panel", "Panel: " + panel_summary(hit.panel));
    item.set("community", "Readers: " + community_summary(hit.community, hit.community_set_aside));
  }
  return item;
}

} // namespace

std::string marked_html(std::string_view marked) {
  std::string html;
  html.reserve(marked.size());
  bool in_mark = false;
  for (const char c : marked) {
    switch (c) {
    case kMatchStart:
      if (!in_mark) html += "<mark>";
      in_mark = true;
      break;
    case kMatchEnd:
      if (in_mark) html += "</mark>";
      in_mark = false;
      break;
    case '&':
      html += "&amp;";
      break;
    case '<':
      html += "&lt;";
      break;
    case '>':
      html += "&gt;";
      break;
    case '"':
      html += "&quot;";
      break;
    case '\'':
      html += "&apos;";
      break;
    default:
      html += c;
    }
  }
  if (in_mark) html += "</mark>";
  return html;
}

namespace {
// A comparison the search offers, with who leads it.
Data comparison_item(const ComparisonHit &hit) {
  Data item;
  item.set("link", "/compare/" + pair_slug(hit.a.slug, hit.b.slug));
  item.set("title", hit.a_name + " vs " + hit.b_name);
  const auto leads = lead_lines(hit.a_name, hit.b_name, hit.numbers);
  item.set("panel_lead", leads.panel);
  item.set("readers_lead", leads.readers);
  item.set("published", bool_data(hit.published));
  // The head-to-head picks as its page counts them: cast, and set aside with why.
  const auto &picks = hit.numbers.picks;
  const auto picked = picks.a + picks.b;
  if (picked > 0 || picks.set_aside.total() > 0)
    item.set("picks_line", "Head-to-head: " + count_phrase(picked, "pick", "picks") + " counted" +
                               with_set_aside(picks.set_aside, picked));
  return item;
}
} // namespace

std::string search(const Views &views, const std::string &query, SearchAs as,
                   const SearchResults &results, const SiteCopy &site, int reviews_per_page) {
  const auto &hits = results.hits;
  const auto path = query.empty() ? std::string("/search")
                                  : "/search?q=" + query_value(query) +
                                        (as == SearchAs::typed ? "&as=typed" : "");
  Data page;
  page.set("query", query);
  page.set("no_query", bool_data(query.empty()));
  page.set("no_results",
           bool_data(!query.empty() && results.total == 0 && results.comparisons.empty()));
  Data comparisons{list{}};
  for (const auto &hit : results.comparisons)
    comparisons.push_back(comparison_item(hit));
  page.set("comparisons", comparisons);
  page.set("has_comparisons", bool_data(!results.comparisons.empty()));
  const auto searched = results.searched_for.empty() ? query : results.searched_for;
  if (!results.searched_for.empty()) {
    page.set("searched_for", results.searched_for);
    page.set("as_typed_link", "/search?q=" + query_value(query) + "&as=typed");
  }
  if (results.more_found)
    page.set("count", "More than a thousand results for “" + searched +
                          "”: the first thousand are listed, and more words find fewer");
  else if (results.total > 0)
    page.set("count", count_phrase(results.total, "result", "results") + " for “" + searched + "”");
  Data items{list{}};
  for (const auto &hit : hits.items)
    items.push_back(search_item(hit, reviews_per_page));
  page.set("results", items);
  page.set("has_results", bool_data(!hits.items.empty()));
  page.set("pagination", pagination(views, path, hits.number, hits.has_next));
  const auto title = query.empty() ? std::string("Search") : "Search: " + query;
  PageMeta meta{title + page_suffix(hits.number) + " · " + site.site_name,
                "Search the tools and the panel's reviews.", page_path(path, hits.number)};
  // Not noindex: result pages are reached only through the search form, which crawlers do not
  // submit, so no crawler meets them unless someone links one, and then it is worth listing.
  return views.page("search", page, meta, site);
}

} // namespace verdict::pages
