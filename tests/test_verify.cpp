// `verdict verify --db PATH` (app/verify_command.h) against a site left alone and against each
// way of tampering with the file after a checkpoint: a published number changed, one lowered
// as if a vote were gone, log entries reordered, the checkpoints signed anew with another key. Each
// is done directly in the SQLite file, as someone with the file would; verify must fail and say
// what is wrong.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "auth/log_signing.h"
#include "domain/clock.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/vote_log.h"
#include "test_support.h"

using namespace verdict;
namespace fs = std::filesystem;

namespace {

const std::string kFirstVoter(32, '1');

struct VerifiedSite {
  test::TempDir dir;
  std::string db = (dir.path / "site.db").string();
  std::string state = (dir.path / "seen.json").string();

  VerifiedSite() {
    REQUIRE(test::run_binary({"init", "--db", db, "--empty"}) == 0);
    REQUIRE(test::run_binary({"import", "--db", db,
                              (fs::path(VERDICT_SOURCE_DIR) / "content/verdict.json").string()}) ==
            0);
    Store store(db);
    const auto a = store.tool_by_slug("cursor-background-agent")->id;
    const auto b = store.tool_by_slug("codestral-2-1")->id;
    test::cast_tool_vote(store, test::ballot_of(kFirstVoter), b, Verdict::ship);
    for (int i = 2; i < 7; ++i) // one network: three counted, two set aside
      test::cast_tool_vote(store,
                           test::ballot_of(std::string(32, static_cast<char>('0' + i)), "office"),
                           b, i % 2 ? Verdict::ship : Verdict::skip);
    test::cast_pair_vote(store, test::ballot_of(std::string(32, '8')), a, b, a);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, '9')), a, Verdict::skip);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, '9')), a, std::nullopt);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }

  int verify(std::string *said = nullptr) {
    std::string output;
    const int status = test::run_binary({"verify", "--db", db, "--state", state}, &output);
    if (said) *said = output;
    UNSCOPED_INFO(output);
    return status;
  }

  // Runs SQL on the file as any SQLite tool would: no functions of the site's, no triggers
  // but the ones the SQL leaves in place.
  void tamper(const std::string &sql) const { sql::Db(db).exec(sql); }
};

// Readers voting on one tool, one after another, with a checkpoint every 50 votes, from
// construction until destruction: a site in use while verify reads it.
class VotesComing {
public:
  explicit VotesComing(const std::string &db)
      : voters_([this, db] {
          Store store(db);
          const auto id = store.tool_by_slug("code-llama-4")->id;
          for (int i = 0; !stop_; ++i) {
            auto voter = std::to_string(i);
            test::cast_tool_vote(store,
                                 test::ballot_of(std::string(32 - voter.size(), 'v') + voter), id,
                                 i % 3 ? Verdict::ship : Verdict::skip);
            if (i % 50 == 0) store.make_checkpoint(store.log_signing_key(), unix_now());
          }
        }) {}
  ~VotesComing() {
    stop_ = true;
    voters_.join();
  }

private:
  std::atomic<bool> stop_{false};
  std::thread voters_;
};

} // namespace

TEST_CASE("verify: a site left alone verifies, again later, and after more votes and another "
          "checkpoint") {
  VerifiedSite site;
  std::string said;
  CHECK(site.verify(&said) == 0);
  CHECK(said.find("ok: 9 log entries") != std::string::npos);
  CHECK(site.verify() == 0); // the checkpoint seen before is the same one
  {
    Store store(site.db);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, 'f')),
                         store.tool_by_slug("code-llama-4")->id, Verdict::ship);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }
  CHECK(site.verify(&said) == 0);
  CHECK(said.find("the checkpoint of 10 entries") != std::string::npos);
}

