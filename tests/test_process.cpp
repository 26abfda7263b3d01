// The real binary as a self-hoster runs it: crashes, clean shutdowns, backups and checks.
// Every server started here dies with the test (PR_SET_PDEATHSIG) and holds none of CTest's
// pipes, so a failing or crashing test can never leave a process behind that hangs the suite.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "auth/secrets.h"
#include "domain/clock.h"
#include "domain/counting.h"
#include "middleware/request_parsing.h"
#include "server_process.h"
#include "store/maintenance.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/vote_log.h"
#include "test_support.h"

using namespace verdict;
namespace fs = std::filesystem;
using std::chrono::steady_clock;

namespace {

const std::vector<std::string> kTools = {"cursor-background-agent", "codestral-2-1",
                                         "mistral-small-3-1",       "cursor-background-agents",
                                         "mistral-3-small",         "code-llama-4"};

using verdict::test::Server;

using test::run_binary;

// Every vote stored on a tool, counted or set aside: all votes from one address past the
// counting rule's share are set aside, and a vote acknowledged is stored either way.
int64_t stored_votes(const std::string &db) {
  Store store(db);
  int64_t total = 0;
  for (const auto &tool : store.tools_by_name())
    total += tool.community.total + tool.community_set_aside.total();
  return total;
}

// The token of the vote form posting to `action` ("/tools/x/vote"), read from its page on the
// running server as a reader loads it.
std::string vote_token(httplib::Client &client, const std::string &action) {
  const auto page = client.Get(action.substr(0, action.size() - 5).c_str());
  REQUIRE(page);
  REQUIRE(page->status == 200);
  const auto token = test::vote_token_in(page->body, action);
  REQUIRE_FALSE(token.empty());
  return token;
}

// Waits until the page that gave `token` is old enough for a reader's vote
// (kSecondsToReadAPage; the server's clock is the wall clock).
void wait_until_ripe(const std::string &token) {
  const auto made_at = std::atoll(token.substr(0, token.find('.')).c_str());
  while (unix_now() < made_at + kSecondsToReadAPage)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// A vote form's token, returned once its page is old enough for a reader's vote.
std::string ripe_vote_token(httplib::Client &client, const std::string &action) {
  const auto token = vote_token(client, action);
  wait_until_ripe(token);
  return token;
}

// A new reader's ship vote on Codestral 2.1 through `client`, sent with `form` (its token ripe).
httplib::Result ship_as_a_new_reader(httplib::Client &client, const std::string &form) {
  return client.Post("/tools/codestral-2-1/vote",
                     {{"Sec-Fetch-Site", "same-origin"},
                      {"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}},
                     form, "application/x-www-form-urlencoded");
}

// Readers voting as fresh visitors, each on its own thread, until the object goes away.
class Voters {
public:
  Voters(int port, int count) {
    httplib::Client client("127.0.0.1", port);
    // Every page read first, then one wait for the newest to be old enough: the readers read
    // them all before they vote.
    std::string newest;
    for (const auto &slug : kTools) {
      newest = vote_token(client, "/tools/" + slug + "/vote");
      forms_[slug] = "verdict=ship&token=" + newest;
    }
    wait_until_ripe(newest);
    for (int i = 0; i < count; ++i)
      threads_.emplace_back([this, port] { vote_until_stopped(port); });
  }
  ~Voters() { stop(); }
  void stop() {
    stop_ = true;
    for (auto &thread : threads_)
      if (thread.joinable()) thread.join();
  }
  // Waits (bounded) until at least `n` votes were acknowledged.
  void wait_for(int64_t n, int seconds = 20) const {
    const auto deadline = steady_clock::now() + std::chrono::seconds(seconds);
    while (acknowledged < n && steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::atomic<int64_t> acknowledged{0}; // answered 303

private:
  void vote_until_stopped(int port) {
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(1);
    client.set_read_timeout(2);
    for (size_t n = 0; !stop_; ++n) {
      const auto &slug = kTools[n % kTools.size()];
      const auto res = client.Post(("/tools/" + slug + "/vote").c_str(),
                                   {{"Sec-Fetch-Site", "same-origin"},
                                    {"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}},
                                   forms_.at(slug), "application/x-www-form-urlencoded");
      if (res && res->status == 303) ++acknowledged;
    }
  }
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  std::map<std::string, std::string> forms_; // each tool's vote, with its page's token
};

// A database at `db` holding the bundled content, made as an owner would: `verdict init
// --empty`, then `verdict import` of the content file.
void import_bundled_content(const std::string &db) {
  if (!fs::exists(db)) REQUIRE(run_binary({"init", "--db", db, "--empty"}) == 0);
  REQUIRE(run_binary({"import", "--db", db,
                      (fs::path(VERDICT_SOURCE_DIR) / "content/verdict.json").string()}) == 0);
}

nlohmann::json exported(const std::string &db) {
  std::string json;
  REQUIRE(run_binary({"export", "--db", db}, &json) == 0);
  return nlohmann::json::parse(json);
}

} // namespace

TEST_CASE("process: every vote acknowledged before a kill -9 is stored after restart") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  Voters voters(server.port, 8);
  voters.wait_for(400);
  CHECK(waitpid(server.pid(), nullptr, WNOHANG) == 0); // still alive until the kill
  server.stop(SIGKILL);
  voters.stop();

  const auto counted = stored_votes(db);
  const int64_t acknowledged = voters.acknowledged;
  INFO("acknowledged " << acknowledged << ", counted " << counted);
  CHECK(acknowledged > 0);
  CHECK(counted >= acknowledged);
  CHECK(counted <= acknowledged + 8); // at most the votes in flight when the server died
  CHECK(check_database(db).empty());
}

TEST_CASE("process: SIGTERM and SIGINT finish cleanly and leave a .db that stands alone") {
  const int signal_number = GENERATE(SIGTERM, SIGINT);
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  Voters voters(server.port, 2);
  voters.wait_for(20);
  const int status = server.stop(signal_number);
  voters.stop();
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(server.log().find("stopped cleanly") != std::string::npos);
  // Checkpointed: no write-ahead log is left, so copying the .db alone is a full copy.
  CHECK_FALSE(fs::exists(db + "-wal"));
  const auto copy = (dir.path / "copy.db").string();
  fs::copy_file(db, copy);
  CHECK(stored_votes(copy) >= voters.acknowledged);
  CHECK(voters.acknowledged >= 20);
}

TEST_CASE("process: a backup taken while the site serves and takes votes is whole") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  Voters voters(server.port, 1);
  voters.wait_for(50);
  CHECK(run_binary({"backup", "--db", db, backup}) == 0);
  voters.stop();
  // Its owner's alone (it holds password hashes and the log's signing key), whatever the umask,
  // and owned as the database is.
  struct stat copy_made {
  }, site_file{};
  REQUIRE(stat(backup.c_str(), &copy_made) == 0);
  REQUIRE(stat(db.c_str(), &site_file) == 0);
  CHECK((copy_made.st_mode & 0777) == 0600);
  CHECK(copy_made.st_uid == site_file.st_uid);
  CHECK(run_binary({"check", "--db", backup}) == 0);
  CHECK_FALSE(fs::exists(backup + "-wal"));
  CHECK(stored_votes(backup) >= 50);
  Store copy(backup);
  CHECK(copy.tools_by_name().size() == 8);
  std::string refusal;
  CHECK(run_binary({"backup", "--db", db, backup}, &refusal) != 0); // never overwrites a file
  CHECK(refusal.find("already exists") != std::string::npos);
}

TEST_CASE("process: check exits non-zero on a damaged database") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
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
  test::TempDir dir;
  std::string help, bad_flag;
  CHECK(run_binary({"--help"}, &help) == 0);
  CHECK(help.find("Usage: verdict") != std::string::npos);
  std::string version;
  CHECK(run_binary({"--version"}, &version) == 0);
  CHECK(version.rfind("verdict ", 0) == 0);
  CHECK(run_binary({"--no-such-flag"}, &bad_flag) == 2);
  CHECK(bad_flag.find("unknown flag --no-such-flag") != std::string::npos);
  CHECK(bad_flag.find("Usage: verdict") != std::string::npos); // a bad flag prints the usage
  CHECK(run_binary({"serve", "--port", "http"}) == 2);
}

TEST_CASE("process: a bad content file is refused whole, names each fault and changes nothing") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  const auto before = exported(db);

  // Valid in every part but the last tool, whose entry kind is unknown.
  auto bad = before;
  bad["tools"][0]["name"] = "Renamed by a bad file";
  bad["tools"][3]["entry"] = "Cheap";
  const auto bad_path = (dir.path / "bad.json").string();
  std::ofstream(bad_path) << bad.dump(2);
  std::string said;
  CHECK(run_binary({"import", "--db", db, bad_path}, &said) == 1);
  CHECK(said.find("tools[3].entry: must be one of Free, Paid, Freemium, Open weights") !=
        std::string::npos);
  CHECK(exported(db) == before);
}

TEST_CASE("process: importing the exported content twice changes nothing") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto file = (dir.path / "content.json").string();
  import_bundled_content(db);
  CHECK(run_binary({"export", "--db", db, file}) == 0);
  const auto before = exported(db);
  CHECK(run_binary({"import", "--db", db, file}) == 0);
  CHECK(run_binary({"import", "--db", db, file}) == 0);
  CHECK(exported(db) == before);
  CHECK(nlohmann::json::parse(test::source_file("content/verdict.json")) == before);
}

TEST_CASE("process: a new database is created with the bundled content") {
  test::TempDir dir;
  const auto db = (dir.path / "fresh.db").string();
  Server server({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", server.port);
  const auto home = client.Get("/");
  REQUIRE(home);
  CHECK(home->status == 200);
  CHECK(test::visible_text(home->body).find("Cursor Background Agent vs Codestral 2.1") !=
        std::string::npos);
  server.stop(SIGTERM);
  CHECK(exported(db) == nlohmann::json::parse(test::source_file("content/verdict.json")));
}

TEST_CASE("process: an existing database is opened as it is, never re-seeded") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  {
    Server first({"--db", db, "--port", "0"});
    httplib::Client client("127.0.0.1", first.port);
    const auto res =
        client.Post("/tools/codestral-2-1/vote", {{"Sec-Fetch-Site", "same-origin"}},
                    "verdict=ship&token=" + ripe_vote_token(client, "/tools/codestral-2-1/vote"),
                    "application/x-www-form-urlencoded");
    REQUIRE(res);
    CHECK(res->status == 303);
    first.stop(SIGTERM);
  }
  // The owner's own content, renamed by an import, is not put back to the bundled one either.
  auto renamed = exported(db);
  renamed["tools"][1]["name"] = "Codestral 2.1 (renamed by the owner)";
  const auto file = (dir.path / "renamed.json").string();
  std::ofstream(file) << renamed.dump();
  REQUIRE(run_binary({"import", "--db", db, file}) == 0);

  Server second({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", second.port);
  const auto page = client.Get("/tools/codestral-2-1");
  REQUIRE(page);
  CHECK(
      page->body.find("100%<span class=\"stat-basis\"><span class=\"stat-sep\"> · </span>1 vote") !=
      std::string::npos);
  CHECK(test::visible_text(page->body).find("Codestral 2.1 (renamed by the owner)") !=
        std::string::npos);
}

TEST_CASE("process: check finds an index that disagrees with its table") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  std::string healthy;
  CHECK(run_binary({"check", "--db", db}, &healthy) == 0);
  CHECK(healthy == "ok\n");
  {
    // The addresses were indexed case-blind; the table now claims they were not.
    sql::Db raw(db);
    raw.exec("INSERT INTO subscribers (email) VALUES ('a@example.com'), ('B@example.com'), "
             "('c@example.com'); PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = "
             "replace(sql, 'COLLATE NOCASE', '') WHERE name = 'subscribers'");
  }
  std::string said;
  CHECK(run_binary({"check", "--db", db}, &said) == 1);
  CHECK(said.find("missing from index") != std::string::npos);
}

TEST_CASE("process: check finds a vote for a tool that does not exist") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  // A connection without foreign key enforcement, as any other SQLite tool opens the file,
  // given the functions the vote log's triggers call (store/vote_log.h).
  sql::Db raw(db);
  vote_log::add_functions(raw);
  raw.exec("INSERT INTO tool_votes (voter, tool_id, verdict) VALUES ('" + std::string(32, 'a') +
           "', 999, 'ship')");
  std::string said;
  CHECK(run_binary({"check", "--db", db}, &said) == 1);
  CHECK(said.find("foreign key fault in tool_votes") != std::string::npos);
}

TEST_CASE("process: a database from a newer verdict is refused, not opened") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  const auto newer = Store(db).schema_version() + 1;
  sql::Db(db).exec("PRAGMA user_version = " + std::to_string(newer));
  std::string said;
  CHECK(run_binary({"--db", db, "--port", "0"}, &said) == 1);
  CHECK(said.find("newer than this verdict") != std::string::npos);
}

TEST_CASE("process: serve makes no site unasked, and none where one was") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  std::string said;
  // No file and no --demo: refused, saying how to make one, and nothing is made.
  CHECK(run_binary({"serve", "--db", db, "--port", "0"}, &said) == 1);
  CHECK(said.find("there is no file at " + db) != std::string::npos);
  CHECK(said.find("verdict init --db " + db) != std::string::npos);
  CHECK(said.find("--demo") != std::string::npos);
  CHECK_FALSE(fs::exists(db));
  // A site was there: its log remains beside the missing file. Even --demo makes nothing.
  { std::ofstream(db + "-wal") << "a log"; }
  { std::ofstream(db + ".served-1790000000") << "a copy"; }
  CHECK(run_binary({"serve", "--db", db, "--port", "0", "--demo"}, &said) == 1);
  CHECK(said.find("a site was there") != std::string::npos);
  CHECK(said.find(db + "-wal") != std::string::npos);
  CHECK(said.find(db + ".served-1790000000") != std::string::npos);
  CHECK_FALSE(fs::exists(db));
  CHECK(test::read_file(db + "-wal") == "a log");
  // Nothing of a site anywhere, and the demo asked for: made, and the log says so.
  fs::remove(db + "-wal");
  fs::remove(db + ".served-1790000000");
  Server server({"serve", "--db", db, "--port", "0"}); // the helper asks for --demo
  CHECK(server.log().find("making a demo site there with the bundled content") !=
        std::string::npos);
  httplib::Client client("127.0.0.1", server.port);
  CHECK(client.Get(test::kBundledComparison)->status == 200);
  server.stop(SIGTERM);
}

TEST_CASE("process: the binary alone, copied anywhere, serves the whole site") {
  test::TempDir dir;
  const auto binary = dir.path / "verdict";
  fs::copy_file(VERDICT_BINARY, binary);
  fs::create_directory(dir.path / "elsewhere");
  Server server({"--port", "0"}, binary.string(), (dir.path / "elsewhere").string());
  httplib::Client client("127.0.0.1", server.port);
  const auto home = client.Get("/");
  REQUIRE(home);
  CHECK(home->status == 200);
  const auto at = home->body.find("/static/style.");
  REQUIRE(at != std::string::npos);
  const auto css = client.Get(home->body.substr(at, home->body.find('"', at) - at).c_str());
  REQUIRE(css);
  CHECK(css->status == 200);
  CHECK(css->body.find("{") != std::string::npos);
  CHECK(client.Get(test::kBundledComparison)->status == 200);
  server.stop(SIGTERM);
  // The default database is ./verdict.db in the folder it was started from, and nothing else.
  CHECK(fs::exists(dir.path / "elsewhere" / "verdict.db"));
  size_t files = 0;
  for ([[maybe_unused]] const auto &entry : fs::directory_iterator(dir.path / "elsewhere"))
    ++files;
  CHECK(files == 1);
}

TEST_CASE("process: a request in flight when SIGTERM arrives is finished and kept") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0"});
  // A vote whose body is still on its way when the signal comes.
  httplib::Client reader("127.0.0.1", server.port);
  const std::string body =
      "verdict=ship&token=" + ripe_vote_token(reader, "/tools/codestral-2-1/vote");
  const std::string head = "POST /tools/codestral-2-1/vote HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Sec-Fetch-Site: same-origin\r\nContent-Type: "
                           "application/x-www-form-urlencoded\r\nConnection: close\r\n"
                           "Content-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n";
  test::RawConnection connection(server.port);
  // One whole request first, so this connection is surely being served when the signal comes.
  connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  REQUIRE(connection.read_until("ok\n").find("ok\n") != std::string::npos);
  connection.send(head + body.substr(0, 4));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread rest_of_body([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    connection.send(body.substr(4));
  });
  const int status = server.stop(SIGTERM);
  rest_of_body.join();
  const auto answer = connection.read_all();
  CHECK(answer.rfind("HTTP/1.1 303", 0) == 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(stored_votes(db) == 1);
}

TEST_CASE("process: a second verdict on the same port or the same database refuses to start") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server first({"--db", db, "--port", "0"});
  std::string said;
  CHECK(run_binary({"--db", (dir.path / "other.db").string(), "--demo", "--port",
                    std::to_string(first.port)},
                   &said) == 1);
  CHECK(said.find("address is in use") != std::string::npos);
  // The demo site made for it is taken away again: a failed start leaves no new file.
  CHECK(said.find("the demo site made for it is removed again") != std::string::npos);
  for (const auto &entry : fs::directory_iterator(dir.path))
    CHECK(entry.path().filename().string().rfind("other.db", 0) != 0);
  CHECK(run_binary({"--db", db, "--port", "0"}, &said) == 1);
  CHECK(said.find("already served by another verdict") != std::string::npos);
  // The first goes on serving every reader.
  httplib::Client client("127.0.0.1", first.port);
  for (int i = 0; i < 20; ++i)
    CHECK(client.Get("/healthz")->status == 200);
}

