// How long, and by whom, an answer may be kept: every Cache-Control header the site sends is
// one of these policies, written by `set_cache_policy` (or, for the transport's own refusals
// written as raw bytes, `cache_control_of`). A new kind of answer picks one here; a new policy
// is a new line below with the reason it exists.
#pragma once

#include <httplib.h>

#include <string_view>

namespace verdict {

enum class CachePolicy {
  // "no-store": never kept anywhere. Errors and refusals, a write's redirect, the desk, the
  // newsletter's pages (they carry tokens), /healthz and /metrics: each is about this request
  // or this moment alone.
  never_kept,
  // "no-cache": kept, but asked again every time (its ETag makes that a 304): robots.txt, the
  // sitemap, and the pages with absolute addresses (the feeds) on a site with no base URL set,
  // whose bytes depend on the address each request was sent to.
  revalidated,
  // "public, no-cache": the same, and a shared cache may keep it too: the API's answers that
  // depend on their whole query (the vote log's entries and proofs).
  shared_revalidated,
  // "public, max-age=0, must-revalidate, s-maxage=30": a page as a reader without cookies gets
  // it. A browser asks again each time, so a publish or a correction reaches a reader on their
  // next page; a shared cache (nginx in front, deploy/) may keep it 30 s and serves while it
  // fetches anew (proxy_cache_use_stale).
  anonymous_page,
  // "private, no-cache": a voter's own page (their votes in it): their browser alone keeps it,
  // and asks again each time.
  personal_page,
  // "public, max-age=31536000, immutable": an address whose bytes never change (the assets,
  // named by their hash; a full page of the vote log, a proof between sealed sizes).
  immutable,
  // "public, max-age=86400": a permanent redirect (an old address of a renamed page), kept a
  // day so a reader's browser learns it without being stuck with it for good.
  moved_for_a_day,
};

// The header's value for `policy`.
std::string_view cache_control_of(CachePolicy policy);
// Sets the answer's one Cache-Control header to `policy`'s, replacing any set before.
void set_cache_policy(httplib::Response &res, CachePolicy policy);

} // namespace verdict