TEST_CASE("verify: a site upgraded from before the log verifies, its votes carried to pseudonyms "
          "keyed by target") {
  test::TempDir dir;
  const auto db = test::write_version_1_site(
      dir, "INSERT INTO categories (slug, name) VALUES ('dev', 'Dev');"
           "INSERT INTO tools (slug, name, category_id, tagline, description, entry) VALUES "
           "('one', 'One', 1, 't', 'd', 'Free'), ('two', 'Two', 1, 't', 'd', 'Free');"
           "INSERT INTO tool_votes (voter, tool_id, verdict, cast_at) VALUES "
           "('" +
               kFirstVoter +
               "', 2, 'skip', '2026-01-02T00:00:00Z'), "
               "('" +
               std::string(32, '2') +
               "', 2, 'ship', '2026-01-03T00:00:00Z');"
               "INSERT INTO pair_votes (voter, low_tool_id, high_tool_id, pick_tool_id, cast_at) "
               "VALUES ('" +
               kFirstVoter + "', 1, 2, 2, '2026-01-01T00:00:00Z');");
  {
    Store store(db); // upgraded: the log opened, then its votes rekeyed
    test::cast_tool_vote(store, test::ballot_of(kFirstVoter), 2, Verdict::ship); // a change after
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }
  std::string said;
  CHECK(test::run_binary({"verify", "--db", db, "--state", (dir.path / "seen.json").string()},
                         &said) == 0);
  INFO(said);
  // 3 cast, 3 rekeyed, then 3 withdrawn and entered again under new pseudonyms, 1 change
  CHECK(said.find("ok: 13 log entries") != std::string::npos);
}

TEST_CASE("verify: a site that counts a fourth voter of one network on a target in a place "
          "another holds fails, naming the entry, though its log and numbers agree") {
  VerifiedSite site;
  CHECK(site.verify() == 0); // three of the office counted, two set aside: the rule held
  {
    // A site that skips the rule: votes written with the log's own triggers and published as
    // they came (so the log and the tallies agree, and a new checkpoint signs them), all
    // counted, from one network.
    sql::Db db(site.db);
    vote_log::add_functions(db);
    const auto tool = Store(site.db).tool_by_slug("code-llama-4")->id;
    for (int i = 0; i < 4; ++i)
      db.exec("INSERT INTO tool_votes (voter, tool_id, verdict, network, place, cast_at) "
              "VALUES ('" +
              std::string(31, 'n') + std::to_string(i) + "', " + std::to_string(tool) +
              ", 'ship', 'bought', " + std::to_string(std::min(i + 1, 3)) +
              ", '2026-11-20T10:00:0" + std::to_string(i) + "Z')");
    vote_log::publish_waiting(db, "2026-11-20T10:00:05Z", vote_log::Publishing::as_they_came);
    Store store(site.db);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }
  std::string said;
  CHECK(site.verify(&said) != 0);
  CHECK(said.find("leaf 12 breaks the counting rule") != std::string::npos);
  CHECK(said.find("held by two votes at once") != std::string::npos);
  CHECK(said.find("leaf 11 breaks") == std::string::npos); // the third was within the rule
}

TEST_CASE("verify: a site that counts a vote of a network without naming the place it holds "
          "fails, naming the entry") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0);
  {
    // A counted vote written with the log's own triggers but given no place: the ceiling could
    // not be checked for it, so the log does not keep the rule.
    sql::Db db(site.db);
    vote_log::add_functions(db);
    const auto tool = Store(site.db).tool_by_slug("code-llama-4")->id;
    db.exec("INSERT INTO tool_votes (voter, tool_id, verdict, network, cast_at) VALUES ('" +
            std::string(32, 'p') + "', " + std::to_string(tool) +
            ", 'ship', 'bought', '2026-11-20T10:00:00Z')");
    vote_log::publish_waiting(db, "2026-11-20T10:00:05Z");
    Store store(site.db);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }
  std::string said;
  CHECK(site.verify(&said) != 0);
  CHECK(said.find("leaf 9 breaks the counting rule") != std::string::npos);
  CHECK(said.find("a counted vote that names no place of its network") != std::string::npos);
}

