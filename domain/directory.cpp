#include "domain/directory.h"

#include <algorithm>
#include <tuple>

#include "domain/content.h"
#include "domain/numbers.h"
#include "domain/slugs.h"

namespace verdict {

namespace {

struct SortName {
  DirectoryQuery::Sort sort;
  const char *name;
};
constexpr SortName kSorts[] = {{DirectoryQuery::Sort::name, "name"},
                               {DirectoryQuery::Sort::panel, "panel"},
                               {DirectoryQuery::Sort::readers, "readers"},
                               {DirectoryQuery::Sort::newest, "newest"}};

} // namespace

const char *sort_name(DirectoryQuery::Sort sort) {
  for (const auto &known : kSorts)
    if (known.sort == sort) return known.name;
  return "name";
}

std::optional<DirectoryQuery> directory_query(const std::string &sort, const std::string &category,
                                              const std::string &pricing, std::string &problem) {
  DirectoryQuery query;
  if (!sort.empty()) {
    const auto known = std::find_if(std::begin(kSorts), std::end(kSorts),
                                    [&](const SortName &s) { return sort == s.name; });
    if (known == std::end(kSorts)) {
      problem = "sort must be one of name, panel, readers or newest";
      return std::nullopt;
    }
    query.sort = known->sort;
  }
  if (!category.empty() && !is_valid_slug(category)) {
    problem = "category must be a category's address, as in /categories/…";
    return std::nullopt;
  }
  query.category = category;
  if (!pricing.empty() &&
      std::find(kEntryKinds.begin(), kEntryKinds.end(), pricing) == kEntryKinds.end()) {
    problem = "pricing must be one of Free, Paid, Freemium or Open weights";
    return std::nullopt;
  }
  query.pricing = pricing;
  return query;
}

void order_directory(std::vector<DirectoryEntry> &entries, DirectoryQuery::Sort sort) {
  using Sort = DirectoryQuery::Sort;
  const auto lower = [](const ShipTally &t) { return wilson_lower_bound(t.ships, t.total); };
  const auto by_name = [](const DirectoryEntry &x, const DirectoryEntry &y) {
    return std::tie(x.name, x.slug) < std::tie(y.name, y.slug);
  };
  // The bound is computed once per tool, not once per comparison.
  std::vector<std::pair<double, size_t>> keys;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto &e = entries[i];
    const double key = sort == Sort::panel     ? lower(e.panel)
                       : sort == Sort::readers ? lower(e.readers)
                       : sort == Sort::newest  ? static_cast<double>(e.id)
                                               : 0.0;
    keys.emplace_back(key, i);
  }
  std::stable_sort(keys.begin(), keys.end(), [&](const auto &x, const auto &y) {
    if (x.first != y.first) return x.first > y.first;
    return by_name(entries[x.second], entries[y.second]);
  });
  std::vector<DirectoryEntry> ordered;
  ordered.reserve(entries.size());
  for (const auto &[key, index] : keys)
    ordered.push_back(std::move(entries[index]));
  entries = std::move(ordered);
}

} // namespace verdict
