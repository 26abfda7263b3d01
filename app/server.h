// Running the site: opens (or creates) the database, installs the routes, sizes the server
// and serves until SIGINT or SIGTERM, finishing in-flight requests before closing cleanly.
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
                                          StartingContent starting = StartingContent::examples);

// Makes requests the transport refuses answer with a page of the site, and sets httplib's own
// body limit behind the transport's.
void configure_server(transport::ConnectionServer &server, App &app);
// The transport's limits with `threads` workers, the connection bound kept below the process's
// descriptor limit.
transport::TransportLimits transport_limits(int threads, const std::string &trusted_proxy = "");

int serve(const Options &options);

} // namespace verdict
