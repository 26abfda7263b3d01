// The guards around the whole site (install_guards, middleware/guards.h): the security
// headers, Vary, 405 with Allow for a method no route takes, the error pages for unrouted
// addresses and httplib's own refusals, and the exception page that logs what went wrong for
// the owner and shows the visitor none of it.
#include "middleware/guards.h"

#include <iostream>
#include <memory>
#include <regex>

#include "middleware/responses.h"
#include "transport/security_headers.h"

namespace verdict::guards {

using namespace transport; // the socket layer's types: headers, answers, limits

using httplib::Request;
using httplib::Response;

namespace {

// The methods some route takes at `path`, as an Allow header lists them; empty when none.
std::string allowed_methods(const std::vector<std::pair<std::regex, std::string>> &routes,
                            const std::string &path) {
  std::string allow;
  for (const auto &[pattern, method] : routes) {
    if (!std::regex_match(path, pattern)) continue;
    const auto methods = method == "GET" ? std::string("GET, HEAD") : method;
    if (allow.find(methods) == std::string::npos) allow += (allow.empty() ? "" : ", ") + methods;
  }
  return allow;
}

void method_not_allowed(App &app, Response &res, const std::string &allow) {
  send_error(app, res, 405, "Method not allowed",
             "This address takes " + allow + " requests only.");
  res.set_header("Allow", allow);
}

} // namespace

void install_guards(httplib::Server &server, App &app, const RouteMethods &routes) {
  server.set_logger([&app](const Request &req, const Response &res) {
    app.request_metrics.observe_unrouted(req, res.status);
    if (!app.access_log) return;
    std::string path = req.path;
    for (auto &c : path)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?'; // no forged log lines
    std::cerr << req.remote_addr << " " << req.method << " " << path << " " << res.status << "\n";
  });
  auto patterns = std::make_shared<std::vector<std::pair<std::regex, std::string>>>();
  for (const auto &[method, pattern] : routes)
    patterns->emplace_back(std::regex(pattern), method);

  httplib::Headers headers;
  for (const auto &[name, value] : transport::security_headers())
    headers.emplace(name, value);
  server.set_default_headers(headers);
  server.set_post_routing_handler([](const Request &, Response &res) {
    const auto vary = vary_for(res.get_header_value("Vary"), res.get_header_value("Content-Type"));
    res.headers.erase("Vary"); // set_header adds a second line rather than replacing
    if (!vary.empty()) res.set_header("Vary", vary);
  });

  // Only GET, HEAD and POST mean anything here; an address that exists answers any other
  // method with 405 and what it allows.
  server.set_pre_routing_handler([&app, patterns](const Request &req, Response &res) {
    if (req.method == "GET" || req.method == "HEAD" || req.method == "POST")
      return httplib::Server::HandlerResponse::Unhandled;
    const auto allow = allowed_methods(*patterns, req.path);
    if (allow.empty())
      address_not_found(app, res);
    else
      method_not_allowed(app, res, allow);
    return httplib::Server::HandlerResponse::Handled;
  });

  // Unrouted addresses and httplib's own refusals (413 and the like) get a page of the site.
  // httplib calls it outside its own try, so nothing may escape it: a failure here would end
  // the process.
  server.set_error_handler([&app, patterns](const Request &req, Response &res) {
    if (!res.body.empty()) return;
    try {
      if (res.status == 404) {
        const auto allow = allowed_methods(*patterns, req.path);
        if (!allow.empty()) return method_not_allowed(app, res, allow);
        return address_not_found(app, res);
      }
      if (res.status == 413)
        return send_error(app, res, 413, "Too large",
                          "That request body is larger than any form of this site sends.");
      send_error(app, res, res.status, "That request could not be used",
                 "The request was not understood.");
    } catch (const std::exception &e) {
      std::cerr << "error page: " << req.method << " " << req.path << ": " << e.what() << "\n";
      send_error_without_fail(app, res, 503, "Cannot show this page right now",
                              "The site cannot read its data at the moment. Please try again "
                              "in a minute.");
    }
  });
  // Never show exception or SQLite text to a visitor; log it for the owner instead.
  server.set_exception_handler([&app](const Request &req, Response &res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const StoreUnavailable &e) {
      if (req.method == "POST") return write_not_taken(app, res, req.path + ": " + e.what());
      std::cerr << "refused: " << req.method << " " << req.path << ": " << e.what() << "\n";
      res.headers.clear();
      send_error_without_fail(app, res, 503, "Cannot show this page right now",
                              "The site cannot read its data at the moment. Please try again "
                              "in a minute.");
      res.set_header("Retry-After", "60");
      return;
    } catch (const std::exception &e) {
      std::cerr << "error: " << req.method << " " << req.path << ": " << e.what() << "\n";
    } catch (...) {
      std::cerr << "error: " << req.method << " " << req.path << ": unknown exception\n";
    }
    res.headers.clear();
    send_error_without_fail(
        app, res, 500, "Something went wrong",
        "The server could not finish this request. Nothing was changed; please try again.");
  });
}

} // namespace verdict::guards
