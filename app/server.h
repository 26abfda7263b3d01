// Running the site: opens the database (the demo's made when asked), installs the routes, sizes the
// server and serves until SIGINT or SIGTERM, finishing in-flight requests before closing cleanly.
#pragma once

#include <httplib.h>

#include "app/options.h"
#include "middleware/app.h"
#include "store/store.h"
#include "transport/connection_server.h"

namespace verdict {

// What a new site starts with: the bundled example comparisons, tools and reviewers, or none
// (the site's name and copy only: `verdict init --empty`).
enum class StartingContent { examples, none };

// Creates the database from the bundled content when `path` does not exist yet; an existing
// database is opened (and upgraded) as it is, never overwritten.
std::unique_ptr<Store> open_site_database(const std::string &path,
                                          StartingContent starting = StartingContent::examples,
                                          const Clock &clock = Clock());

// Why `serve` makes no site at options.db, or empty when it may go on: the file is there, or
// it is missing, nothing of a site is beside it and --demo asked for the bundled demo. A site
// is otherwise made only by `verdict init`, so a file deleted or moved is noticed, never
// replaced silently by a new one.
std::string why_no_site_is_made(const Options &options);

// Makes requests the transport refuses answer with a page of the site, and sets httplib's own
// body limit behind the transport's.
void configure_server(transport::ConnectionServer &server, App &app);
// The transport's limits with `threads` workers, the connection bound kept below the process's
// descriptor limit.
transport::TransportLimits transport_limits(int threads, const std::string &trusted_proxy = "");

int serve(const Options &options);

} // namespace verdict