TEST_CASE("process: a database deleted or replaced under the server is noticed before a write") {
  const bool replace = GENERATE(false, true);
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  httplib::Client client("127.0.0.1", server.port);
  const auto form = "verdict=ship&token=" + ripe_vote_token(client, "/tools/codestral-2-1/vote");
  const auto vote = [&] { return ship_as_a_new_reader(client, form); };
  REQUIRE(vote()->status == 303);
  REQUIRE(client.Get("/healthz")->status == 200);
  REQUIRE(run_binary({"backup", "--db", db, backup}) == 0);
  if (replace)
    fs::rename(backup, db); // an owner "restoring" while the server runs
  else
    fs::remove(db);
  int acknowledged = 0;
  for (int i = 0; i < 20; ++i) {
    const auto res = vote();
    if (!res) FAIL("no answer; the server said: " << server.log());
    if (res->status == 303) {
      ++acknowledged;
    } else {
      CHECK(res->status == 503);
      CHECK(res->body.find("Nothing was changed") != std::string::npos);
    }
  }
  CHECK(acknowledged == 0);
  const auto health = client.Get("/healthz");
  CHECK(health->status == 503);
  CHECK(health->body.find(replace ? "replaced" : "gone") != std::string::npos);
  const auto deadline = steady_clock::now() + std::chrono::seconds(5);
  while (server.log().find("writes are refused") == std::string::npos &&
         steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(server.log().find("writes are refused") != std::string::npos);
  server.stop(SIGKILL);
  if (replace) CHECK(stored_votes(db) == 1); // the restored file holds what it held, whole
  if (replace) CHECK(check_database(db).empty());
}

TEST_CASE("process: a vote acknowledged before the database is deleted or moved under a quiet "
          "server is put back at its path within seconds, kept through a clean stop, and "
          "served after a restart") {
  const auto how = GENERATE(std::string("rm"), std::string("mv"), std::string("rm, then a vote"));
  INFO(how);
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto moved = (dir.path / "moved-away.db").string();
  {
    Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
    httplib::Client client("127.0.0.1", server.port);
    const auto form = "verdict=ship&token=" + ripe_vote_token(client, "/tools/codestral-2-1/vote");
    const auto vote = [&] { return ship_as_a_new_reader(client, form); };
    REQUIRE(vote()->status == 303);
    if (how == "mv")
      fs::rename(db, moved);
    else
      fs::remove(db);
    // Noticed without a write: the log says where every acknowledged write is, and the file
    // is at its path again.
    const auto deadline = steady_clock::now() + std::chrono::seconds(10);
    while (server.log().find("every write acknowledged before is in") == std::string::npos &&
           steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_THAT(server.log(), Catch::Contains("every write acknowledged before is in the file that "
                                             "was served: " +
                                             db + " (a copy"));
    CHECK(fs::exists(db));
    if (how == "rm, then a vote") CHECK(vote()->status == 503);
    CHECK(WIFEXITED(server.stop(SIGTERM)));
  }
  REQUIRE(fs::exists(db));
  CHECK(check_database(db).empty());
  CHECK(stored_votes(db) == 1);
  // Started again on its path, the site serves the vote.
  Server again({"--db", db, "--port", "0", "--rate-limit", "0"});
  httplib::Client client("127.0.0.1", again.port);
  const auto page = client.Get("/tools/codestral-2-1");
  REQUIRE(page);
  CHECK(page->body.find("1 vote") != std::string::npos);
}

namespace {

// Readers asking for pages on fresh connections, each on its own thread, until stopped:
// every answer is counted by status, and a request with no answer at all is counted apart.
class Readers {
public:
  Readers(int port, int count) {
    for (int i = 0; i < count; ++i)
      threads_.emplace_back([this, port, i] { read_until_stopped(port, i); });
  }
  ~Readers() { stop(); }
  void stop() {
    stop_ = true;
    for (auto &thread : threads_)
      if (thread.joinable()) thread.join();
  }
  std::atomic<int64_t> answered{0};
  std::atomic<int64_t> unanswered{0};
  std::atomic<int64_t> failed{0};    // answered with a status no reader should ever get (500…)
  std::vector<std::string> failures; // what those were: address, status, body's start
  std::mutex mutex_;

private:
  void read_until_stopped(int port, int offset) {
    const std::vector<std::string> paths = {test::kBundledComparison,
                                            "/tools/codestral-2-1",
                                            "/",
                                            "/tools",
                                            "/search?q=agent",
                                            "/no-such-page",
                                            "/tools/no-such-tool",
                                            "/methodology",
                                            "/healthz"};
    for (size_t n = static_cast<size_t>(offset); !stop_; ++n) {
      httplib::Client client("127.0.0.1", port); // a new connection each time
      client.set_connection_timeout(2);
      client.set_read_timeout(5);
      const auto &path = paths[n % paths.size()];
      const auto cookie = n % 2 ? "verdict_voter=" + new_voter_id(unix_now_ms()) : std::string();
      const auto res = cookie.empty() ? client.Get(path.c_str())
                                      : client.Get(path.c_str(), {{"Cookie", cookie}});
      if (!res) {
        ++unanswered;
        continue;
      }
      ++answered;
      // 429: a search past its network's CPU budget (middleware/cost_budget.h), a clean answer.
      if (res->status != 200 && res->status != 404 && res->status != 503 && res->status != 429) {
        ++failed;
        std::lock_guard lock(mutex_);
        failures.push_back(path + " " + std::to_string(res->status) + " " +
                           res->body.substr(0, 200));
      }
    }
  }
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

} // namespace

TEST_CASE("process: a database deleted, replaced or moved away under load leaves the server up "
          "until SIGTERM, every acknowledged vote in the file it served, and a restart sound") {
  const auto change = GENERATE(std::string("delete"), std::string("replace"), std::string("move"));
  INFO("the file was " << change << "d");
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  const auto moved = (dir.path / "served.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  int64_t in_backup = 0;
  {
    Voters voters(server.port, 4);
    Readers readers(server.port, 2);
    voters.wait_for(100);
    REQUIRE(run_binary({"backup", "--db", db, backup}) == 0);
    in_backup = stored_votes(backup);
    voters.wait_for(voters.acknowledged + 100);
    if (change == "delete") {
      fs::remove(db);
    } else if (change == "replace") {
      fs::rename(backup, db); // the served file is gone with its name
    } else {
      fs::rename(db, moved); // the served file lives on under another name
      fs::rename(backup, db);
    }
    // More readers than before, so new connections to the database are opened after the change.
    Readers more_readers(server.port, 6);
    // Polled until the server says it has noticed, and the new readers have been answered
    // pages after the change: under that load.
    httplib::Client client("127.0.0.1", server.port);
    int health = 0;
    for (const auto deadline = steady_clock::now() + std::chrono::seconds(15);
         (health != 503 || more_readers.answered == 0) && steady_clock::now() < deadline;) {
      const auto answer = client.Get("/healthz");
      REQUIRE(answer);
      health = answer->status;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(health == 503);
    CHECK(waitpid(server.pid(), nullptr, WNOHANG) == 0);
    voters.stop();
    readers.stop();
    more_readers.stop();
    CHECK(readers.unanswered + more_readers.unanswered == 0);
    for (const auto &failure : readers.failures)
      UNSCOPED_INFO(failure);
    for (const auto &failure : more_readers.failures)
      UNSCOPED_INFO(failure);
    CHECK(readers.failed + more_readers.failed == 0);
    CHECK(more_readers.answered > 0);
    const int status = server.stop(SIGTERM);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const auto log = server.log();
    INFO("the server said: " << log);
    CHECK(log.find("terminate called") == std::string::npos);
    CHECK(log.find("every write acknowledged before is in the file that was served") !=
          std::string::npos);
    // The log says where the votes are: the moved file, or a copy of the one deleted (at its
    // path, nothing being there) or replaced (beside it).
    std::string kept = moved;
    if (change == "delete") kept = db;
    if (change == "replace")
      for (const auto &entry : fs::directory_iterator(dir.path))
        if (entry.path().filename().string().starts_with("site.db.served-"))
          kept = entry.path().string();
    CHECK(log.find(kept) != std::string::npos);
    CHECK(check_database(kept).empty());
    CHECK(stored_votes(kept) >= voters.acknowledged);
  }
  // Nothing of the old file's log is left to be applied to what is at the path now.
  CHECK(check_database(db).empty());
  Server restarted({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", restarted.port);
  const auto page = client.Get(test::kBundledComparison);
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(client.Get("/healthz")->status == 200);
  CHECK(restarted.stop(SIGTERM) == 0);
  CHECK(check_database(db).empty());
  if (change != "delete") CHECK(stored_votes(db) == in_backup); // the replacement, intact
}

// What a server started on `db` said, after it served a page and stopped on SIGTERM.
std::string log_of_a_restart(const std::string &db) {
  Server restarted({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", restarted.port);
  REQUIRE(client.Get(test::kBundledComparison)->status == 200);
  CHECK(restarted.stop(SIGTERM) == 0);
  return restarted.log();
}

TEST_CASE("process: a restart after the file was replaced sets the old file's log aside, says "
          "so, and serves the replacement intact") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  int64_t in_backup = 0;
  {
    Voters voters(server.port, 4);
    voters.wait_for(100);
    REQUIRE(run_binary({"backup", "--db", db, backup}) == 0);
    in_backup = stored_votes(backup);
    voters.wait_for(voters.acknowledged + 200);
  }
  // Restored while it ran, and the server killed before it wrote again: the log beside the
  // path holds votes of the file that was served, not of this one.
  fs::rename(backup, db);
  server.stop(SIGKILL);
  REQUIRE(fs::exists(db + "-wal"));
  REQUIRE(fs::file_size(db + "-wal") > 0);
  const auto log = log_of_a_restart(db);
  INFO("the server said: " << log);
  CHECK(log.find("was written for another file than " + db) != std::string::npos);
  CHECK(log.find("set aside as " + db + "-wal.set-aside-") != std::string::npos);
  CHECK(check_database(db).empty());
  CHECK(stored_votes(db) == in_backup);
}

// A server on `db` killed (SIGKILL) after `votes` more acknowledged votes, some only in the
// log beside the file (checked: the file alone holds fewer); returns how many votes the site
// has acknowledged in all.
int64_t killed_with_votes_in_the_log(const std::string &db, int64_t votes) {
  const int64_t before = fs::exists(db) ? stored_votes(db) : 0;
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  Voters voters(server.port, 4);
  voters.wait_for(votes);
  voters.stop();
  server.stop(SIGKILL);
  REQUIRE(fs::exists(db + "-wal"));
  const auto file_alone = db + ".alone";
  fs::copy_file(db, file_alone);
  const auto in_file_alone = stored_votes(file_alone);
  const int64_t acknowledged = before + voters.acknowledged;
  INFO("the file alone holds " << in_file_alone << " of " << acknowledged << " votes");
  REQUIRE(in_file_alone < acknowledged);
  for (const auto *suffix : {"", "-wal", "-shm", "-wal-owner"})
    fs::remove(file_alone + suffix);
  return acknowledged;
}

TEST_CASE("process: after a crash, the log stays with its file whatever happens to the file's "
          "times and name: a touch, or a cp -p and a move back, loses no acknowledged vote") {
  for (const std::string change : {"touch", "cp -p"}) {
    DYNAMIC_SECTION(change) {
      test::TempDir dir;
      const auto db = (dir.path / "site.db").string();
      const auto acknowledged = killed_with_votes_in_the_log(db, 60);
      if (change == "touch") {
        fs::last_write_time(db, fs::last_write_time(db) + std::chrono::hours(3));
      } else { // the same bytes under a new inode, their times kept
        REQUIRE(std::system(("cp -p " + db + " " + db + ".copy").c_str()) == 0);
        fs::rename(db + ".copy", db);
      }
      const auto log = log_of_a_restart(db);
      INFO("the server said: " << log);
      CHECK(log.find("set aside") == std::string::npos);
      CHECK(check_database(db).empty());
      CHECK(stored_votes(db) >= acknowledged);
    }
  }
}

TEST_CASE("process: a backup copied over the file in place (the same inode, its times kept) "
          "beside the log of the file that was served: the log is set aside, the backup intact") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto backup = (dir.path / "backup.db").string();
  {
    Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
    Voters voters(server.port, 2);
    voters.wait_for(50);
    voters.stop();
    server.stop(SIGTERM);
  }
  REQUIRE(run_binary({"backup", "--db", db, backup}) == 0);
  const auto stamp_of = [](const std::string &path) {
    sql::Db file(path, sql::Db::Open::read_only);
    auto stamp = file.prepare("PRAGMA application_id");
    stamp.step();
    return stamp.int64(0);
  };
  CHECK(stamp_of(backup) != stamp_of(db)); // a copy of its own, though its bytes say the same
  const auto in_backup = stored_votes(backup);
  killed_with_votes_in_the_log(db, 60);
  const auto inode_of = [](const std::string &path) {
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    return info.st_ino;
  };
  const auto inode = inode_of(db);
  REQUIRE(std::system(("cp -p " + backup + " " + db).c_str()) == 0);
  REQUIRE(inode_of(db) == inode); // copied into the file, not put in its place
  // The owner's check of the restored file judges the log beside it as a start would.
  std::string checked;
  CHECK(run_binary({"check", "--db", db}, &checked) == 0);
  CHECK(checked.find("was written for another file than " + db) != std::string::npos);
  const auto log = log_of_a_restart(db);
  INFO("the server said: " << log);
  CHECK(check_database(db).empty());
  CHECK(stored_votes(db) == in_backup);
}

TEST_CASE("process: a record beside the file that no verdict wrote never stops a start: the log "
          "is kept, as SQLite would keep it") {
  test::TempDir dir;
  const auto killed = (dir.path / "killed.db").string();
  const auto acknowledged = killed_with_votes_in_the_log(killed, 30);
  int n = 0;
  for (const std::string record : {"x 1 2 3 settled\n", "99999999999999999999999 1 2 3 settled\n",
                                   "stamps -1 settled\n", "stamps\n", ""}) {
    INFO("the record: " << record);
    // The killed site as it was left, the log beside it, under a record of its own.
    const auto db = (dir.path / ("site-" + std::to_string(++n) + ".db")).string();
    fs::copy_file(killed, db);
    fs::copy_file(killed + "-wal", db + "-wal");
    std::ofstream(db + "-wal-owner") << record;
    const auto log = log_of_a_restart(db);
    INFO("the server said: " << log);
    CHECK(log.find("set aside") == std::string::npos);
    CHECK(stored_votes(db) >= acknowledged);
  }
}

TEST_CASE("process: the log's owner is judged by every stamp its record names: a crash in the "
          "middle of a checkpoint, the file at its new stamp, keeps the file's own log") {
  test::TempDir dir;
  const auto killed = (dir.path / "killed.db").string();
  const auto acknowledged = killed_with_votes_in_the_log(killed, 30);
  // The stamp in the file's header (SQLite's application id, 4 bytes big-endian at 68).
  std::ifstream header(killed, std::ios::binary);
  unsigned char bytes[4] = {};
  header.seekg(68);
  header.read(reinterpret_cast<char *>(bytes), sizeof bytes);
  REQUIRE(header);
  const uint32_t stamp = (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) |
                         (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]};
  REQUIRE(stamp != 0);
  const auto other = [&](uint32_t step) { return std::to_string(uint32_t(stamp + step)); };
  int n = 0;
  for (const auto &[record, own] : std::vector<std::pair<std::string, bool>>{
           // Stopped between the checkpoint's start and its end: the file's header already
           // carries the new stamp, the record still both.
           {"stamps " + other(1) + " " + std::to_string(stamp) + " checkpointing\n", true},
           {"stamps " + std::to_string(stamp) + " " + other(1) + " checkpointing\n", true},
           // Neither stamp is the file's: another file's log.
           {"stamps " + other(1) + " " + other(2) + " checkpointing\n", false}}) {
    INFO("the record: " << record);
    const auto db = (dir.path / ("site-" + std::to_string(++n) + ".db")).string();
    fs::copy_file(killed, db);
    fs::copy_file(killed + "-wal", db + "-wal");
    std::ofstream(db + "-wal-owner") << record;
    // The owner's check judges the log as a start would.
    std::string checked;
    run_binary({"check", "--db", db}, &checked);
    INFO("check said: " << checked);
    CHECK((checked.find("was written for another file than " + db) == std::string::npos) == own);
    if (!own) continue;
    const auto log = log_of_a_restart(db);
    INFO("the server said: " << log);
    CHECK(log.find("set aside") == std::string::npos);
    CHECK(stored_votes(db) >= acknowledged);
    CHECK(check_database(db).empty());
  }
}

// A small filesystem of its own (tmpfs; the suite runs as root, as CI does), unmounted after.
struct SmallDisk {
  explicit SmallDisk(const fs::path &at) : path(at) {
    fs::create_directories(path);
    mounted = std::system(("mount -t tmpfs -o size=2m tmpfs " + path.string()).c_str()) == 0;
  }
  ~SmallDisk() {
    // A disk that will not come off stays under the test's own folder: nothing more to do.
    if (mounted && std::system(("umount -l " + path.string()).c_str()) != 0) return;
  }
  fs::path path;
  bool mounted = false;
};

// A site's file on a small disk of its own (SmallDisk), in a folder that goes with the test.
struct SiteOnSmallDisk {
  SiteOnSmallDisk() {
    INFO("mounting a 2 MiB tmpfs needs root (CI runs as root)");
    REQUIRE(disk.mounted);
  }
  test::TempDir dir;
  SmallDisk disk{dir.path / "small"};
  std::string db = (disk.path / "site.db").string();
};

TEST_CASE("process: a read-only file is served read-only: every page, and each write answered "
          "503 saying why, with nothing written") {
  SiteOnSmallDisk site;
  const auto &db = site.db;
  const auto &disk = site.disk;
  {
    Server made({"--db", db, "--port", "0"});
    httplib::Client client("127.0.0.1", made.port);
    REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
    REQUIRE(made.stop(SIGTERM) == 0);
  }
  const auto votes_before = stored_votes(db);
  REQUIRE(std::system(("mount -o remount,ro " + disk.path.string()).c_str()) == 0);

  Server server({"--db", db, "--port", "0"});
  CHECK(server.log().find("is mounted read-only: serving " + db + " read-only") !=
        std::string::npos);
  httplib::Client client("127.0.0.1", server.port);
  const auto page = client.Get(test::kBundledComparison);
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(client.Get("/tools/codestral-2-1")->status == 200);
  const auto vote = test::post_form(client, "/tools/codestral-2-1/vote", "verdict=skip");
  REQUIRE(vote);
  CHECK(vote->status == 503);
  CHECK(test::visible_text(vote->body).find("This site is read-only for now") != std::string::npos);
  const auto subscribe = test::post_form(client, "/subscribe", "email=reader%40example.com");
  REQUIRE(subscribe);
  CHECK(subscribe->status == 503);
  const auto health = client.Get("/healthz");
  REQUIRE(health);
  CHECK(health->status == 503);
  CHECK(health->body.find("read-only") != std::string::npos);
  CHECK(server.stop(SIGTERM) == 0);
  CHECK(stored_votes(db) == votes_before);
}

TEST_CASE("process: a site whose disk filled and that was stopped cleanly starts again on the "
          "full disk, serves its pages, and holds every acknowledged vote once there is room") {
  SiteOnSmallDisk site;
  const auto &db = site.db;
  const auto &disk = site.disk;
  {
    Server made({"--db", db, "--port", "0"});
    REQUIRE(made.stop(SIGTERM) == 0);
  }
  const auto bundled = stored_votes(db);
  // All but a few hundred KiB taken by something else: the votes fill the rest.
  const auto filler = disk.path / "filler";
  {
    std::ofstream out(filler, std::ios::binary);
    const std::string block(4096, 'x');
    while (fs::space(disk.path).available > 300 * 1024 && out.write(block.data(), block.size()))
      out.flush();
  }
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  int64_t acknowledged = 0;
  {
    Voters voters(server.port, 4);
    // Until the disk is full (votes then answer 503) or long enough that it should be.
    const auto deadline = steady_clock::now() + std::chrono::seconds(30);
    while (fs::space(disk.path).available > 8192 && steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::seconds(1));
    voters.stop();
    acknowledged = voters.acknowledged;
  }
  CHECK(acknowledged > 0);
  // Not a page left when it stops: it cannot copy its log into the file, or note that it did.
  {
    std::ofstream out(filler, std::ios::binary | std::ios::app);
    const std::string block(4096, 'x');
    while (out.write(block.data(), block.size()) && out.flush()) {
    }
  }
  CHECK(fs::space(disk.path).available == 0);
  CHECK(server.stop(SIGTERM) == 0);

  {
    const auto on_full_disk = log_of_a_restart(db);
    INFO("the server said: " << on_full_disk);
    CHECK(on_full_disk.find("set aside") == std::string::npos);
  }
  fs::remove(filler);
  CHECK(check_database(db).empty());
  CHECK(stored_votes(db) >= bundled + acknowledged);
}

TEST_CASE("process: serve says where the desk is and whether anyone can sign in, whether mail "
          "goes out and whether the public address is set, and an unknown command says so and "
          "lists every command") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  {
    Server fresh({"--db", db, "--port", "0"});
    fresh.stop(SIGTERM); // all it said on start is in its log then
    const auto log = fresh.log();
    CHECK(log.find("The desk: http://127.0.0.1:" + std::to_string(fresh.port) + "/admin") !=
          std::string::npos);
    CHECK(log.find("no editor yet; add one with: " + std::string(VERDICT_BINARY) +
                   " user add EMAIL --db " + db) != std::string::npos);
    CHECK(log.find("Mail: off (no --smtp)") != std::string::npos);
    CHECK(log.find("Public address: not set (--base-url)") != std::string::npos);
  }
  const auto password = (dir.path / "password.txt").string();
  std::ofstream(password) << "a long enough password\n";
  REQUIRE(run_binary({"user", "add", "editor@example.com", "--db", db}, nullptr, password) == 0);
  {
    Server set_up({"--db", db, "--port", "0", "--base-url", "https://verdict.example"});
    set_up.stop(SIGTERM);
    const auto log = set_up.log();
    CHECK(log.find("/admin — 1 editor") != std::string::npos);
    CHECK(log.find("no editor yet") == std::string::npos);
    CHECK(log.find("Public address: https://verdict.example") != std::string::npos);
  }

  std::string said;
  CHECK(run_binary({"frobnicate"}, &said) == 2);
  CHECK(said.find("unknown command frobnicate") != std::string::npos);
  for (const auto *line :
       {"  serve ", "  import ", "  verify ", "  backup ", "  user ", "  digest "})
    CHECK(said.find(line) != std::string::npos);
  CHECK(said.find("serve takes no arguments") == std::string::npos);
}

TEST_CASE("process: check refuses an empty file and an SQLite file that is not a site, and "
          "serve refuses to open them") {
  test::TempDir dir;
  const auto empty = (dir.path / "empty.db").string();
  std::ofstream(empty).close();
  const auto other = (dir.path / "other.db").string();
  {
    sql::Db db(other);
    db.exec("CREATE TABLE notes (body TEXT)");
  }
  std::string said;
  CHECK(run_binary({"check", "--db", empty}, &said) == 1);
  CHECK(said.find("is empty (0 bytes), not a Verdict database") != std::string::npos);
  CHECK(run_binary({"check", "--db", other}, &said) == 1);
  CHECK(said.find("not a Verdict database") != std::string::npos);
  CHECK(run_binary({"serve", "--db", empty, "--port", "0"}, &said) == 1);
  CHECK(said.find("is empty (0 bytes)") != std::string::npos);
  CHECK(fs::file_size(empty) == 0); // left as it was
  CHECK(run_binary({"serve", "--db", other, "--port", "0"}, &said) == 1);
  CHECK(said.find("not a Verdict database") != std::string::npos);
}

TEST_CASE("process: content imported while the site runs reaches every reader within a second") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", server.port);
  REQUIRE(client.Get("/tools/codestral-2-1")->status == 200); // cached for anonymous readers
  auto renamed = exported(db);
  renamed["tools"][1]["name"] = "Codestral 2.1 (renamed while serving)";
  const auto file = (dir.path / "renamed.json").string();
  std::ofstream(file) << renamed.dump();
  REQUIRE(run_binary({"import", "--db", db, file}) == 0);
  bool seen = false;
  std::string last;
  const auto deadline = steady_clock::now() + std::chrono::seconds(3);
  while (!seen && steady_clock::now() < deadline) {
    const auto page = client.Get("/tools/codestral-2-1");
    seen = page->body.find("renamed while serving") != std::string::npos;
    last = page->body.substr(page->body.find("<title>"), 120);
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO(last);
  CHECK(seen);
}

TEST_CASE("process: a vote shows to its voter at once and to anonymous readers within a second") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", server.port);
  client.set_keep_alive(true);
  const std::string page = "/compare/cursor-background-agent-vs-codestral-2-1";
  const auto before = client.Get(page.c_str())->body;
  REQUIRE(client.Get(page.c_str())->body == before); // kept for anonymous readers
  const auto form = "pick=a&token=" + ripe_vote_token(client, page + "/vote");
  const auto voter =
      test::cookie_from(client.Post((page + "/vote").c_str(), {{"Sec-Fetch-Site", "same-origin"}},
                                    form, "application/x-www-form-urlencoded"));
  REQUIRE(voter.size() == 32);
  const auto own = client.Get(page.c_str(), {{"Cookie", "verdict_voter=" + voter}})->body;
  CHECK(own.find("Withdraw my pick") != std::string::npos);

  bool seen = false;
  const auto deadline = steady_clock::now() + std::chrono::seconds(3);
  while (!seen && steady_clock::now() < deadline) {
    seen = client.Get(page.c_str())->body != before;
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(seen);
}

TEST_CASE("process: SIGTERM ends the server within 10 s whatever a client trickles") {
  test::TempDir dir;
  Server server({"--db", (dir.path / "site.db").string(), "--port", "0"});
  test::RawConnection trickler(server.port);
  trickler.send("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    while (!stop) {
      trickler.send("a");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const auto started = steady_clock::now();
  const int status = server.stop(SIGTERM);
  const auto took = steady_clock::now() - started;
  stop = true;
  trickle.join();
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(took < std::chrono::seconds(10));
}

TEST_CASE("process: memory stays bounded under a flood of distinct addresses and clients") {
  test::TempDir dir;
  Server server(
      {"--db", (dir.path / "site.db").string(), "--port", "0", "--trusted-proxy", "127.0.0.1"});
  httplib::Client client("127.0.0.1", server.port);
  for (int i = 0; i < 6000; ++i) {
    const auto n = std::to_string(i);
    client.Get(("/compare/cursor-background-agent-vs-codestral-2-1?x=" + n).c_str());
    client.Get(("/tools/no-such-tool-" + n).c_str());
    client.Post("/tools/codestral-2-1/vote",
                {{"Sec-Fetch-Site", "same-origin"}, {"X-Forwarded-For", "10.0." + n}},
                "verdict=maybe", "application/x-www-form-urlencoded");
  }
  std::ifstream status("/proc/" + std::to_string(server.pid()) + "/status");
  long rss_kb = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) rss_kb = std::stol(line.substr(6));
  INFO("RSS " << rss_kb << " kB");
  CHECK(rss_kb > 0);
#ifndef VERDICT_SANITIZED
  CHECK(rss_kb < 100 * 1024);
#endif
  httplib::Client after("127.0.0.1", server.port);
  CHECK(after.Get("/healthz")->status == 200);
}

TEST_CASE("process: import into an empty site makes a site of the file's content alone, and says "
          "what it created and updated, and into a path that holds no site it makes nothing") {
  test::TempDir dir;
  const auto db = (dir.path / "new.db").string();
  const auto file = (dir.path / "mine.json").string();
  nlohmann::json mine = {
      {"site", {{"site_name", "Model Notes"}}},
      {"categories", {{{"slug", "agents"}, {"name", "Agents"}}}},
      {"reviewers", nlohmann::json::array()},
      {"tools",
       {{{"slug", "tool-one"},
         {"name", "Tool One"},
         {"category", "agents"},
         {"tagline", "The first."},
         {"description", "A tool."},
         {"entry", "Free"}},
        {{"slug", "tool-two"},
         {"name", "Tool Two"},
         {"category", "agents"},
         {"tagline", "The second."},
         {"description", "Another tool."},
         {"entry", "Paid"}}}},
      {"reviews", nlohmann::json::array()},
      {"comparisons",
       {{{"a", "tool-one"},
         {"b", "tool-two"},
         {"published_on", "2026-11-01"},
         {"bottom_line", "Ship with Tool One if first.\nShip with Tool Two if second."}}}}};
  std::ofstream(file) << mine.dump(2);

  std::string said;
  // A mistyped path is not made a site.
  CHECK(run_binary({"import", "--db", db, file}, &said) == 1);
  CHECK(said.find("no database at " + db) != std::string::npos);
  CHECK(said.find(" init --db " + db + "` makes a new site") != std::string::npos);
  CHECK_FALSE(fs::exists(db));
  REQUIRE(run_binary({"init", "--db", db, "--empty"}) == 0);
  REQUIRE(run_binary({"import", "--db", db, file}, &said) == 0);
  CHECK(said.find("created 1 category, 2 tools and 1 comparison") != std::string::npos);
  const auto site = exported(db);
  CHECK(site["tools"].size() == 2); // none of the bundled demo's
  CHECK(site["tools"][0]["slug"] == "tool-one");
  CHECK(site["comparisons"].size() == 1);
  CHECK(site["site"]["site_name"] == "Model Notes");

  REQUIRE(run_binary({"import", "--db", db, file}, &said) == 0);
  CHECK(said.find("nothing changed") != std::string::npos);

  mine["tools"][1]["tagline"] = "The second, renamed.";
  mine["categories"].push_back({{"slug", "models"}, {"name", "Models"}});
  std::ofstream(file) << mine.dump(2);
  REQUIRE(run_binary({"import", "--db", db, file}, &said) == 0);
  CHECK(said.find("created 1 category; updated 1 tool") != std::string::npos);
}

TEST_CASE("process: export, check and backup refuse a database that does not exist, and make "
          "none") {
  test::TempDir dir;
  const auto missing = (dir.path / "missing.db").string();
  for (const auto &args :
       {std::vector<std::string>{"export", "--db", missing},
        std::vector<std::string>{"check", "--db", missing},
        std::vector<std::string>{"backup", "--db", missing, (dir.path / "copy.db").string()}}) {
    INFO(args[0]);
    std::string said;
    CHECK(run_binary(args, &said) == 1);
    CHECK(said.find("no database at " + missing) != std::string::npos);
    // What makes one: init, named as it works where the owner is (the binary as they ran it).
    CHECK(said.find("`" + std::string(VERDICT_BINARY) + " init --db " + missing +
                    "` makes a new site") != std::string::npos);
    CHECK_FALSE(fs::exists(missing));
  }
  CHECK_FALSE(fs::exists(dir.path / "copy.db"));
}

TEST_CASE("process: export keeps an existing file unless told --force") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto file = (dir.path / "content.json").string();
  import_bundled_content(db);
  std::ofstream(file) << "my notes";
  std::string said;
  CHECK(run_binary({"export", "--db", db, file}, &said) == 1);
  CHECK(said.find(file + " exists; pass --force to overwrite it") != std::string::npos);
  CHECK(test::read_file(file) == "my notes");
  CHECK(run_binary({"export", "--db", db, file, "--force"}) == 0);
  CHECK(nlohmann::json::parse(test::read_file(file)) == exported(db));
}

TEST_CASE("process: a content file that is not JSON is refused with its line and column") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto file = (dir.path / "broken.json").string();
  std::ofstream(file) << "{\n  \"categories\": [\n    {\"slug\": \"a\" \"name\": \"A\"}\n  ]\n}\n";
  REQUIRE(run_binary({"init", "--db", db, "--empty"}) == 0);
  const auto before = exported(db);
  std::string said;
  CHECK(run_binary({"import", "--db", db, file}, &said) == 1);
  CHECK(said.find("broken.json: file: not valid JSON at line 3, column 23") != std::string::npos);
  CHECK(exported(db) == before);
}

TEST_CASE("process: help names every command and says more about each one") {
  std::string overview;
  CHECK(run_binary({"help"}, &overview) == 0);
  for (const auto *command :
       {"serve", "import", "export", "check", "backup", "user", "log", "subscribers"}) {
    INFO(command);
    CHECK(overview.find(command) != std::string::npos);
    std::string asked, flagged;
    CHECK(run_binary({"help", command}, &asked) == 0);
    CHECK(run_binary({command, "--help"}, &flagged) == 0);
    CHECK(asked == flagged);
    CHECK(asked.starts_with("Usage: verdict"));
    CHECK(std::count(asked.begin(), asked.end(), '\n') >= 3); // more than the one line
    CHECK(asked != overview);
  }
  std::string said;
  CHECK(run_binary({"help", "frobnicate"}, &said) == 2);
  CHECK(said.find("no command frobnicate") != std::string::npos);
}

TEST_CASE("process: the owner adds, lists, re-passwords and removes editors, passwords read "
          "from standard input") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto input = (dir.path / "password.txt").string();
  const auto with_password = [&](const std::string &password) {
    std::ofstream(input) << password << "\n";
    return input;
  };
  std::string said;
  // A path that holds no site: nothing made, and init named.
  CHECK(run_binary({"user", "add", "Ada@Example.com", "--db", db}, &said,
                   with_password("a first password")) == 1);
  CHECK(said.find("no database at " + db) != std::string::npos);
  CHECK(said.find(" init --db " + db + "` makes a new site") != std::string::npos);
  CHECK(said.find("may now sign in") == std::string::npos);
  CHECK_FALSE(fs::exists(db));
  REQUIRE(run_binary({"init", "--db", db, "--example-content"}) == 0);
  REQUIRE(run_binary({"user", "add", "Ada@Example.com", "--db", db}, &said,
                     with_password("a first password")) == 0);
  CHECK(said.find("Ada@Example.com may now sign in at /admin") != std::string::npos);
  CHECK(exported(db) == nlohmann::json::parse(test::source_file("content/verdict.json")));
  {
    Store store(db);
    const auto ada = store.editor_by_email("ada@example.com");
    REQUIRE(ada);
    CHECK(auth::password_matches(ada->password_hash, "a first password"));
  }
  CHECK(run_binary({"user", "add", "ada@example.com", "--db", db}, &said,
                   with_password("another password")) == 1);
  CHECK(said.find("already an editor") != std::string::npos);
  CHECK(run_binary({"user", "add", "bob@example.com", "--db", db}, &said, with_password("short")) ==
        1);
  CHECK(said.find("must be at least 10 characters; nothing changed") != std::string::npos);
  CHECK(run_binary({"user", "add", "bob@example.com", "--db", db}, &said) == 1); // no input
  CHECK(said.find("no password given") != std::string::npos);

  std::string listed;
  REQUIRE(run_binary({"user", "list", "--db", db}, &listed) == 0);
  CHECK(listed.find("ada@example.com") != std::string::npos);
  CHECK(listed.find("bob@example.com") == std::string::npos);

  REQUIRE(run_binary({"user", "passwd", "ada@example.com", "--db", db}, &said,
                     with_password("a second password")) == 0);
  {
    Store store(db);
    CHECK(auth::password_matches(store.editor_by_email("ada@example.com")->password_hash,
                                 "a second password"));
  }
  CHECK(run_binary({"user", "passwd", "nobody@example.com", "--db", db}, &said,
                   with_password("a third password")) == 1);
  CHECK(said.find("nobody@example.com is not an editor") != std::string::npos);

  REQUIRE(run_binary({"user", "remove", "ada@example.com", "--db", db}, &said) == 0);
  REQUIRE(run_binary({"user", "list", "--db", db}, &listed) == 0);
  CHECK(listed.find("ada@example.com") == std::string::npos);
  CHECK(listed.find("no editors yet") != std::string::npos);
}

TEST_CASE("process: user commands refuse what they cannot do, and a password is never a flag") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  std::string said;
  CHECK(run_binary({"user", "list", "--db", db}, &said) == 1);
  CHECK(said.find("no database at") != std::string::npos);
  CHECK(run_binary({"user", "add", "not-an-address", "--db", db}, &said) == 2);
  CHECK(said.find("not-an-address is not an email address") != std::string::npos);
  CHECK(run_binary({"user", "add", "a@example.com", "--password", "x", "--db", db}, &said) == 2);
  CHECK(said.find("unknown flag --password") != std::string::npos);
  CHECK(run_binary({"user", "frob", "--db", db}, &said) == 2);
  CHECK_FALSE(fs::exists(db));
}

TEST_CASE("process: verdict log prints the desk's changes, newest first, with before and after") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  std::string said;
  REQUIRE(run_binary({"log", "--db", db}, &said) == 0);
  CHECK(said.find("Nothing has been changed at the desk yet.") != std::string::npos);
  {
    Store store(db);
    test::create_category(store, {"plans", "Plans"}, "ed@example.com");
    test::update_category(store, "plans", {"plans", "Plans and more"}, "ed@example.com");
  }
  REQUIRE(run_binary({"log", "--db", db}, &said) == 0);
  const auto updated = said.find("ed@example.com updated category plans");
  const auto created = said.find("ed@example.com created category plans");
  REQUIRE(updated != std::string::npos);
  REQUIRE(created != std::string::npos);
  CHECK(updated < created);
  CHECK(said.find("before: {\"slug\":\"plans\",\"name\":\"Plans\"}") != std::string::npos);
  CHECK(said.find("after:  {\"slug\":\"plans\",\"name\":\"Plans and more\"}") != std::string::npos);
  CHECK(run_binary({"log", "--db", (dir.path / "missing.db").string()}, &said) == 1);
}