// The numbers the pages read move only when the log's batch is appended (store/vote_log.cpp):
// a site that shows others changes them in the file, without an entry.
constexpr const char *kOneShipMadeSkip =
    "UPDATE tools SET community_ships = community_ships - 1 WHERE slug = 'codestral-2-1'";

TEST_CASE("verify: a published number changed in the file without its log entry is named by its "
          "tool") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0);
  site.tamper(kOneShipMadeSkip);
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("(codestral-2-1): the site shows 4 counted (1 ship, 3 skip)") !=
        std::string::npos);
  CHECK(said.find("the log gives 4 counted (2 ship, 2 skip)") != std::string::npos);
}

TEST_CASE("verify: a vote taken out of the numbers without its log entry is named by its tool") {
  VerifiedSite site;
  site.tamper("UPDATE tools SET community_votes = community_votes - 1, "
              "community_ships = community_ships - 1 WHERE slug = 'codestral-2-1'");
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("(codestral-2-1): the site shows 3 counted (1 ship, 2 skip)") !=
        std::string::npos);
}

TEST_CASE("verify: log entries reordered in the file no longer make the signed root") {
  VerifiedSite site;
  site.tamper("UPDATE vote_log SET entry = CASE leaf WHEN 0 THEN (SELECT entry FROM vote_log "
              "WHERE leaf = 1) ELSE (SELECT entry FROM vote_log WHERE leaf = 0) END "
              "WHERE leaf IN (0, 1)");
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("do not make the checkpoint's root") != std::string::npos);
}

TEST_CASE("verify: checkpoints signed anew with another key are refused, and so is a signature "
          "that is not the key's") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0); // the key is now the one seen
  site.tamper("UPDATE site_secrets SET value = '" + auth::new_signing_key() +
              "' WHERE name = 'vote_log_signing'");
  REQUIRE(test::run_binary({"checkpoint", "--db", site.db}) == 0);
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("the site's key is not the one seen before") != std::string::npos);

  VerifiedSite other;
  other.tamper("UPDATE checkpoints SET signature = '" + std::string(128, '0') + "'");
  CHECK(other.verify(&said) == 1);
  CHECK(said.find("signature does not hold") != std::string::npos);
}

TEST_CASE("verify: an untouched site verifies while votes keep coming") {
  VerifiedSite site;
  const VotesComing votes(site.db);
  for (int run = 0; run < 4; ++run)
    CHECK(site.verify() == 0);
}

// `verdict verify URL`: the same checks read as any reader can, from the running site's API
// and /transparency. A test server is made after any tampering, so nothing it kept hides it.
namespace {

struct ServedSite {
  VerifiedSite site;
  std::unique_ptr<test::SiteServer> server;

  void serve() { server = std::make_unique<test::SiteServer>(site.db); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server->port()); }

  int verify(std::string *said = nullptr) {
    std::string output;
    const int status = test::run_binary({"verify", url(), "--state", site.state}, &output);
    if (said) *said = output;
    UNSCOPED_INFO(output);
    return status;
  }
};

} // namespace

TEST_CASE("verify URL: a site left alone verifies over HTTP, every tool and published pair, "
          "and again with its checkpoint remembered") {
  ServedSite served;
  served.serve();
  std::string said;
  CHECK(served.verify(&said) == 0);
  CHECK(said.find("ok: 9 log entries") != std::string::npos);
  // 8 tools and the 5 published comparisons, each checked on the API and on its page: a tool's
  // page and its API entry, a comparison's page (its split and both tools' cards) and its
  // API answer: 8 × 2 + 5 × 4 = 36 numbers.
  CHECK(said.find("36 published numbers of 13 tools and pairs are what the log gives") !=
        std::string::npos);
  CHECK(test::read_file(served.site.state).find(served.url()) != std::string::npos);
  CHECK(served.verify() == 0);
}

