#include "test_support.h"

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "app/server.h"
#include "assets/embedded.h"
#include "bench/generate_site.h"
#include "domain/clock.h"
#include "domain/counting.h"
#include "domain/slugs.h"
#include "handlers/routes.h"
#include "store/apply_write.h"
#include "store/sqlite.h"

namespace verdict::test {

namespace fs = std::filesystem;

namespace {

// Seconds every test server's clock runs ahead of the wall clock: post_form moves it on when a
// vote would otherwise be sent sooner after its page than a reader could read it.
std::atomic<int64_t> reading_offset{0};

// Milliseconds, as the system's: writes taken within one second keep their order.
Clock reader_clock() {
  return Clock([] { return unix_now_ms() + reading_offset.load() * 1000; });
}

} // namespace

std::unique_ptr<Store> seeded_store() {
  return open_site_database(":memory:");
}

std::vector<Review> reviews_of_tool(Store &store, const std::string &tool_slug) {
  // From the content export, which reads every review by a query no page uses, so a page's
  // order and paging can be checked against it.
  const auto content = store.export_content();
  std::string tool_name;
  for (const auto &tool : content.tools)
    if (tool.slug == tool_slug) tool_name = tool.name;
  std::map<std::string, const ContentReview *> by_reviewer;
  for (const auto &review : content.reviews)
    if (review.tool == tool_slug) by_reviewer[review.reviewer] = &review;
  std::vector<Review> reviews;
  for (const auto &reviewer : content.reviewers) { // in panel order
    const auto found = by_reviewer.find(reviewer.slug);
    if (found == by_reviewer.end()) continue;
    const auto &review = *found->second;
    reviews.push_back({tool_slug, tool_name, reviewer.slug, reviewer.name, reviewer.lens,
                       verdict_from_word(review.verdict).value_or(Verdict::skip), review.quote});
  }
  return reviews;
}

PairTally pair_tally(Store &store, int64_t a_id, int64_t b_id) {
  std::string a_slug, b_slug;
  for (const auto &tool : store.tools_by_name()) {
    if (tool.id == a_id) a_slug = tool.slug;
    if (tool.id == b_id) b_slug = tool.slug;
  }
  const auto detail = store.comparison_detail(pair_slug(a_slug, b_slug));
  if (!detail) throw std::runtime_error("no pair of tools " + a_slug + " and " + b_slug);
  return detail->comparison.picks;
}

std::vector<std::string> subscriber_emails(Store &store) {
  std::vector<std::string> emails;
  for (const auto &subscriber : store.all_subscribers())
    emails.push_back(subscriber.email);
  return emails;
}

int64_t confirmations_waiting(Store &store) {
  // Every mail owed and not given up is due by the end of time.
  constexpr auto kEver = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(store.confirmations_due(kEver, kEver).size());
}

Durability durability(Store &store) {
  Durability settings;
  store.write([&](sql::Db &db) {
    auto journal = db.prepare("PRAGMA journal_mode");
    if (journal.step()) settings.journal_mode = journal.text(0);
    auto synchronous = db.prepare("PRAGMA synchronous");
    if (synchronous.step()) settings.synchronous = static_cast<int>(synchronous.int64(0));
  });
  return settings;
}

int latest_schema_version() {
  return static_cast<int>(
      std::count_if(embedded_files().begin(), embedded_files().end(),
                    [](const EmbeddedFile &file) { return file.path.starts_with("migrations/"); }));
}

std::string decode_entities(const std::string &html) {
  static const std::pair<std::string_view, std::string_view> entities[] = {
      {"&amp;", "&"},  {"&lt;", "<"},  {"&gt;", ">"},   {"&quot;", "\""},
      {"&apos;", "'"}, {"&#39;", "'"}, {"&#x27;", "'"}, {"&#34;", "\""}};
  std::string out;
  out.reserve(html.size());
  for (size_t i = 0; i < html.size(); ++i) {
    bool decoded = false;
    if (html[i] == '&') {
      for (const auto &[entity, plain] : entities) {
        if (html.compare(i, entity.size(), entity) == 0) {
          out += plain;
          i += entity.size() - 1;
          decoded = true;
          break;
        }
      }
    }
    if (!decoded) out.push_back(html[i]);
  }
  return out;
}

std::string visible_text(const std::string &html) {
  // Tags go first, so a decoded "<" in the text is never taken for the start of a tag.
  std::string text;
  bool in_tag = false;
  for (const char c : html) {
    if (in_tag) {
      if (c == '>') {
        in_tag = false;
        text.push_back(' ');
      }
    } else if (c == '<') {
      in_tag = true;
    } else {
      text.push_back(c);
    }
  }
  text = decode_entities(text);
  std::string collapsed;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space)
      collapsed.push_back(c);
    else if (!collapsed.empty() && collapsed.back() != ' ')
      collapsed.push_back(' ');
  }
  while (!collapsed.empty() && collapsed.back() == ' ')
    collapsed.pop_back();
  return collapsed;
}