TEST_CASE("process: verdict subscribers export writes the list as CSV") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  import_bundled_content(db);
  {
    Store store(db);
    test::request_subscription(store, "ada@example.com", unix_now());
    test::request_subscription(store, "+44@example.com", unix_now());
  }
  std::string said;
  REQUIRE(run_binary({"subscribers", "export", "--db", db}, &said) == 0);
  CHECK(said.starts_with("\"email\",\"subscribed_at\",\"status\"\r\n\"ada@example.com\",\"20"));
  CHECK(said.find("\",\"pending\"\r\n") != std::string::npos);
  CHECK(said.find("\"'+44@example.com\"") != std::string::npos);
  CHECK(run_binary({"subscribers", "--db", db}, &said) == 2);
}

TEST_CASE("process: --base-url makes canonical links and the sitemap absolute under it") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  Server server({"--db", db, "--port", "0", "--base-url", "https://verdict.example"});
  httplib::Client client("127.0.0.1", server.port);
  const auto page = client.Get(test::kBundledComparison);
  REQUIRE(page);
  CHECK(page->body.find(std::string("<link rel=\"canonical\" href=\"https://verdict.example") +
                        test::kBundledComparison + "\">") != std::string::npos);
  CHECK(page->body.find(std::string("<meta property=\"og:url\" content=\"https://verdict.example") +
                        test::kBundledComparison + "\">") != std::string::npos);
  CHECK(client.Get("/sitemap.xml")->body.find("<loc>https://verdict.example/tools/") !=
        std::string::npos);
  CHECK(client.Get("/robots.txt")->body.find("Sitemap: https://verdict.example/sitemap.xml") !=
        std::string::npos);
}

