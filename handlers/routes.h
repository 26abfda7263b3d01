#pragma once

#include <httplib.h>

#include "middleware/app.h"

namespace verdict {

// Installs every route of the site, the error pages and the headers every response carries.
void install_routes(httplib::Server &server, App &app);

} // namespace verdict
