// What the page guards (middleware/page_guards.cpp) and the voters' answers
// (middleware/voter_answers.cpp) share: how a page may be cached, conditional GETs, and a
// voter's own page. Only the guards' files include it; routes use middleware/guards.h.
#pragma once

#include <httplib.h>

#include <string>

#include "middleware/app.h"
#include "middleware/page_cache.h"

namespace verdict::guards {

// What the answer to a reader without a cookie may be kept as, and a voter's page. A browser
// asks again each time (its ETag makes that a 304 when nothing changed), so a publish, an
// unpublish or a correction reaches a reader on their next page; a shared cache (nginx in
// front, deploy/) may keep it 30 s and serves while it fetches anew (proxy_cache_use_stale).
inline constexpr const char *kAnonymousCaching = "public, max-age=0, must-revalidate, s-maxage=30";
inline constexpr const char *kPersonalCaching = "private, no-cache";

// Gives the answer in `res` the ETag of the representation this request gets (the body's
// `identity_etag` in its coding), and makes it a 304 when any If-None-Match names that one.
void answer_not_modified_if_matching(const httplib::Request &req, httplib::Response &res,
                                     const std::string &identity_etag);

// A voter's page, private: the shared page with their own votes in its voter places.
void send_own_page(App &app, const httplib::Request &req, httplib::Response &res,
                   const std::string &voter, const CachedPage &shared);

} // namespace verdict::guards
