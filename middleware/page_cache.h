// Rendered pages for visitors without cookies, who all see identical bytes. An entry is valid
// while the page epoch (below) is the one it was rendered under. Keyed by path and a list's
// page number alone (only pages that exist are kept), so other query strings cannot multiply
// it, and bounded in bytes: when a new page would pass the bound the cache starts over
// (base/bounded_cache.h: every entry can be rendered again; none is precious).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/bounded_cache.h"
#include "base/text_hash.h"
#include "render/pages.h"
#include "transport/written_head.h"

namespace verdict {

// Which version of the site visitors without cookies are shown. It moves when a write is
// committed or the period `today` names changes (the App's: the date and the hour, so the
// vote forms' tokens are renewed), but at most once per `max_lag`: under a steady stream of
// votes every page would otherwise be rendered again for each vote, so instead an anonymous
// reader's tallies are at most `max_lag` old. A voter's own pages are rendered for them and
// never lag. With a lag of zero every change is shown at once.
class PageEpoch {
public:
  PageEpoch(std::function<uint64_t()> write_generation, std::function<std::string()> today,
            std::chrono::milliseconds max_lag);

  uint64_t current();
  std::chrono::nanoseconds max_lag() const { return std::chrono::nanoseconds(max_lag_ns_.load()); }
  // From now on; the next change shows at once.
  void set_max_lag(std::chrono::milliseconds max_lag);
  // Shows every change committed so far at once, lag or not: for an editor's save, which
  // every reader must see on their next page. Votes after it wait out the lag as before.
  void show_now();

private:
  std::function<uint64_t()> write_generation_;
  std::function<std::string()> today_;
  std::atomic<int64_t> max_lag_ns_;

  std::atomic<uint64_t> epoch_{0};
  std::atomic<uint64_t> shown_generation_;
  std::atomic<int64_t> frozen_until_ns_{0}; // a change was shown less than max_lag ago
  std::atomic<int64_t> next_day_check_ns_{0};
  std::mutex mutex_; // for moving the epoch
  std::string shown_day_;
};

// Voters who wrote within the last `window`. Their own pages are rendered afresh, so the vote
// they just cast is counted on the page they come back to, while the shared page may still be
// up to the page epoch's lag behind. Bounded: past `kMaxVoters` the oldest are forgotten (a
// forgotten voter sees tallies at most one lag old, nothing worse).
class RecentWriters {
public:
  void note(const std::string &voter);
  bool wrote_within(const std::string &voter, std::chrono::nanoseconds window) const;
  static constexpr size_t kMaxVoters = 100000;

private:
  // Asked on every voter's page by every reactor: when nobody wrote within the window the
  // answer needs no lock, and lookups share theirs.
  std::atomic<int64_t> last_note_ns_{0};
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> last_write_;
};

// What each voter who has asked for a page is shown in its voter places (which rendering of
// each), kept on the page so that a voter who comes back to it costs no database read: a
// reactor that waits on SQLite's locks keeps every connection it owns waiting. It lives and
// dies with the page, so a change of a voter's votes shows once the page epoch moves past it,
// and a voter who has just voted is rendered afresh until then (RecentWriters).
class ShownToVoters {
public:
  std::optional<std::vector<size_t>> find(std::string_view voter) const;
  void keep(std::string_view voter, const std::vector<size_t> &shown) const;
  ~ShownToVoters();

  // Voters kept per page, and on all pages alive together (about 150 bytes each: 10 MB at
  // most). Past them a voter's votes are read from the database each time they ask.
  static constexpr size_t kMaxPerPage = 4096;
  static constexpr size_t kMaxOverall = 65536;
  static size_t kept_overall(); // tests' check of the bound

private:
  mutable std::shared_mutex mutex_;
  mutable std::unordered_map<std::string, std::vector<size_t>, TextHash, std::equal_to<>> shown_;
};

struct CachedPage {
  int status = 200;
  std::string body;
  std::string etag;
  std::string content_type;
  // For a page that shows a reader's own votes: the same page with those places cut out.
  std::shared_ptr<const pages::PersonalPage> personal;
  // The head of a voter's answer for this page, made for the first voter who asks: every
  // voter's head differs only in its length and ETag.
  mutable std::once_flag voter_head_made;
  mutable transport::HeadAround voter_head;
  ShownToVoters shown_to_voters;
};

class PageCache {
public:
  std::shared_ptr<const CachedPage> find(std::string_view key, uint64_t epoch) const;
  // The page last kept for `key`, under whatever epoch: what a reader is shown when the
  // database cannot be read now.
  std::shared_ptr<const CachedPage> last_kept(std::string_view key) const;
  void put(std::string key, uint64_t epoch, std::shared_ptr<const CachedPage> page);

  // 32 MiB: every page of a site of thousands of tools, a small part of a server's memory.
  static constexpr size_t kMaxBytes = 32u << 20;
  size_t bytes() const {
    std::shared_lock lock(mutex_);
    return entries_.bytes();
  }

private:
  struct Entry {
    uint64_t epoch;
    std::shared_ptr<const CachedPage> page;
  };
  // Finds share the lock; a put takes it alone.
  mutable std::shared_mutex mutex_;
  BoundedCache<Entry> entries_{kMaxBytes}; // weighed by key and body
};

// A strong validator for `body`: FNV-1a, hex, quoted.
std::string etag_of(std::string_view body);

} // namespace verdict