bool has_error(const std::vector<std::string> &errors, const std::string &message) {
  return std::find(errors.begin(), errors.end(), message) != errors.end();
}

std::string read_file(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string source_file(const std::string &relative_path) {
  return read_file((fs::path(VERDICT_SOURCE_DIR) / relative_path).string());
}

std::vector<std::string> golden_files() {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(fs::path(VERDICT_SOURCE_DIR) / "tests/golden"))
    if (entry.path().extension() == ".txt") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> golden_lines(const std::string &file_name) {
  std::istringstream file(source_file("tests/golden/" + file_name));
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

SiteServer::SiteServer(const std::string &db_path, int writes_per_minute,
                       const std::string &trusted_proxy)
    : store_(open_site_database(db_path)), server_(transport_limits(16, trusted_proxy)) {
  app_ = std::make_unique<App>(*store_, views_, writes_per_minute, trusted_proxy);
  app_->clock = reader_clock();
  start();
}

SiteServer::SiteServer(const std::function<void(App &)> &configure)
    : store_(open_site_database(":memory:")), server_(transport_limits(16)) {
  app_ = std::make_unique<App>(*store_, views_, 0, "127.0.0.1");
  app_->clock = reader_clock();
  configure(*app_);
  start();
}

SiteServer::SiteServer(const App::Budgets &budgets)
    : store_(open_site_database(":memory:")), server_(transport_limits(16)) {
  app_ = std::make_unique<App>(*store_, views_, 0, "127.0.0.1", nullptr, nullptr, budgets);
  app_->clock = reader_clock();
  start();
}

SiteServer::SiteServer(const std::function<void(App &, Views &)> &configure)
    : SiteServer([&](App &app) { configure(app, views_); }) {}

SiteServer::SiteServer(const transport::TransportLimits &limits, int writes_per_minute,
                       const std::string &trusted_proxy)
    : store_(open_site_database(":memory:")), server_(limits) {
  app_ = std::make_unique<App>(*store_, views_, writes_per_minute, trusted_proxy);
  app_->clock = reader_clock();
  start();
}

SiteServer::SiteServer(const BaseUrl &base_url)
    : store_(open_site_database(":memory:")), server_(transport_limits(16)) {
  views_.set_base_url(base_url.url);
  app_ = std::make_unique<App>(*store_, views_, 0, "127.0.0.1");
  app_->clock = reader_clock();
  start();
}

SiteServer::SiteServer(const MailSetup &mail)
    : store_(open_site_database(":memory:")), server_(transport_limits(16)) {
  app_ = std::make_unique<App>(*store_, views_, 0, "127.0.0.1");
  app_->clock = reader_clock();
  start([&] {
    auto setup = mail;
    setup.base_url = "http://127.0.0.1:" + std::to_string(port_);
    views_.set_base_url(setup.base_url);
    mailer_ = std::make_unique<ConfirmationMailer>(*store_, *app_->writes, views_, setup,
                                                   app_->newsletter.unsubscribe_key, app_->clock);
    app_->newsletter.sends_mail = true;
    app_->newsletter.mail_queued = [mailer = mailer_.get()] { mailer->wake(); };
  });
}

void SiteServer::start(const std::function<void()> &before_listening) {
  install_routes(server_, *app_);
  configure_server(server_, *app_);
  port_ = server_.bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("the test server could not bind 127.0.0.1");
  if (before_listening) before_listening();
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!server_.is_running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (server_.is_running()) return;
  server_.stop();
  thread_.join();
  throw std::runtime_error("the test server did not start listening within 10 s");
}

SiteServer::~SiteServer() {
  server_.stop();
  thread_.join();
  mailer_.reset(); // before the store it sends from
}

httplib::Client SiteServer::client() const {
  httplib::Client client("127.0.0.1", port_);
  client.set_connection_timeout(5);
  client.set_read_timeout(10);
  client.set_write_timeout(10);
  // As a browser does: one connection for many requests, which is also what lets the
  // transport answer from its shared cache.
  client.set_keep_alive(true);
  return client;
}

std::string cookie_from(const httplib::Result &result) {
  if (!result) return {};
  const auto header = result->get_header_value("Set-Cookie");
  const auto start = header.find("verdict_voter=");
  if (start == std::string::npos) return {};
  return header.substr(start + 14, 32);
}

namespace {

// The page a vote form at `path` ("/tools/x/vote", "/compare/p/vote") is on.
std::string page_of_vote(const std::string &path) {
  return path.substr(0, path.size() - std::string_view("/vote").size());
}

} // namespace

std::string vote_token_in(const std::string &html, const std::string &action) {
  const auto form = html.find("action=\"" + action + "\"");
  if (form == std::string::npos) return {};
  const std::string marker = "name=\"token\" value=\"";
  const auto at = html.find(marker, form);
  if (at == std::string::npos) return {};
  const auto start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

std::string vote_token_for(httplib::Client &client, const std::string &path,
                           const std::string &voter) {
  httplib::Headers headers;
  if (!voter.empty()) headers.emplace("Cookie", "verdict_voter=" + voter);
  auto action = path;
  auto page = client.Get(page_of_vote(path).c_str(), headers);
  if (page && page->status == 301) { // a pair's other order: its token is the pair's either way
    action = page->get_header_value("Location") + "/vote";
    page = client.Get(page_of_vote(action).c_str(), headers);
  }
  if (!page || page->status != 200) return {};
  const auto token = vote_token_in(page->body, action);
  const auto made_at = std::atoll(token.substr(0, token.find('.')).c_str());
  const auto on_page = reader_clock().now() - made_at;
  if (!token.empty() && on_page < kSecondsToReadAPage)
    reading_offset += kSecondsToReadAPage - on_page;
  return token;
}

Ballot ballot_of(const std::string &voter, const std::string &network, const std::string &day,
                 const std::string &wider) {
  const auto own = network.empty() ? "network of " + voter : network;
  return {voter, own, day.empty() ? utc_today() : day,
          60,    "",  wider.empty() ? "wider network of " + own : wider};
}

namespace {

// The address each reader post_form has voted as comes from, when the test named none: a
// network of their own, so the counting rule counts each distinct reader.
std::mutex reader_addresses_mutex;
std::map<std::string, std::string> reader_addresses;
int readers_so_far = 0;

std::string fresh_reader_address() {
  std::lock_guard lock(reader_addresses_mutex);
  ++readers_so_far;
  // A /24 of their own, and up to 256 readers a /16 of their own too (the wider network's
  // quota: domain/counting.h).
  return "10." + std::to_string(readers_so_far % 256) + "." +
         std::to_string(readers_so_far / 256 % 256) + ".7";
}

std::string address_of_reader(const std::string &voter) {
  {
    std::lock_guard lock(reader_addresses_mutex);
    if (const auto it = reader_addresses.find(voter); it != reader_addresses.end())
      return it->second;
  }
  auto address = fresh_reader_address();
  std::lock_guard lock(reader_addresses_mutex);
  return reader_addresses.emplace(voter, address).first->second;
}

} // namespace

httplib::Result post_form(httplib::Client &client, const std::string &path, const std::string &body,
                          const std::string &voter, const std::string &from) {
  httplib::Headers headers{{"Sec-Fetch-Site", "same-origin"}};
  if (!voter.empty()) headers.emplace("Cookie", "verdict_voter=" + voter);
  auto form = body;
  const bool is_vote = path.size() > 5 && path.ends_with("/vote");
  const auto address = !from.empty() || !is_vote ? from
                       : voter.empty()           ? fresh_reader_address()
                                                 : address_of_reader(voter);
  if (!address.empty()) headers.emplace("X-Forwarded-For", address);
  if (is_vote) {
    const auto token = vote_token_for(client, path, voter);
    if (!token.empty()) form += "&token=" + token;
  }
  auto res = client.Post(path.c_str(), headers, form, "application/x-www-form-urlencoded");
  if (is_vote && voter.empty() && !address.empty()) {
    const auto minted = cookie_from(res);
    std::lock_guard lock(reader_addresses_mutex);
    if (!minted.empty()) reader_addresses.emplace(minted, address);
  }
  return res;
}

std::string csrf_in(const std::string &html) {
  const std::string marker = "name=\"csrf\" value=\"";
  const auto at = html.find(marker);
  if (at == std::string::npos) return {};
  const auto start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

DeskSession sign_in_at_desk(httplib::Client &client, const std::string &email,
                            const std::string &password) {
  const auto res = post_form(client, "/admin/login",
                             "email=" + httplib::detail::encode_query_param(email) +
                                 "&password=" + httplib::detail::encode_query_param(password));
  REQUIRE(res);
  REQUIRE(res->status == 303);
  const auto set = res->get_header_value("Set-Cookie");
  REQUIRE(set.rfind("verdict_session=", 0) == 0);
  DeskSession session{set.substr(0, set.find(';')), ""};
  const auto desk = get_at_desk(client, session, "/admin");
  REQUIRE(desk);
  REQUIRE(desk->status == 200);
  session.csrf = csrf_in(desk->body);
  REQUIRE(!session.csrf.empty());
  return session;
}

httplib::Result get_at_desk(httplib::Client &client, const DeskSession &session,
                            const std::string &path) {
  return client.Get(path.c_str(), {{"Cookie", session.cookie}});
}

httplib::Result post_at_desk(httplib::Client &client, const DeskSession &session,
                             const std::string &path, const std::string &body) {
  const httplib::Headers headers{{"Sec-Fetch-Site", "same-origin"}, {"Cookie", session.cookie}};
  return client.Post(path.c_str(), headers,
                     body + (body.empty() ? "" : "&") + "csrf=" + session.csrf,
                     "application/x-www-form-urlencoded");
}

std::string write_generated_site(const TempDir &dir, uint64_t seed) {
  const auto path = (dir.path / "site.db").string();
  SiteSize size;
  size.tools = 130;
  size.reviewers = 120;
  size.reviews = 4'000;
  size.comparisons = 120;
  size.votes = 3'000;
  size.voters = 400;
  Store store(path);
  write_site(store, generate_site(seed, size));
  return path;
}

std::string write_version_1_site(const TempDir &dir, const std::string &rows) {
  const auto path = (dir.path / "site.db").string();
  sql::Db old(path);
  old.exec(std::string(embedded("migrations/0001-schema.sql")));
  old.exec("PRAGMA user_version = 1");
  old.exec(rows);
  return path;
}

int run_binary(const std::vector<std::string> &args, std::string *output,
               const std::string &input_file, const std::vector<std::string> &env) {
  std::string command = "env";
  for (const auto &variable : env)
    command += " '" + variable + "'";
  command += std::string(" timeout 60 ") + VERDICT_BINARY;
  for (const auto &arg : args)
    command += " '" + arg + "'";
  command += " 2>&1 <'" + input_file + "'";
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string printed;
  char buffer[512];
  while (const auto n = fread(buffer, 1, sizeof buffer, pipe))
    printed.append(buffer, n);
  const int status = pclose(pipe);
  if (output) *output = printed;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

pid_t start_child(const std::vector<std::string> &argv, int out_fd, int err_fd,
                  const std::string &cwd) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid > 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  const int null = open("/dev/null", O_RDWR);
  dup2(null, 0);
  dup2(out_fd >= 0 ? out_fd : null, 1);
  dup2(err_fd >= 0 ? err_fd : null, 2);
  if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
  std::vector<char *> args;
  for (const auto &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

SmtpSink::SmtpSink(const fs::path &folder, const std::vector<std::string> &options)
    : folder_(folder) {
  fs::create_directories(folder_);
  int fds[2];
  REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
  const std::string python = "/usr/bin/python3"; // Debian's, with python3-aiosmtpd
  const auto script = (fs::path(VERDICT_SOURCE_DIR) / "tests/smtp/sink.py").string();
  std::vector<std::string> args = {python, script, folder_.string()};
  args.insert(args.end(), options.begin(), options.end());
  pid_ = start_child(args, fds[1], -1);
  close(fds[1]);
  std::string said;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (said.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd ready{fds[0], POLLIN, 0};
    if (poll(&ready, 1, 1000) <= 0) continue;
    char buffer[128];
    const auto n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    said.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (said.rfind("listening ", 0) != 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    FAIL("the SMTP sink did not start (is python3-aiosmtpd installed?); it said: " << said);
  }
  port_ = std::stoi(said.substr(10));
}

SmtpSink::~SmtpSink() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

std::vector<std::string> SmtpSink::messages() const {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder_))
    if (entry.path().extension() == ".eml") names.push_back(entry.path().string());
  std::sort(names.begin(), names.end());
  std::vector<std::string> all;
  for (const auto &name : names)
    all.push_back(read_file(name));
  return all;
}

std::vector<std::string> SmtpSink::wait_for(size_t count, int seconds) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  auto all = messages();
  while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    all = messages();
  }
  return all;
}

std::vector<std::string> SmtpSink::recipients() const {
  std::vector<std::string> lines;
  std::ifstream log(folder_ / "envelopes.log");
  for (std::string line; std::getline(log, line);) {
    const auto first = line.find(' '), second = line.find(' ', first + 1);
    lines.push_back(line.substr(second + 1));
  }
  return lines;
}

std::string mail_header(const std::string &message, const std::string &name) {
  const auto head = message.substr(0, message.find("\r\n\r\n"));
  const auto wanted = "\r\n" + name + ":";
  const auto at = ("\r\n" + head).find(wanted);
  if (at == std::string::npos) return {};
  std::string value;
  for (size_t i = at + wanted.size() - 2; i < head.size(); ++i) {
    if (head.compare(i, 2, "\r\n") == 0) {
      if (i + 2 < head.size() && (head[i + 2] == ' ' || head[i + 2] == '\t')) {
        i += 1; // a folded line goes on
        continue;
      }
      break;
    }
    value += head[i];
  }
  // The value as a mail program reads it: the space after the colon, or the fold that
  // started it, is not part of it.
  return value.substr(std::min(value.size(), value.find_first_not_of(" \t")));
}

std::string quoted_printable_decoded(const std::string &encoded) {
  std::string out;
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] != '=') {
      out += encoded[i];
    } else if (encoded.compare(i + 1, 2, "\r\n") == 0) {
      i += 2; // a soft line break
    } else if (i + 2 < encoded.size()) {
      out += static_cast<char>(std::stoi(encoded.substr(i + 1, 2), nullptr, 16));
      i += 2;
    }
  }
  return out;
}

