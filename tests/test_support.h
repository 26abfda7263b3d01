// Shared test fixtures: a seeded in-memory site, a real server on an ephemeral port, and
// helpers to read a page the way a reader does (its visible text).
#pragma once

#include <httplib.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "handlers/app.h"
#include "render/views.h"
#include "store/store.h"

namespace verdict::test {

// A store on a fresh in-memory database holding the bundled seed content.
std::unique_ptr<Store> seeded_store();

// The page's text as a reader sees it: tags removed, entities decoded, whitespace collapsed.
std::string visible_text(const std::string &html);

// The non-empty lines of a seed page in ../shared/seeds.
std::vector<std::string> seed_lines(const std::string &file_name);
std::vector<std::string> seed_files();

// The site served through the real route table on 127.0.0.1 and an ephemeral port.
class SiteServer {
public:
  explicit SiteServer(const std::string &db_path = ":memory:");
  ~SiteServer();
  httplib::Client client() const;
  int port() const { return port_; }
  Store &store() { return *store_; }

private:
  std::unique_ptr<Store> store_;
  Views views_;
  std::unique_ptr<App> app_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

// Value of the voter cookie a response set, or empty.
std::string cookie_from(const httplib::Result &result);

} // namespace verdict::test
