#pragma once

#include "middleware/app.h"
#include "transport/connection_server.h"

namespace verdict {

// Installs every route of the site, the error pages and the headers every response carries.
void install_routes(transport::ConnectionServer &server, App &app);

} // namespace verdict