TEST_CASE("verify URL: a tool's number changed in the file, and a pair's tally inflated, are "
          "named by their addresses") {
  ServedSite served;
  served.site.tamper(kOneShipMadeSkip);
  // A pair no one has picked on: its tally made up, with no entry in the log.
  served.site.tamper("INSERT INTO pair_tallies (low_tool_id, high_tool_id, low_picks, high_picks) "
                     "SELECT min(a.id, b.id), max(a.id, b.id), 7, 0 FROM tools a, tools b "
                     "WHERE a.slug = 'cursor-background-agents' AND b.slug = 'mistral-3-small'");
  served.serve();
  std::string said;
  CHECK(served.verify(&said) == 1);
  CHECK(said.find("(codestral-2-1): the site shows 4 counted (1 ship, 3 skip)") !=
        std::string::npos);
  CHECK(said.find("the log gives 4 counted (2 ship, 2 skip)") != std::string::npos);
  CHECK(said.find("read from /api/tools") != std::string::npos);
  CHECK(said.find("the site shows 7 counted (7 for the first, 0 for the second)") !=
        std::string::npos);
  CHECK(said.find("the log gives 0 counted") != std::string::npos);
  // Wherever the site shows them: the API, the tool's page, the comparisons' pages.
  CHECK(said.find("read from the page /tools/codestral-2-1") != std::string::npos);
  CHECK(said.find("read from the page /compare/cursor-background-agent-vs-codestral-2-1") !=
        std::string::npos);
  CHECK(said.find("read from the page /compare/cursor-background-agents-vs-mistral-3-small") !=
        std::string::npos);
}

TEST_CASE("verify URL: checkpoints signed anew with another key are refused over HTTP") {
  ServedSite served;
  served.serve();
  REQUIRE(served.verify() == 0);
  const auto seen_at = served.url();
  served.server.reset();
  served.site.tamper("UPDATE site_secrets SET value = '" + auth::new_signing_key() +
                     "' WHERE name = 'vote_log_signing'");
  REQUIRE(test::run_binary({"checkpoint", "--db", served.site.db}) == 0);
  served.serve();
  // The state names a site by its address, and the server came back on another port: what
  // was seen at the old address is what the reader saw of this site.
  auto state = nlohmann::json::parse(test::read_file(served.site.state));
  state[served.url()] = state[seen_at];
  std::ofstream(served.site.state) << state.dump();
  std::string said;
  CHECK(served.verify(&said) == 1);
  CHECK(said.find("the site's key is not the one seen before") != std::string::npos);
}

TEST_CASE("verify URL: numbers moving under votes while verify reads are no fault") {
  ServedSite served;
  served.serve();
  const VotesComing votes(served.site.db);
  for (int run = 0; run < 4; ++run)
    CHECK(served.verify() == 0);
}

