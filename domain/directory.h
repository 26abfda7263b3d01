// The tools directory's order and filters (/tools?sort=…&category=…&pricing=…): what a reader
// may ask for, read from the address and written back into it, and the order itself. Pure.
//
//   sort=name     by name (the default)
//   sort=panel    by the panel's ship rate's 95% Wilson lower bound, highest first
//   sort=readers  by the readers' counted ship votes' lower bound, highest first
//   sort=newest   the tools added last first
// Ties go by name, then slug. A lower bound, not the share: 1 of 1 never outranks 90 of 100.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/model.h"

namespace verdict {

struct DirectoryQuery {
  enum class Sort { name, panel, readers, newest };
  Sort sort = Sort::name;
  std::string category; // a category's slug, or empty for every category
  std::string pricing;  // one of kEntryKinds, or empty for every pricing model
  bool is_default() const { return sort == Sort::name && category.empty() && pricing.empty(); }
};

// Reads the address's values (each empty when absent). A value that is none of the allowed
// ones gives nullopt and says why in `problem`.
std::optional<DirectoryQuery> directory_query(const std::string &sort, const std::string &category,
                                              const std::string &pricing, std::string &problem);
// "panel" for Sort::panel: the value `sort=` takes in the address.
const char *sort_name(DirectoryQuery::Sort sort);
// The address's fields, as directory_query reads them and the page cache keys the page by.
inline constexpr const char *kDirectoryFields[] = {"sort", "category", "pricing"};

// One tool as the directory orders it.
struct DirectoryEntry {
  int64_t id = 0;
  std::string name, slug;
  ShipTally panel, readers;
};
// Puts `entries` in the query's order.
void order_directory(std::vector<DirectoryEntry> &entries, DirectoryQuery::Sort sort);

} // namespace verdict
