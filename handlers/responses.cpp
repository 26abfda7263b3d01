#include "handlers/responses.h"

#include <ctime>

#include "handlers/request_parsing.h"
#include "render/pages.h"

namespace verdict {

App::App(Store &store_, const Views &views_, int writes_per_minute, std::string trusted_proxy_)
    : store(store_), views(views_), today(utc_today),
      page_epoch([this] { return store.generation(); }, [this] { return today(); },
                 std::chrono::milliseconds(0)),
      write_limit(writes_per_minute), trusted_proxy(std::move(trusted_proxy_)) {}

void send_html(httplib::Response &res, std::string html, int status) {
  res.status = status;
  res.set_content(std::move(html), "text/html; charset=utf-8");
}

void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message) {
  std::string eyebrow = "Error " + std::to_string(status);
  send_html(res, pages::message(app.views, app.store.site_copy(), eyebrow, heading, message),
            status);
  res.set_header("Cache-Control", "no-store");
}

std::string refusal_page(const App &app, int status, const std::string &reason) {
  const char *heading = status == 413   ? "Too large"
                        : status == 414 ? "Address too long"
                        : status == 431 ? "Headers too large"
                        : status >= 500 ? "Not supported"
                                        : "That request could not be used";
  return pages::message(app.views, app.store.site_copy(), "Error " + std::to_string(status),
                        heading, reason);
}

void see_other(httplib::Response &res, const std::string &location) {
  res.status = 303;
  res.set_header("Location", location);
  res.set_header("Cache-Control", "no-store");
}

void moved_permanently(httplib::Response &res, const std::string &location) {
  res.status = 301;
  res.set_header("Location", location);
  res.set_header("Cache-Control", "public, max-age=86400");
}

std::string voter_of(const httplib::Request &req) {
  return voter_from_cookie(req.get_header_value("Cookie"));
}

std::string voter_for_write(const httplib::Request &req, httplib::Response &res) {
  auto voter = voter_of(req);
  if (!voter.empty()) return voter;
  voter = new_voter_id();
  res.set_header("Set-Cookie",
                 "verdict_voter=" + voter + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
  return voter;
}

std::optional<int> requested_page(const httplib::Request &req) {
  std::vector<std::string> values;
  for (size_t i = 0; i < req.get_param_value_count("page"); ++i)
    values.push_back(req.get_param_value("page", i));
  return parse_page_number(values);
}

std::string utc_today() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char buffer[11];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &parts);
  return buffer;
}

} // namespace verdict
