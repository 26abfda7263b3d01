// What a request says about where it comes from (the client's address, HTTPS, who may read
// /metrics) and what it asks of a list (its query's values, the page number). The trusted
// proxy's word is taken only from the trusted proxy (App::trusted_proxies).
#pragma once

#include <httplib.h>

#include <optional>
#include <string>
#include <vector>

#include "middleware/app.h"

namespace verdict {

// The address the request comes from (middleware/rate_limit.h's client_address).
std::string client_of(const App &app, const httplib::Request &req);
// Whether the request reached the site over HTTPS: only the trusted proxy can say so.
bool came_over_https(const App &app, const httplib::Request &req);
// Whose figures /metrics may show this request. The desk's go to a request from this machine
// straight to the server (its TCP peer is loopback and no proxy forwarded it: a request
// through the trusted proxy on loopback carries X-Forwarded-For, and is anyone's), or to one
// carrying `Authorization: Bearer <--metrics-token>`. Anyone else gets readers' figures; a
// bearer token that is not the site's gets none (empty), so a misconfigured scraper is told
// rather than quietly shown less.
std::optional<Audience> metrics_audience(const App &app, const httplib::Request &req);

// Every value the request's query gives parameter `name`, in order.
std::vector<std::string> param_values(const httplib::Request &req, const char *name);
// The page of a list the request asks for with `?page=N` (1 when absent); empty when the
// parameter is not a page number.
std::optional<int> requested_page(const httplib::Request &req);

} // namespace verdict