namespace {

// `verdict serve` on `db`, sending confirmation mails through `sink`. The public address is
// the proxy's; the test reaches the server directly.
std::vector<std::string> mailing_server(const std::string &db, const test::SmtpSink &sink) {
  return {"--db",        db,
          "--port",      "0",
          "--base-url",  "https://verdict.example",
          "--smtp",      sink.url(),
          "--smtp-from", "news@verdict.example"};
}

// reader@example.com signs up, as the form on the site's own pages sends it.
httplib::Result sign_up_reader(httplib::Client &client) {
  return client.Post("/subscribe", {{"Sec-Fetch-Site", "same-origin"}},
                     "email=reader%40example.com", "application/x-www-form-urlencoded");
}

} // namespace

TEST_CASE("process: verdict serve --smtp mails a sign-up its confirmation link, which confirms") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  test::SmtpSink sink(dir.path / "mail");
  Server server(mailing_server(db, sink));
  httplib::Client client("127.0.0.1", server.port);
  const auto signed_up = sign_up_reader(client);
  REQUIRE(signed_up);
  CHECK(signed_up->status == 303);
  const auto mails = sink.wait_for(1);
  REQUIRE(mails.size() == 1);
  const auto link = test::link_starting(test::mail_part(mails[0], "text/plain"),
                                        "https://verdict.example/confirm/");
  REQUIRE(!link.empty());
  const auto path = link.substr(std::string("https://verdict.example").size());
  CHECK(client.Get(path.c_str())->status == 200);
  const auto confirmed = client.Post(path.c_str(), {{"Sec-Fetch-Site", "same-origin"}}, "",
                                     "application/x-www-form-urlencoded");
  CHECK(confirmed->status == 200);
  CHECK(client.Get(path.c_str())->status == 410); // used
  server.stop(SIGTERM);
  std::string csv;
  REQUIRE(run_binary({"subscribers", "export", "--db", db}, &csv) == 0);
  CHECK(csv.find("\"reader@example.com\"") != std::string::npos);
  CHECK(csv.find("\"confirmed\"") != std::string::npos);
}

