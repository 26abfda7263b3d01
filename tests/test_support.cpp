#include "test_support.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/server.h"
#include "handlers/routes.h"

namespace verdict::test {

std::unique_ptr<Store> seeded_store() {
  return open_site_database(":memory:");
}

std::string visible_text(const std::string &html) {
  std::string text;
  bool in_tag = false;
  for (size_t i = 0; i < html.size(); ++i) {
    const char c = html[i];
    if (in_tag) {
      if (c == '>') {
        in_tag = false;
        text.push_back(' ');
      }
      continue;
    }
    if (c == '<') {
      in_tag = true;
      continue;
    }
    if (c == '&') {
      static const std::pair<const char *, const char *> entities[] = {
          {"&amp;", "&"},   {"&lt;", "<"},   {"&gt;", ">"},
          {"&quot;", "\""}, {"&apos;", "'"}, {"&#39;", "'"}};
      bool decoded = false;
      for (const auto &[entity, plain] : entities) {
        if (html.compare(i, std::char_traits<char>::length(entity), entity) == 0) {
          text += plain;
          i += std::char_traits<char>::length(entity) - 1;
          decoded = true;
          break;
        }
      }
      if (decoded) continue;
    }
    text.push_back(c);
  }
  std::string collapsed;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space) {
      if (!collapsed.empty() && collapsed.back() != ' ') collapsed.push_back(' ');
    } else {
      collapsed.push_back(c);
    }
  }
  while (!collapsed.empty() && collapsed.back() == ' ')
    collapsed.pop_back();
  if (!collapsed.empty() && collapsed.front() == ' ') collapsed.erase(0, 1);
  return collapsed;
}

std::vector<std::string> seed_files() {
  std::vector<std::string> names;
  if (DIR *dir = opendir(VERDICT_SEEDS_DIR)) {
    while (auto *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".txt") names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> seed_lines(const std::string &file_name) {
  std::ifstream file(std::string(VERDICT_SEEDS_DIR) + "/" + file_name);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

SiteServer::SiteServer(const std::string &db_path) : store_(open_site_database(db_path)) {
  app_ = std::make_unique<App>(*store_, views_);
  install_routes(server_, *app_);
  configure_server(server_, 16);
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
}

SiteServer::~SiteServer() {
  server_.stop();
  thread_.join();
}

httplib::Client SiteServer::client() const {
  httplib::Client client("127.0.0.1", port_);
  client.set_connection_timeout(5);
  client.set_read_timeout(10);
  return client;
}

std::string cookie_from(const httplib::Result &result) {
  if (!result) return {};
  const auto header = result->get_header_value("Set-Cookie");
  const auto start = header.find("verdict_voter=");
  if (start == std::string::npos) return {};
  return header.substr(start + 14, 32);
}

} // namespace verdict::test
