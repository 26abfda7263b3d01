// What the page guards (middleware/page_guards.cpp) and the voters' answers
// (middleware/voter_answers.cpp) share: how a page may be cached, conditional GETs, and a
// voter's own page. Only the guards' files include it; routes use middleware/guards.h.
#pragma once

#include <httplib.h>

#include <string>

#include "middleware/app.h"
#include "middleware/page_cache.h"

namespace verdict::guards {

// Gives the answer in `res` the ETag of the representation this request gets (the body's
// `identity_etag` in its coding), and makes it a 304 when any If-None-Match names that one.
void answer_not_modified_if_matching(const httplib::Request &req, httplib::Response &res,
                                     const std::string &identity_etag);

// A voter's page, private: the shared page with their own votes in its voter places.
void send_own_page(StoreReads &site, const httplib::Request &req, httplib::Response &res,
                   const std::string &voter, const CachedPage &shared);

} // namespace verdict::guards