std::string mail_part(const std::string &message, const std::string &content_type) {
  const auto at = message.find("Content-Type: " + content_type);
  if (at == std::string::npos) return {};
  const auto body = message.find("\r\n\r\n", at) + 4;
  const auto end = message.find("\r\n--=_verdict_", body);
  return quoted_printable_decoded(message.substr(body, end - body));
}

std::string link_starting(const std::string &text, const std::string &prefix) {
  const auto at = text.find(prefix);
  if (at == std::string::npos) return {};
  const auto end = text.find_first_of(" \r\n\"<>", at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TempDir::TempDir() {
  char pattern[] = "/tmp/verdict-test-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  path = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

RawConnection::RawConnection(int port, const std::string &from)
    : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
  if (fd_ < 0) throw std::runtime_error("socket failed");
  if (!from.empty()) {
    sockaddr_in source{};
    source.sin_family = AF_INET;
    if (inet_pton(AF_INET, from.c_str(), &source.sin_addr) != 1 ||
        bind(fd_, reinterpret_cast<sockaddr *>(&source), sizeof source) != 0) {
      close(fd_);
      throw std::runtime_error("cannot connect from " + from);
    }
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
    close(fd_);
    throw std::runtime_error("connect failed");
  }
}

RawConnection::~RawConnection() {
  close(fd_);
}

void RawConnection::send(const std::string &bytes) {
  for (size_t sent = 0; sent < bytes.size();) {
    const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

std::string RawConnection::read_until(const std::string &marker, int seconds) {
  std::string answer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (marker.empty() || answer.find(marker) == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) break;
    pollfd ready{fd_, POLLIN, 0};
    if (poll(&ready, 1, static_cast<int>(left)) <= 0) break;
    char buffer[4096];
    const auto n = recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  return answer;
}

std::string RawConnection::read_some(int seconds) {
  pollfd ready{fd_, POLLIN, 0};
  if (poll(&ready, 1, seconds * 1000) <= 0) return {};
  char buffer[16384];
  const auto n = recv(fd_, buffer, sizeof buffer, 0);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::string raw_exchange(int port, const std::string &bytes, int seconds) {
  RawConnection connection(port);
  connection.send(bytes);
  return connection.read_all(seconds);
}

EntryApplied apply_entry_now(Store &store, uint64_t sequence,
                             std::vector<std::pair<Write, WriteContext>> writes, std::string id) {
  auto applied = std::make_shared<EntryApplied>();
  applied->writes.resize(writes.size());
  std::vector<EntryWrite> entry;
  for (size_t i = 0; i < writes.size(); ++i)
    entry.push_back({std::move(writes[i].first), writes[i].second,
                     [applied, i](const WriteResult &ended) { applied->writes[i] = ended; }});
  auto done = std::make_shared<std::promise<void>>();
  // Its id kept for an hour past now, as an entry sealed now is.
  const StreamPlace place{sequence, id.empty() ? "entry-" + std::to_string(sequence) : id,
                          unix_now_ms() + 3'600'000, unix_now_ms()};
  apply_entry(store, place, std::move(entry), [done, applied](const WriteResult &ended) {
    applied->entry = ended;
    done->set_value();
  });
  done->get_future().wait();
  return *applied;
}

auth::SignInThrottle::Wait held_back(auth::SignInThrottle &throttle, std::string_view network,
                                     std::string_view account, std::string_view device,
                                     auth::SignInThrottle::Clock::time_point now) {
  const auto asked = throttle.charge(network, account, device, now);
  throttle.take_back(asked, network, account, device);
  return asked.wait;
}

void wrong_password(auth::SignInThrottle &throttle, std::string_view network,
                    std::string_view account, std::string_view device,
                    auth::SignInThrottle::Clock::time_point now) {
  const auto tried = throttle.charge(network, account, device, now);
  REQUIRE(tried.charged()); // a try held back is never checked
  throttle.charged_failed(network, account, device);
}

void right_password(auth::SignInThrottle &throttle, std::string_view network,
                    std::string_view account, std::string_view device,
                    auth::SignInThrottle::Clock::time_point now) {
  const auto tried = throttle.charge(network, account, device, now);
  REQUIRE(tried.charged());
  throttle.charged_succeeded(tried, network, account, device);
}

} // namespace verdict::test