TEST_CASE(
    "verify URL: a site that cannot be read exits 2 and says so, and an address that is not a "
    "site's is refused") {
  test::TempDir dir;
  std::string said;
  // A port nothing listens on: bound, then closed, so a connection is refused at once (a port
  // bound and left listening would hold the connection until verify's read timeout).
  int port = 0;
  {
    const int probe = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(probe >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(bind(probe, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    REQUIRE(getsockname(probe, reinterpret_cast<sockaddr *>(&address), &length) == 0);
    port = ntohs(address.sin_port);
    close(probe);
  }
  CHECK(test::run_binary({"verify", "http://127.0.0.1:" + std::to_string(port), "--state",
                          (dir.path / "seen.json").string()},
                         &said) == 2);
  CHECK(said.find("could not read the site") != std::string::npos);
  // In plain words: what was tried, and what failed.
  CHECK_THAT(said, Catch::Contains("asked http://127.0.0.1:" + std::to_string(port) + "/") &&
                       Catch::Contains("nothing answered there"));
  CHECK(test::run_binary({"verify", "ftp://verdict.example"}, &said) != 0);
  CHECK(said.find("verify's URL must be the site's address") != std::string::npos);
}

TEST_CASE("verify: a reader who saw a checkpoint fails when the site then shows none, an older "
          "one or a smaller one") {
  std::string said;
  {
    VerifiedSite site;
    REQUIRE(site.verify() == 0);
    site.tamper("DELETE FROM checkpoints");
    CHECK(site.verify(&said) == 1);
    CHECK_THAT(said, Catch::Contains("shows no checkpoint, but one of 9 entries was seen before"));
  }
  {
    VerifiedSite site;
    {
      Store store(site.db);
      store.make_checkpoint(store.log_signing_key(), unix_now() + 60);
    }
    REQUIRE(site.verify() == 0); // the newest, a minute on, is the one seen
    site.tamper("DELETE FROM checkpoints WHERE made_at = (SELECT max(made_at) FROM checkpoints)");
    CHECK(site.verify(&said) == 1);
    CHECK_THAT(said, Catch::Contains("older than the one seen before"));
  }
  {
    VerifiedSite site;
    {
      Store store(site.db);
      test::cast_tool_vote(store, test::ballot_of(std::string(32, 'f')),
                           store.tool_by_slug("code-llama-4")->id, Verdict::ship);
      store.make_checkpoint(store.log_signing_key(), unix_now() + 60);
    }
    REQUIRE(site.verify() == 0);
    site.tamper("DELETE FROM checkpoints WHERE made_at = (SELECT max(made_at) FROM checkpoints)");
    CHECK(site.verify(&said) == 1);
    CHECK_THAT(said, Catch::Contains("fewer than the 10 seen before"));
  }
}

TEST_CASE("verify: a reader who saw a checkpoint fails when the site rewrites the entries it "
          "covered and signs the log anew with its own key") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0); // 9 entries and their root are now the ones seen
  site.tamper("UPDATE vote_log SET entry = CASE leaf WHEN 0 THEN (SELECT entry FROM vote_log "
              "WHERE leaf = 1) ELSE (SELECT entry FROM vote_log WHERE leaf = 0) END "
              "WHERE leaf IN (0, 1); "
              "DELETE FROM vote_log_nodes"); // the tree made again from the entries as they are
  {
    Store store(site.db);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, 'f')),
                         store.tool_by_slug("code-llama-4")->id, Verdict::ship);
    store.make_checkpoint(store.log_signing_key(), unix_now() + 60);
  }
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK_THAT(said, Catch::Contains("the log now is not the log seen before with entries added: "
                                   "the first 9 entries changed"));
}

TEST_CASE("verify: says how old the newest checkpoint is and how many entries none covers, and "
          "fails when it is older than --max-age (two days) while the log grew past it") {
  VerifiedSite site;
  std::string said;
  CHECK(site.verify(&said) == 0);
  CHECK_THAT(said, Catch::Contains("the newest checkpoint is 0 min old and covers 9 of 9 entries"));
  {
    Store store(site.db);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, 'f')),
                         store.tool_by_slug("code-llama-4")->id, Verdict::ship);
  }
  CHECK(site.verify(&said) == 0);
  CHECK_THAT(said, Catch::Contains("covers 9 of 10 entries (1 not yet"));

  // A site that stopped signing three days ago, and took votes since.
  VerifiedSite stale;
  stale.tamper("DELETE FROM checkpoints");
  {
    Store store(stale.db);
    store.make_checkpoint(store.log_signing_key(), unix_now() - 3 * 86400);
    test::cast_tool_vote(store, test::ballot_of(std::string(32, 'f')),
                         store.tool_by_slug("code-llama-4")->id, Verdict::ship);
  }
  CHECK(stale.verify(&said) == 1);
  CHECK_THAT(said, Catch::Contains("the newest checkpoint is 3 days old and 1 entry came after"));
  CHECK(test::run_binary({"verify", "--db", stale.db, "--state", stale.state, "--max-age", "100"},
                         &said) == 0);
  CHECK_THAT(said, Catch::Contains("the newest checkpoint is 3 days old and covers 9 of 10"));
}

