// One value made from the file and kept until a list's version in the file moves
// (list_versions, store/page_starts.h): every tool's slug, every tool's name for search. The
// version is read in the same read transaction as the rows the value is made from, so the
// value kept is always the one of the version kept with it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

namespace verdict {

template <class T> class KeptByVersion {
public:
  // The value kept for `version`, or `make()` made now and kept for it.
  template <class Make> std::shared_ptr<const T> at(int64_t version, Make &&make) {
    {
      std::lock_guard lock(mutex_);
      if (kept_ && version_ == version) return kept_;
    }
    auto made = std::make_shared<const T>(make());
    std::lock_guard lock(mutex_);
    kept_ = made;
    version_ = version;
    return made;
  }

private:
  std::mutex mutex_;
  std::shared_ptr<const T> kept_;
  int64_t version_ = 0;
};

} // namespace verdict
