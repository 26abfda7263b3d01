// The real binary as a self-hoster runs it: crashes, clean shutdowns, backups and checks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "handlers/request_parsing.h"
#include "store/maintenance.h"
#include "store/store.h"

using namespace verdict;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTools = {"cursor-background-agent", "codestral-2-1",
                                         "mistral-small-3-1",       "cursor-background-agents",
                                         "mistral-3-small",         "code-llama-4"};

struct TempDir {
  fs::path path;
  TempDir() {
    char pattern[] = "/tmp/verdict-test-XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Runs the verdict binary and waits for the line that says where it listens.
struct Server {
  pid_t pid = -1;
  int port = 0;

  explicit Server(const std::vector<std::string> &args) {
    int pipe_fds[2];
    REQUIRE(pipe(pipe_fds) == 0);
    pid = fork();
    if (pid == 0) {
      dup2(pipe_fds[1], 2);
      close(pipe_fds[0]);
      std::vector<char *> argv{const_cast<char *>(VERDICT_BINARY)};
      for (const auto &arg : args)
        argv.push_back(const_cast<char *>(arg.c_str()));
      argv.push_back(nullptr);
      execv(VERDICT_BINARY, argv.data());
      _exit(127);
    }
    close(pipe_fds[1]);
    std::string log;
    char buffer[256];
    const std::regex serving("serving http://127\\.0\\.0\\.1:(\\d+)/");
    std::smatch match;
    while (!std::regex_search(log, match, serving)) {
      const auto n = read(pipe_fds[0], buffer, sizeof buffer);
      REQUIRE(n > 0);
      log.append(buffer, static_cast<size_t>(n));
    }
    port = std::stoi(match[1]);
    // Keep draining the server's stderr so it can never block on a full pipe.
    std::thread([fd = pipe_fds[0]] {
      char sink[256];
      while (read(fd, sink, sizeof sink) > 0) {
      }
      close(fd);
    }).detach();
  }

  int stop(int signal_number) {
    kill(pid, signal_number);
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return status;
  }

  ~Server() {
    if (pid > 0) stop(SIGKILL);
  }
};

int run_binary(const std::vector<std::string> &args) {
  std::string command = VERDICT_BINARY;
  for (const auto &arg : args)
    command += " '" + arg + "'";
  command += " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int64_t counted_votes(const std::string &db) {
  Store store(db);
  int64_t total = 0;
  for (const auto &tool : store.tools_by_name())
    total += tool.community.total;
  return total;
}

// Casts votes as fresh visitors until told to stop; counts the ones answered 303.
void vote_until(std::atomic<bool> &stop, int port, std::atomic<int64_t> &acknowledged) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(1);
  client.set_read_timeout(2);
  size_t n = 0;
  while (!stop) {
    const auto &slug = kTools[n++ % kTools.size()];
    const auto res = client.Post(
        ("/tools/" + slug + "/vote").c_str(),
        {{"Sec-Fetch-Site", "same-origin"}, {"Cookie", "verdict_voter=" + new_voter_id()}},
        "verdict=ship", "application/x-www-form-urlencoded");
    if (res && res->status == 303) ++acknowledged;
  }
}

} // namespace

TEST_CASE("process: every vote acknowledged before a kill -9 is counted after restart") {
  TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> acknowledged{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 8; ++i)
    clients.emplace_back([&] { vote_until(stop, server.port, acknowledged); });
  // Vote for a while (bounded, so a slow sanitizer build still finishes), then pull the plug.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (acknowledged < 400 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(waitpid(server.pid, nullptr, WNOHANG) == 0); // still alive until the kill
  server.stop(SIGKILL);
  stop = true;
  for (auto &c : clients)
    c.join();

  const auto counted = counted_votes(db);
  INFO("acknowledged " << acknowledged << ", counted " << counted);
  CHECK(acknowledged > 0);
  CHECK(counted >= acknowledged);
  CHECK(counted <= acknowledged + 8); // at most the votes in flight when the server died
  CHECK(check_database(db).empty());
}

TEST_CASE("process: SIGTERM finishes cleanly and leaves a .db that stands alone") {
  TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0"});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> acknowledged{0};
  std::thread voter([&] { vote_until(stop, server.port, acknowledged); });
  for (int i = 0; i < 2000 && acknowledged < 20; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const int status = server.stop(SIGTERM);
  stop = true;
  voter.join();
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // Checkpointed: no write-ahead log is left, so copying the .db alone is a full copy.
  CHECK_FALSE(fs::exists(db + "-wal"));
  const auto copy = (dir.path / "copy.db").string();
  fs::copy_file(db, copy);
  CHECK(counted_votes(copy) >= acknowledged);
}

TEST_CASE("process: a backup taken while the site serves and takes votes is whole") {
  TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> acknowledged{0};
  std::thread voter([&] { vote_until(stop, server.port, acknowledged); });
  for (int i = 0; i < 2000 && acknowledged < 50; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(run_binary({"backup", "--db", db, backup}) == 0);
  stop = true;
  voter.join();
  CHECK(run_binary({"check", "--db", backup}) == 0);
  CHECK_FALSE(fs::exists(backup + "-wal"));
  CHECK(counted_votes(backup) >= 50);
  Store copy(backup);
  CHECK(copy.tools_by_name().size() == 8);
  CHECK(run_binary({"backup", "--db", db, backup}) != 0); // never overwrites a file
}

TEST_CASE("process: check exits non-zero on a damaged database") {
  TempDir dir;
  const auto db = (dir.path / "site.db").string();
  CHECK(run_binary({"import", "--db", db,
                    (fs::path(VERDICT_SOURCE_DIR) / "content/verdict.json").string()}) == 0);
  CHECK(run_binary({"check", "--db", db}) == 0);
  {
    std::fstream file(db, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(4096 * 3);
    const std::string garbage(4096, '\x5a');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  CHECK(run_binary({"check", "--db", db}) != 0);
}

TEST_CASE("process: the binary's command line answers as documented") {
  TempDir dir;
  CHECK(run_binary({"--help"}) == 0);
  CHECK(run_binary({"--version"}) == 0);
  CHECK(run_binary({"--no-such-flag"}) == 2);
  CHECK(run_binary({"serve", "--port", "http"}) == 2);
  const auto bad = (dir.path / "bad.json").string();
  std::ofstream(bad) << R"({"tools": [{"slug": "x"}]})";
  const auto db = (dir.path / "site.db").string();
  CHECK(run_binary({"import", "--db", db, bad}) == 1);
}

TEST_CASE("process: an existing database is opened as it is, never re-seeded") {
  TempDir dir;
  const auto db = (dir.path / "site.db").string();
  {
    Server first({"--db", db, "--port", "0"});
    httplib::Client client("127.0.0.1", first.port);
    const auto res = client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "same-origin"}},
                                 "verdict=ship", "application/x-www-form-urlencoded");
    REQUIRE(res);
    CHECK(res->status == 303);
    first.stop(SIGTERM);
  }
  Server second({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", second.port);
  const auto page = client.Get("/tools/codestral-2-1");
  REQUIRE(page);
  CHECK(page->body.find("100%<span class=\"stat-basis\"> · 1 vote") != std::string::npos);
}
