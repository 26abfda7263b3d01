// The pages that list things, a page at a time: the front page (the first page of each list),
// tools, comparisons, categories, the reviewer panel and one reviewer's reviews; and the links
// between a list's pages.
#include "render/pages.h"

#include "domain/content.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
#include "render/feeds.h"
#include "render/page_parts.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

namespace {

std::string ship_rate_text(const Reviewer &r) {
  return share_phrase(kReviewerShipRate, r.verdicts.ships, r.verdicts.total);
}

std::string ship_rate_reading(const Reviewer &r) {
  return interval_reading(r.verdicts.ships, r.verdicts.total, ship_rate_share_of(r));
}

std::string reviewer_list(const Views &views, const std::vector<Reviewer> &reviewers) {
  Data items{list{}};
  std::vector<std::string> readings;
  for (const auto &r : reviewers) {
    Data item;
    item.set("slug", r.slug);
    item.set("name", r.name);
    item.set("lens", r.lens);
    item.set("ship_rate", ship_rate_text(r));
    items.push_back(item);
    readings.push_back(ship_rate_reading(r));
  }
  Data data;
  data.set("reviewers", items);
  data.set("readings", interval_readings(views, readings));
  return views.fragment("reviewer_list", data);
}

} // namespace

std::string pagination(const Views &views, const std::string &path, int number, bool has_next) {
  if (number == 1 && !has_next) return {};
  Data data;
  data.set("page", "Page " + std::to_string(number));
  if (number > 1) data.set("prev", page_path(path, number - 1));
  if (has_next) data.set("next", page_path(path, number + 1));
  return views.fragment("pagination", data);
}

std::string home(const Views &views, const HomeData &data) {
  Data page;
  page.set("eyebrow", data.site.comparison_eyebrow);
  page.set("site_name", data.site.site_name);
  page.set("site_tagline", data.site.site_tagline);
  page.set("comparison_list", comparison_list(views, data.comparisons.items));
  page.set("more_comparisons", bool_data(data.comparisons.has_next));
  // A new site with nothing in it yet (`verdict init --empty`) says so, in place of empty
  // lists; each list shows once it has something.
  page.set("has_comparisons", bool_data(!data.comparisons.items.empty()));
  page.set("has_tools", bool_data(!data.tools.items.empty()));
  page.set("has_reviewers", bool_data(!data.reviewers.items.empty()));
  page.set("nothing_yet", bool_data(data.comparisons.items.empty() && data.tools.items.empty()));
  page.set("tool_table", tool_table(views, data.tools.items));
  page.set("more_tools", bool_data(data.tools.has_next));
  page.set("reviewer_list", reviewer_list(views, data.reviewers.items));
  page.set("more_reviewers", bool_data(data.reviewers.has_next));
  page.set("newsletter", newsletter(views, data.site));
  return views.page("home", page,
                    {data.site.site_name + " — AI tool comparisons", data.site.site_tagline, "/",
                     false, "", std::string(feeds::kSitePath), feeds::site_title(data.site)},
                    data.site);
}

std::string tools(const Views &views, const Paged<Tool> &tools, const DirectoryQuery &query,
                  const std::vector<CategoryListing> &categories, const SiteCopy &site) {
  // "/tools?sort=panel&category=developer-tools&pricing=Open%20weights", without the defaults:
  // the one spelling of a choice in every link and page address.
  const auto with = [](const DirectoryQuery &q) {
    std::string path = "/tools";
    const auto add = [&](const char *key, const std::string &value) {
      path += (path.find('?') == std::string::npos ? "?" : "&") + std::string(key) + "=" +
              query_value(value);
    };
    if (q.sort != DirectoryQuery::Sort::name) add("sort", sort_name(q.sort));
    if (!q.category.empty()) add("category", q.category);
    if (!q.pricing.empty()) add("pricing", q.pricing);
    return path;
  };
  Data page;
  page.set("tool_table", tool_table(views, tools.items));
  page.set("has_tools", bool_data(!tools.items.empty()));
  // The orders as plain links, the filters kept; the one in use is said, not linked.
  Data sorts{list{}};
  for (const auto sort : {DirectoryQuery::Sort::name, DirectoryQuery::Sort::panel,
                          DirectoryQuery::Sort::readers, DirectoryQuery::Sort::newest}) {
    auto other = query;
    other.sort = sort;
    Data item;
    item.set("label", sort == DirectoryQuery::Sort::name      ? "Name"
                      : sort == DirectoryQuery::Sort::panel   ? "Panel (lower bound)"
                      : sort == DirectoryQuery::Sort::readers ? "Readers (lower bound)"
                                                              : "Newest");
    item.set("path", with(other));
    item.set("current", bool_data(sort == query.sort));
    sorts.push_back(item);
  }
  page.set("sorts", sorts);
  page.set("sort", sort_name(query.sort));
  Data category_options{list{}};
  for (const auto &listing : categories) {
    Data option;
    option.set("slug", listing.category.slug);
    option.set("name", listing.category.name);
    option.set("selected", bool_data(listing.category.slug == query.category));
    category_options.push_back(option);
  }
  page.set("categories", category_options);
  Data pricing_options{list{}};
  for (const auto &kind : kEntryKinds) {
    Data option;
    option.set("name", kind);
    option.set("selected", bool_data(kind == query.pricing));
    pricing_options.push_back(option);
  }
  page.set("pricings", pricing_options);
  const auto path = with(query);
  page.set("pagination", pagination(views, path, tools.number, tools.has_next));
  return views.page("tools", page,
                    {"Tools" + page_suffix(tools.number) + " · " + site.site_name,
                     "Every AI tool the panel has reviewed.", page_path(path, tools.number)},
                    site);
}

