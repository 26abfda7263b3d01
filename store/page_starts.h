// Where the pages of a long list start, learnt as its pages are read, so a deep page is found
// from its first row's key in the list's index (O(log n)) instead of by skipping every row
// before it (LIMIT ... OFFSET steps over them one by one). A start is only good for the order
// it was read in: each list has a version in the database (table list_versions, schema v5),
// changed by triggers whenever a row joins or leaves the list or its key changes. A page reads
// the version in the same snapshot as its rows, and starts learnt under another version are
// never used. Internal to store/.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "domain/model.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

template <class Key> class PageStarts {
public:
  struct Start {
    int64_t position = 0; // rows of the list before this one
    Key key;              // the row's key columns
  };

  // The nearest learnt page start at or before `position` in the order at `version`.
  std::optional<Start> nearest(int64_t version, int64_t position) {
    std::lock_guard lock(mutex_);
    if (version != version_) return std::nullopt;
    auto after = starts_.upper_bound(position);
    if (after == starts_.begin()) return std::nullopt;
    --after;
    return Start{after->first, after->second};
  }

  // In the order at `version`, the row at `position` has `key`. Learning under a new version
  // forgets every start of the old one.
  void learn(int64_t version, int64_t position, Key key) {
    std::lock_guard lock(mutex_);
    if (version != version_ || starts_.size() >= kMaxStarts) starts_.clear();
    version_ = version;
    starts_.insert_or_assign(position, std::move(key));
  }

private:
  // Two million rows at 20 a page; past that the memo starts over.
  static constexpr size_t kMaxStarts = 100000;
  std::mutex mutex_; // pages are read on many threads at once
  int64_t version_ = 0;
  // By row position, not page number: the front page reads the same lists 10 rows a page.
  std::map<int64_t, Key> starts_;
};

// The version of list `list` in list_versions, read on the connection the page is read on.
int64_t list_version(sql::Db &db, const char *list);

// The rows of one page of a list (queries::paged's `read_rows`: at most `limit` rows from
// `position` on, one more than the page holds), read from the nearest learnt start:
// `from_start(key, limit, skip)` reads from the row at `key` on, skipping `skip` rows;
// `from_top(limit, offset)` reads the list from its first row. Must run inside a
// sql::ReadSnapshot that read `version`. Learns where this page starts and, from the extra row,
// the next one.
template <class Key, class FromStart, class FromTop, class KeyOf>
auto read_page(PageStarts<Key> &starts, int64_t version, int64_t limit, int64_t position,
               FromStart from_start, FromTop from_top, KeyOf key_of) {
  const auto start = starts.nearest(version, position);
  auto rows =
      start ? from_start(start->key, limit, position - start->position) : from_top(limit, position);
  const auto page_size = limit - 1; // the last row read is the next page's first
  if (!rows.empty()) starts.learn(version, position, key_of(rows.front()));
  if (rows.size() > static_cast<size_t>(page_size))
    starts.learn(version, position + page_size, key_of(rows.back()));
  return rows;
}

// The lists read through page starts, with each one's key.
struct Store::PageStartMemos {
  PageStarts<std::pair<std::string, std::string>> tools_by_name;     // (name, slug)
  PageStarts<std::pair<std::string, int64_t>> published_comparisons; // (published_on, id)
};

} // namespace verdict
