// Running the site: opens (or creates) the database, installs the routes, sizes the server
// and serves until SIGINT or SIGTERM, finishing in-flight requests before closing cleanly.
#pragma once

#include <httplib.h>

#include "app/options.h"
#include "handlers/app.h"
#include "store/store.h"
#include "transport/connection_server.h"

namespace verdict {

// Creates the database from the bundled content when `path` does not exist yet; an existing
// database is opened (and upgraded) as it is, never overwritten.
std::unique_ptr<Store> open_site_database(const std::string &path);

// Applies Verdict's limits to `server` and makes refused requests answer with a page of the
// site. `threads` is the number of workers that run handlers.
void configure_server(transport::ConnectionServer &server, App &app);
transport::TransportLimits transport_limits(int threads);

int serve(const Options &options);

} // namespace verdict