std::string comparisons(const Views &views, const Paged<ComparisonSummary> &comparisons,
                        const SiteCopy &site) {
  Data page;
  page.set("comparison_list", comparison_list(views, comparisons.items));
  page.set("pagination",
           pagination(views, "/comparisons", comparisons.number, comparisons.has_next));
  return views.page("comparisons", page,
                    {"Comparisons" + page_suffix(comparisons.number) + " · " + site.site_name,
                     "Every published AI tool comparison, newest first.",
                     page_path("/comparisons", comparisons.number)},
                    site);
}

std::string reviewer(const Views &views, const Reviewer &r, const Paged<Review> &reviews,
                     const SiteCopy &site) {
  Data page;
  page.set("name", r.name);
  page.set("lens", r.lens);
  page.set("bio", r.bio);
  page.set("ship_rate", ship_rate_text(r));
  page.set("readings", interval_readings(views, {ship_rate_reading(r)}));
  Data items{list{}};
  for (const auto &review : reviews.items)
    items.push_back(review_item(review, "a"));
  page.set("reviews", items);
  const auto path = "/reviewers/" + r.slug;
  page.set("pagination", pagination(views, path, reviews.number, reviews.has_next));
  return views.page("reviewer", page,
                    {r.name + ", " + r.lens + page_suffix(reviews.number) + " · " + site.site_name,
                     r.bio, page_path(path, reviews.number), false, "",
                     feeds::reviewer_path(r.slug), feeds::reviewer_title(r, site)},
                    site);
}

std::string reviewers(const Views &views, const Paged<Reviewer> &reviewers, const SiteCopy &site) {
  Data page;
  page.set("reviewer_list", reviewer_list(views, reviewers.items));
  page.set("pagination", pagination(views, "/reviewers", reviewers.number, reviewers.has_next));
  return views.page("reviewers", page,
                    {"The reviewer panel" + page_suffix(reviewers.number) + " · " + site.site_name,
                     "The editorial personas behind every panel verdict.",
                     page_path("/reviewers", reviewers.number)},
                    site);
}

std::string categories(const Views &views, const std::vector<CategoryListing> &categories,
                       const SiteCopy &site) {
  Data page;
  Data items{list{}};
  for (const auto &listing : categories) {
    Data item;
    item.set("slug", listing.category.slug);
    item.set("name", listing.category.name);
    item.set("count", std::to_string(listing.tools) + (listing.tools == 1 ? " tool" : " tools"));
    items.push_back(item);
  }
  page.set("categories", items);
  page.set("has_categories", bool_data(!categories.empty()));
  return views.page(
      "categories", page,
      {"Categories · " + site.site_name, "Every kind of AI tool the panel reviews.", "/categories"},
      site);
}

std::string category(const Views &views, const CategoryListing &listing, const Paged<Tool> &tools,
                     const std::vector<ComparisonSummary> &comparisons, const SiteCopy &site) {
  const auto &category = listing.category;
  const auto path = "/categories/" + category.slug;
  Data page;
  page.set("name", category.name);
  page.set("has_comparisons", bool_data(!comparisons.empty()));
  page.set("comparison_list", comparison_list(views, comparisons));
  page.set("count", std::to_string(listing.tools) + (listing.tools == 1 ? " tool" : " tools"));
  page.set("has_tools", bool_data(!tools.items.empty()));
  page.set("tool_table", tool_table(views, tools.items));
  page.set("pagination", pagination(views, path, tools.number, tools.has_next));
  return views.page("category", page,
                    {category.name + page_suffix(tools.number) + " · " + site.site_name,
                     category.name + ": every tool in it, with the panel's and the community's "
                                     "numbers.",
                     page_path(path, tools.number)},
                    site);
}

} // namespace verdict::pages
