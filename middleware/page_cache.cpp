#include "middleware/page_cache.h"

#include "domain/content_hash.h"

namespace verdict {

namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

PageEpoch::PageEpoch(std::function<uint64_t()> write_generation, std::function<std::string()> today,
                     std::chrono::milliseconds max_lag)
    : write_generation_(std::move(write_generation)), today_(std::move(today)),
      max_lag_ns_(max_lag.count() * 1000000), shown_generation_(write_generation_()) {}

void PageEpoch::set_max_lag(std::chrono::milliseconds max_lag) {
  std::lock_guard lock(mutex_);
  max_lag_ns_ = max_lag.count() * 1000000;
  frozen_until_ns_ = 0;
  next_day_check_ns_ = 0;
}

uint64_t PageEpoch::current() {
  // Called for every anonymous page, so the usual answers take no lock: nothing has changed,
  // or a change was shown too recently to show the next one yet.
  const auto now = steady_ns();
  if (now < frozen_until_ns_.load(std::memory_order_acquire))
    return epoch_.load(std::memory_order_acquire);
  const auto generation = write_generation_();
  if (generation == shown_generation_.load(std::memory_order_acquire) &&
      now < next_day_check_ns_.load(std::memory_order_acquire))
    return epoch_.load(std::memory_order_acquire);

  std::lock_guard lock(mutex_);
  const auto lag = max_lag_ns_.load();
  auto day = today_(); // at most once per max_lag while nothing else changes
  next_day_check_ns_.store(now + lag, std::memory_order_release);
  if (generation != shown_generation_.load() || day != shown_day_) {
    shown_day_ = std::move(day);
    shown_generation_.store(generation, std::memory_order_release);
    epoch_.fetch_add(1, std::memory_order_acq_rel);
    frozen_until_ns_.store(now + lag, std::memory_order_release);
  }
  return epoch_.load(std::memory_order_acquire);
}

void PageEpoch::show_now() {
  std::lock_guard lock(mutex_);
  const auto now = steady_ns();
  shown_generation_.store(write_generation_(), std::memory_order_release);
  epoch_.fetch_add(1, std::memory_order_acq_rel);
  frozen_until_ns_.store(now + max_lag_ns_.load(), std::memory_order_release);
}

void RecentWriters::note(const std::string &voter) {
  const auto now = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  last_note_ns_.store(now.time_since_epoch().count(), std::memory_order_release);
  if (last_write_.size() >= kMaxVoters) {
    // Votes are seconds apart per voter: whoever wrote more than a minute ago is done.
    for (auto it = last_write_.begin(); it != last_write_.end();)
      it = now - it->second > std::chrono::minutes(1) ? last_write_.erase(it) : std::next(it);
    if (last_write_.size() >= kMaxVoters) last_write_.clear();
  }
  last_write_[voter] = now;
}

bool RecentWriters::wrote_within(const std::string &voter, std::chrono::nanoseconds window) const {
  if (window.count() == 0) return false;
  const auto now = std::chrono::steady_clock::now();
  const auto quiet_for = std::chrono::nanoseconds(now.time_since_epoch().count() -
                                                  last_note_ns_.load(std::memory_order_acquire));
  if (quiet_for >= window) return false;
  std::shared_lock lock(mutex_);
  const auto it = last_write_.find(voter);
  return it != last_write_.end() && now - it->second < window;
}

std::optional<std::vector<size_t>> ShownToVoters::find(std::string_view voter) const {
  std::shared_lock lock(mutex_);
  const auto it = shown_.find(voter);
  if (it == shown_.end()) return std::nullopt;
  return it->second;
}

namespace {
// Voters kept by every page alive in this process (a bound on memory, not on correctness:
// a voter not kept is read from the database).
std::atomic<size_t> voters_kept_overall{0};
} // namespace

void ShownToVoters::keep(std::string_view voter, const std::vector<size_t> &shown) const {
  std::unique_lock lock(mutex_);
  if (shown_.size() >= kMaxPerPage) return;
  if (voters_kept_overall.fetch_add(1) >= kMaxOverall) {
    voters_kept_overall.fetch_sub(1);
    return;
  }
  if (!shown_.emplace(voter, shown).second) voters_kept_overall.fetch_sub(1);
}

ShownToVoters::~ShownToVoters() {
  voters_kept_overall.fetch_sub(shown_.size());
}

size_t ShownToVoters::kept_overall() {
  return voters_kept_overall.load();
}

std::shared_ptr<const CachedPage> PageCache::find(std::string_view key, uint64_t epoch) const {
  std::shared_lock lock(mutex_);
  const auto *entry = entries_.find(key);
  if (!entry || entry->epoch != epoch) return nullptr;
  return entry->page;
}

std::shared_ptr<const CachedPage> PageCache::last_kept(std::string_view key) const {
  std::shared_lock lock(mutex_);
  const auto *entry = entries_.find(key);
  return entry ? entry->page : nullptr;
}

void PageCache::put(std::string key, uint64_t epoch, std::shared_ptr<const CachedPage> page) {
  const auto body_bytes = page->body.size();
  std::unique_lock lock(mutex_);
  entries_.put(std::move(key), {epoch, std::move(page)}, body_bytes);
}

std::string etag_of(std::string_view body) {
  return "\"" + content_hash(body) + "\"";
}

} // namespace verdict