TEST_CASE("verify: a log whose leaves have a gap after the checkpoint fails, read from the file "
          "and over HTTP, and names the leaf left out") {
  ServedSite served;
  {
    Store store(served.site.db);
    const auto tool = store.tool_by_slug("code-llama-4")->id;
    for (const char voter : {'d', 'e', 'f'}) // leaves 9, 10 and 11, after the checkpoint of 9
      test::cast_tool_vote(store, test::ballot_of(std::string(32, voter)), tool, Verdict::ship);
  }
  served.site.tamper("DELETE FROM vote_log WHERE leaf = 10");
  std::string said;
  CHECK(served.site.verify(&said) == 1);
  CHECK_THAT(said, Catch::Contains("the log gives leaf 11 where leaf 10 was due"));
  served.serve();
  CHECK(served.verify(&said) == 1);
  CHECK_THAT(said, Catch::Contains("the log gives leaf 11 where leaf 10 was due"));
}

namespace {

// Between verify and a site: passes /transparency through as it is now, and gives every other
// answer (the API, the pages) as it was the first time it was asked for: numbers frozen at a
// moment the site liked better, beside the newest checkpoint.
class FreezingProxy {
public:
  explicit FreezingProxy(int site_port) : site_("127.0.0.1", site_port) {
    server_.Get(".*", [this](const httplib::Request &req, httplib::Response &res) {
      const auto target = req.target;
      const bool frozen = target.rfind("/transparency", 0) != 0;
      std::lock_guard lock(mutex_);
      if (frozen) {
        if (const auto kept = kept_.find(target); kept != kept_.end()) {
          res.status = kept->second.status;
          res.set_content(kept->second.body, kept->second.get_header_value("Content-Type"));
          return;
        }
      }
      const auto answer = site_.Get(target);
      if (!answer) {
        res.status = 502;
        return;
      }
      res.status = answer->status;
      res.set_content(answer->body, answer->get_header_value("Content-Type"));
      if (frozen) kept_[target] = *answer;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    serving_ = std::thread([this] { server_.listen_after_bind(); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!server_.is_running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~FreezingProxy() {
    server_.stop();
    serving_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

private:
  httplib::Client site_;
  httplib::Server server_;
  std::mutex mutex_;
  std::map<std::string, httplib::Response> kept_;
  int port_ = 0;
  std::thread serving_;
};

} // namespace

TEST_CASE("verify URL: numbers read at a log older than the newest checkpoint fail, named with "
          "the size they were read at, though the log of that size gives them") {
  ServedSite served;
  // The site's checkpoints made some minutes ago, so the newest is settled (a checkpoint a
  // moment old may cover votes a page shows a second later).
  served.site.tamper("DELETE FROM checkpoints");
  {
    Store store(served.site.db);
    store.make_checkpoint(store.log_signing_key(), unix_now() - 600);
  }
  served.serve();
  FreezingProxy proxy(served.server->port());
  const auto verify_through_proxy = [&](const std::string &state, std::string &said) {
    return test::run_binary({"verify", proxy.url(), "--state", state}, &said);
  };
  std::string said;
  // A first reader freezes every page at a log of 9 entries: all of it true then.
  REQUIRE(verify_through_proxy((served.site.dir.path / "first.json").string(), said) == 0);
  {
    Store store(served.site.db);
    const auto tool = store.tool_by_slug("codestral-2-1")->id;
    for (const char voter : {'d', 'e', 'f'})
      test::cast_tool_vote(store, test::ballot_of(std::string(32, voter)), tool, Verdict::skip);
    store.make_checkpoint(store.log_signing_key(), unix_now() - 300);
  }
  // The site itself shows the new numbers and verifies.
  CHECK(served.verify() == 0);
  // A reader who never saw this site before, shown the frozen pages beside the checkpoint of 12.
  CHECK(verify_through_proxy((served.site.dir.path / "second.json").string(), said) == 1);
  INFO(said);
  CHECK_THAT(said, Catch::Contains("codestral-2-1 (/api/tools") &&
                       Catch::Contains("its numbers were read at a log of 9 entries, older than "
                                       "the newest checkpoint's 12"));
  CHECK_THAT(said, Catch::Contains("(the page /tools/codestral-2-1): its numbers were read at a "
                                   "log of 9 entries"));
}