TEST_CASE("digest: SIGTERM ends the server promptly while a confirmation mail is stuck on a mail "
          "server that never answers") {
  test::TempDir dir;
  test::SmtpSink hung(dir.path / "mail", {"--fail-after", "0", "--fail-with", "hang"});
  Server server(mailing_server((dir.path / "site.db").string(), hung));
  httplib::Client client("127.0.0.1", server.port);
  const auto signed_up = sign_up_reader(client);
  REQUIRE(signed_up);
  REQUIRE(signed_up->status == 303);
  // The whole mail went out and the server sits on its answer.
  const auto deadline = steady_clock::now() + std::chrono::seconds(20);
  while (!fs::exists(dir.path / "mail" / "hanging") && steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(fs::exists(dir.path / "mail" / "hanging"));
  const auto started = steady_clock::now();
  const int status = server.stop(SIGTERM);
  const auto took = steady_clock::now() - started;
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(server.log().find("stopped cleanly") != std::string::npos);
  // Within systemd's 15 s (deploy/verdict.service), as any shutdown is (10 s).
  CHECK(took < std::chrono::seconds(10));
}

TEST_CASE("process: init makes a new site, empty unless the examples are asked for, and its first "
          "editor, and never touches a site that exists") {
  test::TempDir dir;
  const auto password = (dir.path / "password.txt").string();
  std::ofstream(password) << "a long enough password\n";
  std::string said;

  const auto empty = (dir.path / "empty.db").string();
  REQUIRE(run_binary({"init", "--db", empty, "--empty", "--editor", "ed@example.com"}, &said,
                     password) == 0);
  CHECK(said.find("made a new site at " + empty + ", empty") != std::string::npos);
  CHECK(said.find("ed@example.com may now sign in at /admin") != std::string::npos);
  {
    Store store(empty);
    CHECK(store.tools_by_name().empty());
    CHECK(store.published_comparisons({1, 10}).items.empty());
    CHECK(store.site_copy().site_name == "Verdict"); // the site's copy, no examples
    const auto editor = store.editor_by_email("ed@example.com");
    REQUIRE(editor);
    CHECK(auth::password_matches(editor->password_hash, "a long enough password"));
  }
  {
    // An empty site serves a front page that says nothing is published yet.
    Server served({"--db", empty, "--port", "0"});
    httplib::Client client("127.0.0.1", served.port);
    const auto home = client.Get("/");
    REQUIRE(home);
    CHECK(home->status == 200);
    const auto text = test::visible_text(home->body);
    CHECK(text.find("Nothing published yet") != std::string::npos);
    CHECK(text.find("Latest comparisons") == std::string::npos);
    CHECK(text.find("The reviewer panel") == std::string::npos);
    for (const auto *list : {"/tools", "/comparisons", "/reviewers", "/categories"}) {
      INFO(list);
      CHECK(client.Get(list)->status == 200);
    }
  }

  // Neither flag and no terminal to ask on: empty, a production site's start.
  const auto unasked = (dir.path / "unasked.db").string();
  REQUIRE(run_binary({"init", "--db", unasked}, &said) == 0);
  CHECK(said.find("made a new site at " + unasked + ", empty") != std::string::npos);
  CHECK(Store(unasked).tools_by_name().empty());
  // Both flags: a mistake, and nothing made.
  const auto both = (dir.path / "both.db").string();
  CHECK(run_binary({"init", "--db", both, "--empty", "--example-content"}, &said) == 2);
  CHECK(said.find("--empty and --example-content ask for two different sites") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(both));

  // With the examples; no editor named and no terminal: none yet, and how to add one.
  const auto examples = (dir.path / "examples.db").string();
  REQUIRE(run_binary({"init", "--db", examples, "--example-content"}, &said) == 0);
  CHECK(said.find("with the bundled example comparisons") != std::string::npos);
  CHECK(said.find("no editor yet: `" + std::string(VERDICT_BINARY) + " user add EMAIL --db " +
                  examples + "`") != std::string::npos);
  {
    Store store(examples);
    CHECK(store.tools_by_name().size() == 8);
    CHECK(store.editors().empty());
  }

  // A site that exists is left as it is.
  const auto size_before = fs::file_size(examples);
  CHECK(run_binary({"init", "--db", examples, "--empty"}, &said) == 1);
  CHECK(said.find(examples + " exists already") != std::string::npos);
  CHECK(fs::file_size(examples) == size_before);
  CHECK(Store(examples).tools_by_name().size() == 8);

  // A bad address makes nothing; init's flags are init's alone.
  const auto nothing = (dir.path / "nothing.db").string();
  CHECK(run_binary({"init", "--db", nothing, "--editor", "not-an-address"}, &said) == 2);
  CHECK_FALSE(fs::exists(nothing));
  CHECK(run_binary({"serve", "--db", nothing, "--empty"}, &said) == 2);
  CHECK(said.find("--empty is only for init") != std::string::npos);
  CHECK_FALSE(fs::exists(nothing));
  // A password refused makes nothing, and says so once.
  const auto short_password = (dir.path / "short.txt").string();
  std::ofstream(short_password) << "short\n";
  said.clear();
  CHECK(run_binary({"init", "--db", nothing, "--editor", "ed@example.com"}, &said,
                   short_password) == 1);
  CHECK(said.find("nothing made") != std::string::npos);
  CHECK(said.find("made a new site") == std::string::npos);
  CHECK(said.find("nothing changed") == std::string::npos);
  CHECK_FALSE(fs::exists(nothing));
  // Nor does `user add`, on a path that holds no site: it names init.
  said.clear();
  CHECK(run_binary({"user", "add", "ed@example.com", "--db", nothing}, &said, short_password) == 1);
  CHECK(said.find("no database at " + nothing) != std::string::npos);
  CHECK_FALSE(fs::exists(nothing));
  // No file is made where none was named.
  const auto here = fs::current_path() / "verdict.db";
  const bool was_here = fs::exists(here);
  said.clear();
  CHECK(run_binary({"init"}, &said) == 2);
  CHECK(said.find("init needs --db PATH") != std::string::npos);
  CHECK(fs::exists(here) == was_here);
}

TEST_CASE("process: init on a terminal asks whether to start with the examples, and makes an "
          "empty site unless the answer is yes") {
  test::TempDir dir;
  // A terminal of its own for init (util-linux's script), the owner's answers typed into it:
  // the examples' question, then an empty address (no editor yet).
  const auto init_on_a_terminal = [&](const std::string &name, const std::string &answer) {
    const auto db = (dir.path / name).string();
    const auto said = (dir.path / (name + ".said")).string();
    const auto command = "printf '" + answer + "\\n\\n' | script -qec '" +
                         std::string(VERDICT_BINARY) + " init --db " + db + "' /dev/null >" + said +
                         " 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    INFO(test::read_file(said));
    CHECK(test::read_file(said).find("Start with the bundled example comparisons") !=
          std::string::npos);
    return Store(db).tools_by_name().size();
  };
  CHECK(init_on_a_terminal("yes.db", "y") == 8);
  CHECK(init_on_a_terminal("no.db", "n") == 0);
  CHECK(init_on_a_terminal("enter.db", "") == 0); // the default is no
}

TEST_CASE("process: a nightly copy that fails its check is removed, says why and exits 1, and "
          "the older copies stay") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto folder = dir.path / "backups";
  import_bundled_content(db);
  REQUIRE(run_binary({"backup", "--db", db, "--into", folder.string()}) == 0);
  const auto good = fs::directory_iterator(folder)->path();
  CHECK((fs::status(good).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write)); // a nightly copy is its owner's alone

  // A tool pointing at a category that is not there: the copy is faithful to it, so it fails
  // the check a copy must pass.
  sql::Db(db).exec("PRAGMA foreign_keys = OFF; "
                   "UPDATE tools SET category_id = 999999 WHERE id = (SELECT min(id) FROM tools)");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100)); // a copy name of its own
  std::string said;
  CHECK(run_binary({"backup", "--db", db, "--into", folder.string()}, &said) == 1);
  CHECK_THAT(said, Catch::Contains("foreign key fault in tools"));
  CHECK_THAT(said, Catch::Contains("the copy failed its check and was removed; older copies are "
                                   "kept"));
  std::vector<fs::path> kept;
  for (const auto &entry : fs::directory_iterator(folder))
    kept.push_back(entry.path());
  REQUIRE(kept.size() == 1);
  CHECK(kept.front() == good);
  CHECK(run_binary({"check", "--db", good.string()}) == 0);
}

