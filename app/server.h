// Running the site: opens (or creates) the database, installs the routes, sizes the server
// and serves until SIGINT or SIGTERM, finishing in-flight requests before closing cleanly.
#pragma once

#include <httplib.h>

#include "app/options.h"
#include "store/store.h"

namespace verdict {

// Creates the database from the bundled content when `path` does not exist yet; an existing
// database is opened (and upgraded) as it is, never overwritten.
std::unique_ptr<Store> open_site_database(const std::string &path);

// Applies Verdict's connection limits and timeouts to `server`.
void configure_server(httplib::Server &server, int threads);

int serve(const Options &options);

} // namespace verdict
