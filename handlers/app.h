// What every handler is given: the store, the parsed views, and the cache of pages rendered
// for visitors without cookies.
#pragma once

#include <functional>
#include <string>

#include "handlers/page_cache.h"
#include "render/views.h"
#include "store/store.h"

namespace verdict {

struct App {
  Store &store;
  const Views &views;
  PageCache cache;
  // Today's date (UTC, YYYY-MM-DD); replaceable so tests can pin staleness.
  std::function<std::string()> today;

  App(Store &store_, const Views &views_);
};

} // namespace verdict