TEST_CASE("process: nightly backups go into a folder of dated, checked copies, only the newest "
          "kept, and the restore steps bring the site back as it was backed up") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  const auto folder = dir.path / "backups";
  Server server({"--db", db, "--port", "0", "--rate-limit", "0"});
  Voters voters(server.port, 1);
  voters.wait_for(20);
  voters.stop();

  // Two older nights' copies, and a file of the owner's that is no copy.
  fs::create_directories(folder);
  for (const auto *night : {"verdict-20260101-030000.db", "verdict-20260102-030000.db"})
    REQUIRE(run_binary({"backup", "--db", db, (folder / night).string()}) == 0);
  std::ofstream(folder / "notes.txt") << "kept\n";

  std::string said;
  REQUIRE(run_binary({"backup", "--db", db, "--into", folder.string()}, &said, "/dev/null",
                     {"VERDICT_BACKUP_KEEP=2"}) == 0);
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() == 3);
  CHECK(names[0] == "notes.txt");
  CHECK(names[1] == "verdict-20260102-030000.db");
  CHECK(std::regex_match(names[2], std::regex(R"(verdict-\d{8}-\d{6}\.db)")));
  CHECK(said.find("removed the older copy " + (folder / "verdict-20260101-030000.db").string()) !=
        std::string::npos);
  const auto newest = (folder / names[2]).string();
  CHECK(run_binary({"check", "--db", newest}) == 0);
  const auto backed_up = stored_votes(newest);
  CHECK(backed_up >= 20);

  // More votes after the backup, then the restore steps of deploy/README.md: stop, copy the
  // night's copy over the database, check it, start.
  Voters later(server.port, 1);
  later.wait_for(5);
  later.stop();
  server.stop(SIGTERM);
  REQUIRE(stored_votes(db) > backed_up);
  fs::copy_file(newest, db, fs::copy_options::overwrite_existing);
  CHECK(run_binary({"check", "--db", db}) == 0);
  Server restored({"--db", db, "--port", "0"});
  httplib::Client client("127.0.0.1", restored.port);
  const auto health = client.Get("/healthz");
  REQUIRE(health);
  CHECK(health->status == 200);
  restored.stop(SIGTERM);
  CHECK(stored_votes(db) == backed_up);

  // --keep on the command line wins over the environment (a second later, so the copy has a
  // name of its own); a keep of 0 is refused.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  REQUIRE(run_binary({"backup", "--db", db, "--into", folder.string(), "--keep", "1"}, &said,
                     "/dev/null", {"VERDICT_BACKUP_KEEP=5"}) == 0);
  size_t copies = 0;
  for (const auto &entry : fs::directory_iterator(folder))
    copies += entry.path().filename().string().starts_with("verdict-");
  CHECK(copies == 1);
  CHECK(fs::exists(folder / "notes.txt"));
  CHECK(run_binary({"backup", "--db", db, "--into", folder.string(), "--keep", "0"}, &said) == 2);
}
