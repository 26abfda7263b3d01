// The cluster's log of writes (cluster/write_stream.h) against real NATS servers: three
// Debian nats-server processes clustered on loopback at ephemeral ports, each with JetStream
// in a folder of the test's, as three machines of a Verdict cluster would run them.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>
#include <nats/nats.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/cluster_writes.h"
#include "app/server.h"
#include "app/stream_follower.h"
#include "auth/secrets.h"
#include "auth/sign_in_throttle.h"
#include "auth/vote_tokens.h"
#include "cluster/cluster_key.h"
#include "cluster/write_stream.h"
#include "domain/clock.h"
#include "domain/cluster_write.h"
#include "domain/counting.h"
#include "domain/write_encoding.h"
#include "middleware/request_parsing.h"
#include "server_process.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "test_support.h"

using namespace verdict;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// The streams a NATS server's /jsz?streams=true shows without a leader (a write to one waits),
// by name, or nothing.
std::string streams_without_leader(const nlohmann::json &jsz) {
  std::string names;
  if (!jsz.contains("account_details")) return names;
  for (const auto &account : jsz["account_details"])
    if (account.contains("stream_detail"))
      for (const auto &stream : account["stream_detail"])
        if (!stream.contains("cluster") || !stream["cluster"].contains("leader"))
          names += stream.value("name", std::string("?")) + " ";
  return names;
}

// A loopback port free now, chosen at random below the kernel's ephemeral range (32768 on):
// a port the kernel hands out is soon handed out again for some test's outgoing connection,
// and a server starting a moment later would find it taken. Two tests choosing the same one
// out of 20,000 in that moment is the window left.
int free_loopback_port() {
  static std::mt19937 chooser(std::random_device{}());
  for (;;) {
    const int port = std::uniform_int_distribution<int>(10000, 29999)(chooser);
    const int probe = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(probe >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = bind(probe, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    close(probe);
    if (free) return port;
  }
}

// The passwords of the NATS users verdict-node-1..3, as the shipped authorization block reads
// them from nats-server's environment (deploy/cluster/nats-authorization.conf).
const std::vector<std::string> &node_passwords() {
  static const std::vector<std::string> passwords = [] {
    std::vector<std::string> made;
    for (int i = 1; i <= 3; ++i) {
      // A letter first: NATS reads a variable that starts with a digit as a number.
      made.push_back("pw" + auth::random_secret(12));
      setenv(("VERDICT_NATS_PASSWORD_" + std::to_string(i)).c_str(), made.back().c_str(), 1);
    }
    return made;
  }();
  return passwords;
}

// The cluster's key of this test process, and a file holding it as an operator gives it.
const std::string &cluster_key_text() {
  static const auto text = cluster::ClusterKey::new_file_text();
  return text;
}
const cluster::ClusterKey &cluster_key() {
  static const auto key = cluster::ClusterKey::from_text(cluster_key_text());
  return key;
}
std::string cluster_key_file(const fs::path &folder) {
  const auto path = (folder / "cluster.key").string();
  std::ofstream(path) << cluster_key_text();
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
  return path;
}

// A node's settings file as the package installs it (root's alone): web-1 on `db`, with the
// cluster's servers (their passwords in the addresses) and key, for `verdict doctor`.
fs::path node_settings_file(const fs::path &folder, const fs::path &db, const std::string &servers,
                            const std::string &key_file) {
  const auto settings = folder / "verdict.default";
  std::ofstream(settings) << "VERDICT_DB=" << db.string() << "\nVERDICT_CLUSTER=" << servers
                          << "\nVERDICT_NODE=web-1\nVERDICT_CLUSTER_KEY=" << key_file << "\n";
  fs::permissions(settings, fs::perms::owner_read | fs::perms::owner_write);
  return settings;
}

// One site's file made in `folder` under the first name, with the bundled test content, and
// copied under the others: as every node of a cluster starts from a copy of one site's file.
// With `an_editor`, editor@example.com may sign in at its desk.
void one_site_as(const fs::path &folder, std::initializer_list<std::string> files,
                 bool an_editor = false) {
  {
    Store site((folder / *files.begin()).string());
    test::import_content(site, test::seeded_store()->export_content());
    if (an_editor)
      test::add_editor(site, "editor@example.com", "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA");
  }
  for (auto file = files.begin() + 1; file != files.end(); ++file)
    fs::copy_file(folder / *files.begin(), folder / *file);
}

// `payload` sealed as a node seals an entry published under `id`, now.
std::string sealed(const std::string &payload, const std::string &id) {
  return cluster_key().seal(payload, id, unix_now() * 1000);
}

// A reader's ballot with the token of the page they voted from, loaded a minute ago.
Ballot ballot_with_token(const std::string &voter, const std::string &target) {
  auto ballot = test::ballot_of(voter);
  ballot.token = auth::vote_token(cluster_key().secret("vote_tokens"), target, unix_now() - 60);
  return ballot;
}

// Three nats-server processes, one NATS cluster with JetStream, locked as the shipped
// configuration locks it: a user per node with the shipped permissions.
class NatsCluster {
public:
  static constexpr int kServers = 3;

  NatsCluster() {
    node_passwords();
    for (int i = 0; i < kServers; ++i)
      servers_.push_back({free_loopback_port(), free_loopback_port(), free_loopback_port(), 0});
    for (int i = 0; i < kServers; ++i)
      start(i);
    wait_until_ready();
  }
  ~NatsCluster() {
    for (int i = 0; i < kServers; ++i)
      kill_server(i, SIGKILL);
  }

  // The servers' addresses with the NATS user of node `user` (1 to 3; 0: no user at all).
  std::vector<std::string> urls(int user = 1) const {
    std::vector<std::string> all;
    const auto credentials = user == 0 ? std::string()
                                       : "verdict-node-" + std::to_string(user) + ":" +
                                             node_passwords()[static_cast<size_t>(user - 1)] + "@";
    for (const auto &server : servers_)
      all.push_back("nats://" + credentials + "127.0.0.1:" + std::to_string(server.client_port));
    return all;
  }

  void kill_server(int i, int signal) {
    auto &pid = servers_[static_cast<size_t>(i)].pid;
    if (pid <= 0) return;
    ::kill(pid, signal);
    waitpid(pid, nullptr, 0);
    pid = 0;
  }

  // Starts server `i` again on its ports and folder, as a machine that comes back.
  void start(int i) {
    const auto folder = dir_.path / ("n" + std::to_string(i));
    fs::create_directories(folder);
    std::string routes;
    for (const auto &server : servers_)
      routes += "    nats-route://127.0.0.1:" + std::to_string(server.route_port) + "\n";
    const auto &server = servers_[static_cast<size_t>(i)];
    const auto config = (folder / "nats.conf").string();
    fs::copy_file(fs::path(VERDICT_SOURCE_DIR) / "deploy/cluster/nats-authorization.conf",
                  folder / "nats-authorization.conf", fs::copy_options::overwrite_existing);
    std::ofstream(config) << "server_name: n" << i << "\n"
                          << "include ./nats-authorization.conf\n"
                          << "host: 127.0.0.1\nport: " << server.client_port << "\n"
                          << "http: 127.0.0.1:" << server.http_port << "\n"
                          << "jetstream {\n  store_dir: " << (folder / "js").string()
                          << "\n  max_memory_store: 64MB\n  max_file_store: 256MB\n}\n"
                          << "cluster {\n  name: verdict\n  listen: 127.0.0.1:" << server.route_port
                          << "\n  routes: [\n"
                          << routes << "  ]\n}\n";
    // Its log beside its folder, shown when the servers do not come together.
    const int log = open((folder / "nats.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    servers_[static_cast<size_t>(i)].pid =
        test::start_child({"/usr/sbin/nats-server", "-c", config}, -1, log);
    close(log);
  }

  // urls(), as --cluster takes them: joined by commas.
  std::string joined_urls() const {
    std::string joined;
    for (const auto &url : urls())
      joined += (joined.empty() ? "" : ",") + url;
    return joined;
  }

  // The servers' monitoring ports.
  std::vector<int> http_ports() const {
    std::vector<int> ports;
    for (const auto &server : servers_)
      if (server.pid > 0) ports.push_back(server.http_port);
    return ports;
  }

  // Every running server is up, runs JetStream and knows the cluster's JetStream leader, and
  // each stream it holds has a leader: the cluster takes writes again. Not the full /healthz, which
  // also waits for every stream's copy on a server started again to catch up; under a vote load
  // that goes on, on a busy machine, nats-server 2.9 can take minutes to say so, and no case here
  // needs it (a majority holds every write). A server that has exited (a port it could not take
  // back) is started again.
  void wait_until_ready() {
    // A minute and a half: on a busy machine (CI runs two tests at once, one maybe under a
    // sanitizer) the servers take their time.
    constexpr auto kPatience = 90s;
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    std::string last_seen;
    while (std::chrono::steady_clock::now() < deadline) {
      bool ready = true;
      last_seen.clear();
      for (size_t i = 0; i < servers_.size(); ++i) {
        auto &server = servers_[i];
        if (server.pid <= 0) continue;
        if (waitpid(server.pid, nullptr, WNOHANG) == server.pid) {
          last_seen += "n" + std::to_string(i) + " had exited; started again\n";
          server.pid = 0;
          start(static_cast<int>(i));
          ready = false;
          continue;
        }
        httplib::Client monitor("127.0.0.1", server.http_port);
        monitor.set_connection_timeout(1);
        monitor.set_read_timeout(5);
        const auto health = monitor.Get("/healthz?js-server-only=true");
        const auto jetstream = monitor.Get("/jsz?streams=true");
        const bool healthy = health && health->status == 200;
        const auto found =
            jetstream ? nlohmann::json::parse(jetstream->body, nullptr, false) : nlohmann::json();
        const bool led = found.contains("meta_cluster") && found["meta_cluster"].contains("leader");
        const auto leaderless = streams_without_leader(found);
        if (!healthy || !led || !leaderless.empty())
          last_seen += "n" + std::to_string(i) +
                       " /healthz: " + (health ? health->body : "no answer") +
                       (led ? "" : "; /jsz names no leader") +
                       (leaderless.empty() ? "" : "; no leader for stream " + leaderless) + "\n";
        ready = ready && healthy && led && leaderless.empty();
      }
      if (ready) return;
      std::this_thread::sleep_for(100ms);
    }
    // The end of each server's log, which says what it waited for.
    std::string logs;
    for (int i = 0; i < kServers; ++i) {
      const auto log =
          test::read_file((dir_.path / ("n" + std::to_string(i)) / "nats.log").string());
      logs += "--- n" + std::to_string(i) + "\n" +
              log.substr(log.size() > 2500 ? log.size() - 2500 : 0);
    }
    FAIL("the NATS servers did not come together as a JetStream cluster within "
         << kPatience.count() << " s; last seen:\n"
         << last_seen << logs);
  }

private:
  struct Server {
    int client_port, route_port, http_port;
    pid_t pid;
  };
  test::TempDir dir_;
  std::vector<Server> servers_;
};

// Two nodes' files, web-1.db and web-2.db in `dir`: one site with the seeded content, copied
// as a new node starts from another's backup.
std::pair<std::string, std::string> two_node_files(const test::TempDir &dir) {
  const auto first = (dir.path / "web-1.db").string(), second = (dir.path / "web-2.db").string();
  {
    Store made(first);
    test::import_content(made, test::seeded_store()->export_content());
  }
  fs::copy_file(first, second);
  return {first, second};
}

cluster::StreamSettings settings_for(const NatsCluster &nats, const std::string &node,
                                     int user = 1) {
  cluster::StreamSettings settings;
  settings.servers = nats.urls(user);
  settings.node = node;
  return settings;
}

// Publishes until the stream takes the write (a leader may be being chosen again), giving its
// sequence; 0 when it never did within `within`.
uint64_t publish_when_taken(cluster::WriteStream &stream, const std::string &payload,
                            const std::string &id, std::chrono::seconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      return stream.publish(payload, id);
    } catch (const cluster::StreamUnavailable &) {
      std::this_thread::sleep_for(200ms);
    }
  }
  return 0;
}

} // namespace

TEST_CASE("cluster: writes published by two nodes are one ordered log that each node reads in "
          "the same order, and a retried write is stored once") {
  NatsCluster nats;
  cluster::WriteStream first(settings_for(nats, "node-a"));
  cluster::WriteStream second(settings_for(nats, "node-b")); // finds the stream made

  CHECK(first.last_sequence() == 0);
  const auto one = first.publish("vote 1", "write-1");
  const auto two = second.publish("vote 2", "write-2");
  const auto three = first.publish("vote 3", "write-3");
  CHECK(one == 1);
  CHECK(two == 2);
  CHECK(three == 3);
  // The same write sent again (its acknowledgement lost, say) is the same entry.
  CHECK(second.publish("vote 2", "write-2") == 2);
  CHECK(first.last_sequence() == 3);

  for (auto *node : {&first, &second}) {
    std::vector<std::string> read;
    for (uint64_t sequence = 1; auto entry = node->entry_at(sequence); ++sequence) {
      CHECK(entry->sequence == sequence);
      read.push_back(entry->payload);
    }
    CHECK(read == std::vector<std::string>{"vote 1", "vote 2", "vote 3"});
  }
  CHECK_FALSE(first.entry_at(4));

  // Read as a node follows it: in order, from any place on, each once.
  for (uint64_t from : {1, 2}) {
    auto reader = second.read_from(from);
    std::vector<uint64_t> sequences;
    while (auto entry = reader->next(1s))
      sequences.push_back(entry->sequence);
    CHECK(sequences == (from == 1 ? std::vector<uint64_t>{1, 2, 3} : std::vector<uint64_t>{2, 3}));
  }
  // A reader waiting at the end is given the next write as it is stored.
  auto reader = second.read_from(4);
  CHECK_FALSE(reader->next(100ms));
  first.publish("vote 4", "write-4");
  const auto fourth = reader->next(5s);
  REQUIRE(fourth);
  CHECK(fourth->sequence == 4);
  CHECK(fourth->payload == "vote 4");
}

TEST_CASE(
    "cluster: with one NATS server killed the writes go on, and with two of three gone a "
    "write is refused within its wait, never acknowledged, and sent again with its id once the "
    "servers are back, it is in the log once") {
  NatsCluster nats;
  auto settings = settings_for(nats, "node-a");
  settings.publish_wait = 1500ms;
  cluster::WriteStream stream(settings);
  REQUIRE(stream.publish("before", "w-0") == 1);

  nats.kill_server(0, SIGKILL);
  // The two left still make a majority: a write is acknowledged (after the client moves to
  // another server and the stream's leader is chosen again, if it was on the one that went).
  CHECK(publish_when_taken(stream, "with two of three", "w-1", 20s) == 2);

  nats.kill_server(1, SIGKILL);
  const auto asked = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(stream.publish("with one of three", "w-2"), cluster::StreamUnavailable);
  CHECK(std::chrono::steady_clock::now() - asked < 10s); // refused, not hung

  // The servers come back. A write refused may yet have been stored (the one server left may
  // have proposed it before its wait ran out): the node sends it again under its id, and it is
  // in the log once, whichever happened; then writes go on from there.
  nats.start(0);
  nats.start(1);
  nats.wait_until_ready();
  CHECK(publish_when_taken(stream, "with one of three", "w-2", 30s) == 3);
  CHECK(publish_when_taken(stream, "back", "w-3", 30s) == 4);
  std::vector<std::string> log;
  for (uint64_t sequence = 1; auto entry = stream.entry_at(sequence); ++sequence)
    log.push_back(entry->payload);
  CHECK(log ==
        std::vector<std::string>{"before", "with two of three", "with one of three", "back"});
}

TEST_CASE("cluster: a write is carried by the stream with its time and date, votes taken at "
          "once share an entry, and what is not one is refused") {
  const ClusterWrite write{"web-1-x7-12", "tool_vote", 1764000000123, "2025-11-24",
                           nlohmann::json::parse(R"({"tool":3})")};
  const auto back = decoded_cluster_writes(encoded(write));
  REQUIRE(back);
  REQUIRE(back->size() == 1);
  CHECK(back->front().id == write.id);
  CHECK(back->front().kind == "tool_vote");
  CHECK(back->front().taken_at_ms == 1764000000123);
  CHECK(back->front().today == "2025-11-24");
  CHECK(back->front().arguments == write.arguments);

  const ClusterWrite later{"web-1-x7-13", "pair_vote", 1764000000999, "2025-11-25",
                           nlohmann::json::parse(R"({"a":1,"b":2})")};
  const auto both = decoded_cluster_writes(encoded_together({write, later}));
  REQUIRE(both);
  REQUIRE(both->size() == 2);
  CHECK(both->at(0).id == write.id);
  CHECK(both->at(0).taken_at_ms == write.taken_at_ms);
  CHECK(both->at(1).id == later.id);
  CHECK(both->at(1).kind == "pair_vote");
  CHECK(both->at(1).today == "2025-11-25");
  CHECK(both->at(1).arguments == later.arguments);
  // The arguments are nested in the entry, not a JSON text inside it (read twice).
  CHECK(encoded(write).find(R"("arguments":{"tool":3})") != std::string::npos);

  // An entry from before the arguments were nested is read as it was written.
  const auto older = decoded_cluster_writes(
      R"({"id":"w-old","kind":"tool_vote","taken_at_ms":5,"today":"2025-11-20",)"
      R"("arguments":"{\"tool\":3}"})");
  REQUIRE(older);
  CHECK(older->front().arguments == write.arguments);

  for (const auto *broken :
       {"", "not json", "[]", R"({"kind":"tool_vote"})",
        R"({"id":"a","kind":"tool_vote","taken_at_ms":"soon","today":"d","arguments":"{}"})",
        R"({"id":"a","kind":"tool_vote","taken_at_ms":1,"today":"d","arguments":[1]})",
        R"({"id":"a","kind":"tool_vote","taken_at_ms":1,"today":"d","arguments":"not json"})",
        R"({"id":"a","kind":"tool_vote","taken_at_ms":1,"today":"d"})", R"({"together":[]})",
        R"({"together":{}})", R"({"together":[{"id":"a"}]})",
        R"({"together":[{"id":"a","kind":"k","taken_at_ms":1,"today":"d","arguments":"{}"}],)"
        R"("id":"b"})"}) {
    INFO(broken);
    CHECK_FALSE(decoded_cluster_writes(broken));
  }
}

namespace {

int64_t unix_ms(int64_t seconds) {
  return seconds * 1000;
}

} // namespace

TEST_CASE("cluster: a write applied from the stream is applied once, in order, with its "
          "sequence in its transaction, at the time it was taken, and a refusal is applied as "
          "nothing") {
  test::TempDir dir;
  const auto path = (dir.path / "node.db").string();
  Store store(path);
  test::import_content(store, test::seeded_store()->export_content());
  const auto tool = *store.tool_by_slug("codestral-2-1");
  const auto community = [&] { return store.tool_by_slug(tool.slug)->community; };
  const auto ballot = test::ballot_of(std::string(32, 'b'));
  const WriteContext taken{unix_ms(1700000000), "2023-11-14"};
  CHECK(store.applied_sequence() == 0);
  test::apply_entry_now(store, 1, {{CastToolVote{ballot, tool.id, Verdict::ship}, taken}});
  CHECK(community().total == 1);
  CHECK(store.applied_sequence() == 1);
  // The same write again (a node that stopped after applying it, before it knew): nothing.
  test::apply_entry_now(store, 1, {{CastToolVote{ballot, tool.id, std::nullopt}, taken}});
  CHECK(community().total == 1);
  {
    // A gap: refused, nothing written.
    const auto gap =
        test::apply_entry_now(store, 3, {{CastToolVote{ballot, tool.id, std::nullopt}, taken}});
    CHECK_FALSE(gap.entry.done());
    CHECK_THAT(gap.writes.at(0).words, Catch::Contains("is applied in order"));
  }
  CHECK(community().total == 1);
  CHECK(store.applied_sequence() == 1);
  {
    // Refused as every node refuses it: its caller hears so, and it is applied as nothing.
    const auto refused = test::apply_entry_now(
        store, 2, {{DeleteTool{"no-such-tool", "editor@example.com"}, taken}});
    CHECK(refused.writes.at(0).ended == WriteResult::Ended::not_found);
  }
  CHECK(store.applied_sequence() == 2);
  // Its time is the time it was taken, wherever and whenever it is applied.
  test::apply_entry_now(store, 3,
                        {{CreateCategory{{"agents", "Agents"}, "editor@example.com"}, taken}});
  CHECK(store.applied_sequence() == 3);
  const auto logged = store.edit_log({1, 1}).items.at(0);
  CHECK(logged.subject.find("agents") != std::string::npos);
  CHECK(logged.at == "2023-11-14T22:13:20Z");
  // Written by a lone server: now, as ever.
  test::create_category(store, {"editors", "Editors"}, "editor@example.com");
  CHECK(store.edit_log({1, 1}).items.at(0).at.substr(0, 4) != "2023");
  CHECK(store.applied_sequence() == 3);

  // The place is the file's: a restart goes on from it.
  Store again(path);
  CHECK(again.applied_sequence() == 3);
}

TEST_CASE("cluster: the votes of one entry of the stream are written together or not at all, "
          "each at the time it was taken") {
  test::TempDir dir;
  Store store((dir.path / "node.db").string());
  test::import_content(store, test::seeded_store()->export_content());
  const auto tool = *store.tool_by_slug("codestral-2-1");
  const auto community = [&] { return store.tool_by_slug(tool.slug)->community; };
  const auto vote = [&](char voter) {
    return CastToolVote{test::ballot_of(std::string(32, voter)), tool.id, Verdict::ship};
  };
  const auto at = [](int64_t seconds) { return WriteContext{unix_ms(seconds), "2023-11-14"}; };
  auto written =
      test::apply_entry_now(store, 1, {{vote('a'), at(1700000000)}, {vote('b'), at(1700000100)}});
  for (const auto &told : written.writes)
    CHECK_FALSE(test::failure_of(told));
  CHECK(community().total == 2);
  CHECK(store.applied_sequence() == 1);
  // Each vote at its own time.
  {
    sql::Db file((dir.path / "node.db").string(), sql::Db::Open::read_only);
    auto times = file.cached("SELECT cast_at FROM tool_votes ORDER BY voter");
    std::vector<std::string> cast_at;
    while (times.step())
      cast_at.push_back(times.text(0));
    CHECK(cast_at == std::vector<std::string>{"2023-11-14T22:13:20Z", "2023-11-14T22:15:00Z"});
  }

  // An entry with no write left to apply (its one vote refused before it was written, or the
  // entry skipped) records its sequence alone.
  CHECK(test::apply_entry_now(store, 2, {}).entry.done());
  CHECK(store.applied_sequence() == 2);

  // An entry one of whose writes fails in the file (not a refusal) is not written at all: its
  // vote before that write is not, nor its sequence, and the callers of both hear so. The
  // trouble: a trigger of the file's that fails for the second voter's vote.
  {
    sql::Db file((dir.path / "node.db").string());
    file.exec("CREATE TRIGGER trouble BEFORE INSERT ON tool_votes WHEN NEW.voter = '" +
              std::string(32, 'e') + "' BEGIN SELECT json('{'); END");
  }
  const auto failed =
      test::apply_entry_now(store, 3, {{vote('d'), at(1700000300)}, {vote('e'), at(1700000301)}});
  CHECK_FALSE(failed.entry.done());
  CHECK(test::failure_of(failed.writes.at(0)));
  CHECK(test::failure_of(failed.writes.at(1)));
  CHECK(community().total == 2);
  CHECK(store.applied_sequence() == 2);
  // Read again once the trouble is gone, the entry is written whole.
  {
    sql::Db file((dir.path / "node.db").string());
    file.exec("DROP TRIGGER trouble");
  }
  CHECK(test::apply_entry_now(store, 3, {{vote('d'), at(1700000300)}, {vote('e'), at(1700000301)}})
            .entry.done());
  CHECK(community().total == 4);
  CHECK(store.applied_sequence() == 3);
}

namespace {

// A node, in this process: its own file, a copy of one site's, and its own connection to the
// cluster, its writes through it and its follower applying them.
ClusterWrites::Settings writes_settings(const std::string &name,
                                        std::function<std::string()> new_id = {}) {
  ClusterWrites::Settings settings;
  settings.node = name;
  settings.new_id = std::move(new_id);
  return settings;
}

struct Node {
  // `user`: the NATS user it signs in as (verdict-node-1…3); `new_id`: its ids, when not the
  // node's own unguessable ones.
  Node(const fs::path &file, const NatsCluster &nats, const std::string &name,
       std::chrono::milliseconds replay_after = std::chrono::minutes(2), int user = 1,
       std::function<std::string()> new_id = {})
      : store(file.string()), stream(settings_for(nats, name, user)),
        writes(store, stream, cluster_key(), writes_settings(name, std::move(new_id))),
        follower(
            store, stream, cluster_key(),
            [this](const cluster::StreamEntry &entry, const StreamPlace &place,
                   const std::function<void()> &failed) { writes.apply(entry, place, failed); },
            [this](const cluster::StreamEntry &entry, const std::string &why) {
              writes.refused(entry, why);
            },
            name, replay_after) {}
  Store store;
  cluster::WriteStream stream;
  ClusterWrites writes;
  StreamFollower follower;
  ShipTally community(const std::string &tool) { return store.tool_by_slug(tool)->community; }
};

// Casts a vote through a node and waits until it is acknowledged; the failure, if any.
std::optional<std::string> vote_through(Node &node, const std::string &voter,
                                        const std::string &tool, std::optional<Verdict> verdict) {
  std::promise<std::optional<std::string>> told;
  const auto tool_id = node.store.tool_by_slug(tool)->id;
  // The token of the tool's page as a reader loaded it a minute ago: the node judges it.
  const auto ballot = ballot_with_token(voter, auth::tool_vote_target(tool_id));
  node.writes.submit_queued(
      CastToolVote{ballot, tool_id, verdict},
      [&told](const WriteResult &ended) { told.set_value(test::failure_of(ended)); });
  return told.get_future().get();
}

// Every vote, pick and entry of the vote log a file holds, in one text: two files that hold
// the same votes give the same.
std::string votes_held(const std::string &path) {
  sql::Db db(path, sql::Db::Open::read_only);
  std::string held;
  for (const auto *query :
       {"SELECT * FROM tool_votes ORDER BY voter, tool_id",
        "SELECT * FROM pair_votes ORDER BY 1, 2, 3", "SELECT * FROM vote_log ORDER BY rowid",
        "SELECT id, community_votes, community_ships FROM tools ORDER BY id"}) {
    sqlite3_stmt *rows = nullptr;
    REQUIRE(sqlite3_prepare_v2(db.handle(), query, -1, &rows, nullptr) == SQLITE_OK);
    while (sqlite3_step(rows) == SQLITE_ROW) {
      for (int column = 0; column < sqlite3_column_count(rows); ++column) {
        const auto *text = sqlite3_column_text(rows, column);
        held += (text ? reinterpret_cast<const char *>(text) : "null") + std::string("|");
      }
      held += "\n";
    }
    sqlite3_finalize(rows);
    held += "--\n";
  }
  return held;
}

} // namespace

TEST_CASE("cluster: two nodes' writes go through the stream to both files alike: votes, the "
          "desk's saves and refusals, sessions and the site's secrets") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db", "b.db"}, true);
  {
    Node a(dir.path / "a.db", nats, "node-a");
    Node b(dir.path / "b.db", nats, "node-b");
    for (auto *node : {&a, &b}) { // as `verdict serve --cluster` starts a node
      node->follower.catch_up();
      node->follower.start();
    }

    // A vote taken by either node is in its own file once it is acknowledged.
    CHECK_FALSE(vote_through(a, std::string(32, '1'), "codestral-2-1", Verdict::ship));
    CHECK(a.community("codestral-2-1").total == 1);
    CHECK_FALSE(vote_through(b, std::string(32, '2'), "codestral-2-1", Verdict::skip));
    CHECK(b.community("codestral-2-1").total == 2);
    CHECK_FALSE(vote_through(a, std::string(32, '2'), "codestral-2-1", std::nullopt));
    // The desk's saves, and a save refused on one node is refused as such (and on every node).
    CHECK(a.writes.submit(CreateCategory{{"agents", "Agents"}, "editor@example.com"}).done());
    CHECK(a.store.category("agents"));
    const auto again =
        b.writes.submit(CreateCategory{{"agents", "Agents again"}, "editor@example.com"});
    CHECK(again.ended == WriteResult::Ended::already_exists);
    CHECK_THAT(again.words, Catch::Contains("agents"));
    CHECK(b.store.category("agents")->name == "Agents");

    // A session started through one node holds on the other; the site's secrets are one.
    const auto editor = a.store.editor_by_email("editor@example.com")->id;
    CHECK(a.writes.submit(StartSession{"secret-hash", editor, "csrf", 4102444800}).done());
    // One that no longer fits when applied (its editor removed meanwhile) is refused alike.
    CHECK(b.writes.submit(StartSession{"other-hash", editor + 1, "csrf", 4102444800}).ended ==
          WriteResult::Ended::refused);
    // The site's secrets are the cluster key's: one on both nodes, in both files, and never an
    // entry of the stream.
    const auto entries_before = a.stream.last_sequence();
    const std::string from_a(32, 'a'), from_b(32, 'b');
    CHECK(a.writes.site_secret("vote_tokens", from_a) ==
          b.writes.site_secret("vote_tokens", from_b));
    CHECK(a.writes.site_secret("vote_tokens", from_a) != from_a);
    CHECK(a.writes.log_signing_key() == b.writes.log_signing_key());
    CHECK(a.store.log_signing_key() == b.writes.log_signing_key());
    CHECK(b.store.log_signing_key() == b.writes.log_signing_key());
    CHECK(a.stream.last_sequence() == entries_before);

    // A sign-up taken by one node owes one confirmation mail: one node's mailer claims it.
    CHECK(a.writes.submit_or_throw(RequestSubscription{"reader@example.com"}) ==
          SubscriptionRequest::mail_queued);
    REQUIRE(b.follower.wait_for(a.stream.last_sequence(), 10s));
    const auto owed = b.store.confirmations_due(1800000000, 10);
    REQUIRE(owed.size() == 1);
    CHECK(b.writes.submit_or_throw(ClaimConfirmation{owed[0].subscriber_id, 600}));
    CHECK_FALSE(a.writes.submit_or_throw(ClaimConfirmation{owed[0].subscriber_id, 600}));

    const auto last = a.stream.last_sequence();
    CHECK(last == 10);
    REQUIRE(a.follower.wait_for(last, 10s));
    REQUIRE(b.follower.wait_for(last, 10s));
    CHECK(b.store.category("agents")->name == "Agents");
    CHECK(b.store.session("secret-hash", 1700000000));
    for (auto *node : {&a, &b}) {
      CHECK(node->community("codestral-2-1").total == 1);
      CHECK(node->community("codestral-2-1").ships == 1);
      CHECK(node->store.edit_log({1, 5}).items.at(0).at == a.store.edit_log({1, 5}).items.at(0).at);
      CHECK(node->follower.problem().empty());
    }
  }
  CHECK(votes_held((dir.path / "a.db").string()) == votes_held((dir.path / "b.db").string()));

  // Node b stopped at 10. Writes go on through a; b starts again and applies 11, and only 11.
  {
    Node a(dir.path / "a.db", nats, "node-a");
    a.follower.start();
    CHECK_FALSE(vote_through(a, std::string(32, '3'), "cursor-background-agent", Verdict::ship));
  }
  Node again(dir.path / "b.db", nats, "node-b");
  CHECK(again.follower.too_far_behind().empty());
  CHECK(again.follower.catch_up() == 1);
  CHECK(again.store.applied_sequence() == 11);
  CHECK(again.community("cursor-background-agent").total == 1);

  // A write this version cannot read stops the node there, saying so, rather than skip it.
  again.stream.publish(sealed(R"({"kind":"a_kind_from_a_later_version"})", "w-later"), "w-later");
  CHECK_THROWS_WITH(again.follower.catch_up(), Catch::Contains("upgrade"));
  CHECK(again.store.applied_sequence() == 11);
}

namespace {
// Two nodes of one site's copies, each following the stream, as the vote tests start them.
struct TwoFollowingNodes {
  TwoFollowingNodes() {
    for (auto *node : {&a, &b})
      node->follower.start();
  }
  NatsCluster nats;
  test::TempDir dir;
  bool copied = (one_site_as(dir.path, {"a.db", "b.db"}), true); // before the nodes open them
  Node a{dir.path / "a.db", nats, "node-a"};
  Node b{dir.path / "b.db", nats, "node-b"};
};
} // namespace

TEST_CASE("cluster: votes taken at once through a node share entries of the stream, and each is "
          "counted once on every node") {
  TwoFollowingNodes nodes;
  auto &a = nodes.a, &b = nodes.b;
  const auto tool = a.store.tool_by_slug("codestral-2-1")->id;
  constexpr int kVotes = 50;
  std::vector<std::future<std::optional<std::string>>> heard;
  for (int i = 0; i < kVotes; ++i) {
    auto told = std::make_shared<std::promise<std::optional<std::string>>>();
    heard.push_back(told->get_future());
    char voter[33];
    std::snprintf(voter, sizeof voter, "%032d", i);
    a.writes.submit_queued(
        CastToolVote{ballot_with_token(voter, auth::tool_vote_target(tool)), tool, Verdict::ship},
        [told](const WriteResult &ended) { told->set_value(test::failure_of(ended)); });
  }
  for (auto &told : heard)
    CHECK_FALSE(told.get());
  const auto entries = a.stream.last_sequence();
  CHECK(entries < kVotes); // some entry carried more than one vote
  for (auto *node : {&a, &b}) {
    REQUIRE(node->follower.wait_for(entries, 10s));
    CHECK(node->community("codestral-2-1").total == kVotes);
  }
  // The same votes and the same vote log on both: no vote of an entry written twice.
  CHECK(votes_held((nodes.dir.path / "a.db").string()) ==
        votes_held((nodes.dir.path / "b.db").string()));

  // An entry of votes with one this version cannot read stops the node there, saying so:
  // none of its votes is applied, not even those before the one it cannot read.
  const ClusterWrite readable{
      "w-readable", "tool_vote", unix_ms(1800000000), "2027-01-15",
      nlohmann::json::parse(R"({"ballot":{"voter":")" + std::string(32, 'r') +
                            R"(","network":"nr","day":"2027-01-15","seconds_on_page":60},)"
                            R"("tool":)" +
                            std::to_string(tool) + R"(,"verdict":"ship"})")};
  auto unreadable = readable;
  unreadable.id = "w-unreadable";
  unreadable.arguments = {{"ballot", "not a ballot"}};
  b.stream.publish(sealed(encoded_together({readable, unreadable}), "w-together"), "w-together");
  const auto stopped_by = [&b] {
    for (int i = 0; i < 200 && b.follower.problem().empty(); ++i)
      std::this_thread::sleep_for(50ms);
    return b.follower.problem();
  };
  CHECK_THAT(stopped_by(), Catch::Contains("upgrade"));
  b.store.write([](sql::Db &) {}); // whatever was handed to the writer is in the file now
  CHECK(b.community("codestral-2-1").total == kVotes);
  CHECK(b.store.applied_sequence() == entries);
}

TEST_CASE("cluster: a vote whose token was made for another vote is judged where it is "
          "applied: refused, and in no file, not even set aside") {
  TwoFollowingNodes nodes;
  auto &a = nodes.a, &b = nodes.b;
  const auto tool = a.store.tool_by_slug("codestral-2-1")->id;
  // Sealed with the cluster's key and published like any vote: only its token is wrong.
  std::promise<std::optional<std::string>> told;
  a.writes.submit_queued(
      CastToolVote{ballot_with_token(std::string(32, 'f'), auth::tool_vote_target(tool + 1)), tool,
                   Verdict::ship},
      [&told](const WriteResult &ended) { told.set_value(test::failure_of(ended)); });
  const auto refused = told.get_future().get();
  REQUIRE(refused);
  CHECK_THAT(*refused, Catch::Contains("not made by this site for this vote"));
  for (auto *node : {&a, &b}) {
    REQUIRE(node->follower.wait_for(a.stream.last_sequence(), 10s));
    CHECK(node->community("codestral-2-1").total == 0);
    CHECK(node->store.tool_by_slug("codestral-2-1")->community_set_aside.total() == 0);
  }
}

namespace {

const std::vector<std::string> kVotedTools = {"cursor-background-agent", "codestral-2-1",
                                              "mistral-small-3-1"};

// `verdict serve` as a node of the cluster, as a machine of a cluster runs it.
std::vector<std::string> node_args(const NatsCluster &nats, const std::string &name,
                                   const fs::path &db) {
  const auto servers = nats.joined_urls();
  return {"serve",
          "--db",
          db.string(),
          "--port",
          "0",
          "--rate-limit",
          "0",
          "--cluster",
          servers,
          "--node",
          name,
          "--cluster-key",
          cluster_key_file(db.parent_path())};
}

// The vote token of each tool's page as a reader loads it from the node at `port`, once old
// enough for a reader's vote.
std::map<std::string, std::string> vote_tokens_from(int port) {
  httplib::Client client("127.0.0.1", port);
  std::map<std::string, std::string> tokens;
  int64_t newest = 0;
  for (const auto &tool : kVotedTools) {
    const auto page = client.Get(("/tools/" + tool).c_str());
    REQUIRE(page);
    REQUIRE(page->status == 200);
    tokens[tool] = test::vote_token_in(page->body, "/tools/" + tool + "/vote");
    REQUIRE_FALSE(tokens[tool].empty());
    newest = std::max<int64_t>(newest, std::atoll(tokens[tool].c_str()));
  }
  while (unix_now() < newest + kSecondsToReadAPage)
    std::this_thread::sleep_for(50ms);
  return tokens;
}

// Readers voting as fresh visitors through the nodes, thread i through node i modulo their
// number (0 while that node is down), keeping the voter of every vote acknowledged (303).
class ClusterVoters {
public:
  ClusterVoters(std::vector<std::atomic<int>> &ports, std::map<std::string, std::string> tokens,
                int threads)
      : ports_(ports), tokens_(std::move(tokens)) {
    for (int i = 0; i < threads; ++i)
      threads_.emplace_back([this, i] { vote_until_stopped(static_cast<size_t>(i)); });
  }
  ~ClusterVoters() { stop(); }
  void stop() {
    stop_ = true;
    for (auto &thread : threads_)
      if (thread.joinable()) thread.join();
  }
  // Waits (bounded) until `more` votes past those acknowledged now are acknowledged too.
  bool wait_for_more(size_t more, std::chrono::seconds within) {
    const auto until = acknowledged().size() + more;
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (acknowledged().size() < until) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(10ms);
    }
    return true;
  }
  std::vector<std::string> acknowledged() {
    std::lock_guard lock(mutex_);
    return acknowledged_;
  }

private:
  void vote_until_stopped(size_t thread) {
    for (size_t n = 0; !stop_; ++n) {
      const auto port = ports_[thread % ports_.size()].load();
      if (port == 0) {
        std::this_thread::sleep_for(20ms);
        continue;
      }
      httplib::Client client("127.0.0.1", port);
      client.set_connection_timeout(1);
      client.set_read_timeout(5);
      const auto voter = new_voter_id(unix_now_ms());
      const auto &tool = kVotedTools[n % kVotedTools.size()];
      const auto res = client.Post(
          ("/tools/" + tool + "/vote").c_str(),
          {{"Sec-Fetch-Site", "same-origin"}, {"Cookie", "verdict_voter=" + voter}},
          "verdict=ship&token=" + tokens_.at(tool), "application/x-www-form-urlencoded");
      if (res && res->status == 303) {
        std::lock_guard lock(mutex_);
        acknowledged_.push_back(voter);
      }
    }
  }

  std::vector<std::atomic<int>> &ports_;
  const std::map<std::string, std::string> tokens_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<std::string> acknowledged_;
  std::vector<std::thread> threads_;
};

// The voters a file holds a vote of.
std::set<std::string> voters_in(const std::string &path) {
  sql::Db db(path, sql::Db::Open::read_only);
  std::set<std::string> voters;
  auto rows = db.prepare("SELECT voter FROM tool_votes");
  while (rows.step())
    voters.insert(rows.text(0));
  return voters;
}

// Waits (bounded) until every node says it has applied the stream's last write.
bool all_applied(cluster::WriteStream &watcher, size_t nodes, std::chrono::seconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto last = watcher.last_sequence();
    const auto places = watcher.node_places(cluster_key());
    if (places.size() == nodes &&
        std::all_of(places.begin(), places.end(),
                    [last](const auto &place) { return !place.forged && place.applied == last; }))
      return true;
    std::this_thread::sleep_for(200ms);
  }
  return false;
}

} // namespace

// The votes each phase of a load waits for are divided by this under a sanitizer: every vote
// costs it several times as much, a share of the load takes the same code paths past its
// checks of memory and threads, and the Release run (`./dev test`) carries the whole load.
#ifdef VERDICT_SANITIZED
constexpr int kLoadShare = 3;
#else
constexpr int kLoadShare = 1;
#endif

TEST_CASE("cluster: three verdict nodes under a vote load lose no acknowledged vote when a NATS "
          "server or a node is killed (kill -9) or a node is paused, refuse writes with a quick "
          "503 while reads go on with two of three NATS servers down, and end with identical "
          "votes") {
  NatsCluster nats;
  test::TempDir dir;
  const std::vector<std::string> names = {"web-1", "web-2", "web-3"};
  const auto file_of = [&](const std::string &name) { return dir.path / (name + ".db"); };
  // One site's file, copied to each node, as a new node starts from another's backup.
  {
    Store made(file_of("web-1").string());
    test::import_content(made, test::seeded_store()->export_content());
  }
  for (size_t i = 1; i < names.size(); ++i)
    fs::copy_file(file_of("web-1"), file_of(names[i]));
  std::vector<std::unique_ptr<test::Server>> nodes;
  std::vector<std::atomic<int>> ports(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    nodes.push_back(std::make_unique<test::Server>(node_args(nats, names[i], file_of(names[i]))));
    ports[i] = nodes[i]->port;
  }
  // Tokens from one node's pages are good on every node: the site's secrets are one.
  ClusterVoters voters(ports, vote_tokens_from(nodes[0]->port), 6);
  REQUIRE(voters.wait_for_more(150 / kLoadShare, 60s));

  // A NATS server killed: the two left are a majority, votes go on.
  nats.kill_server(0, SIGKILL);
  CHECK(voters.wait_for_more(150 / kLoadShare, 60s));
  nats.start(0);
  nats.wait_until_ready();

  // A node killed: votes go on through the others; started again, it catches up by itself.
  ports[2] = 0;
  nodes[2]->stop(SIGKILL);
  CHECK(voters.wait_for_more(150 / kLoadShare, 60s));
  nodes[2] = std::make_unique<test::Server>(node_args(nats, names[2], file_of(names[2])));
  ports[2] = nodes[2]->port;
  CHECK(voters.wait_for_more(100 / kLoadShare, 60s));

  // A node paused and let go again: it goes on where it was.
  kill(nodes[1]->pid(), SIGSTOP);
  CHECK(voters.wait_for_more(100 / kLoadShare, 60s));
  kill(nodes[1]->pid(), SIGCONT);
  CHECK(voters.wait_for_more(100 / kLoadShare, 60s));
  voters.stop();

  // Two of three NATS servers down: a write is refused within seconds, saying why; nothing is
  // acknowledged; pages are read as before.
  nats.kill_server(1, SIGKILL);
  nats.kill_server(2, SIGKILL);
  {
    httplib::Client client("127.0.0.1", nodes[0]->port);
    client.set_read_timeout(20);
    const auto token = vote_tokens_from(nodes[0]->port).at("codestral-2-1");
    const auto asked = std::chrono::steady_clock::now();
    const auto refused =
        client.Post("/tools/codestral-2-1/vote",
                    {{"Sec-Fetch-Site", "same-origin"},
                     {"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}},
                    "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(std::chrono::steady_clock::now() - asked < 5s);
    CHECK(test::visible_text(refused->body).find("cannot take writes right now") !=
          std::string::npos);
    const auto page = client.Get("/tools/codestral-2-1");
    REQUIRE(page);
    CHECK(page->status == 200);
  }
  nats.start(1);
  nats.start(2);
  nats.wait_until_ready();

  // Every node applies every write; then their files hold the same votes, every vote
  // acknowledged among them.
  cluster::WriteStream watcher(settings_for(nats, "test-watcher"));
  CHECK(all_applied(watcher, names.size(), 60s));
  for (auto &node : nodes)
    CHECK(WIFEXITED(node->stop(SIGTERM)));
  const auto acknowledged = voters.acknowledged();
  const auto held = voters_in(file_of("web-1").string());
  // A node keeps (and publishes) a reader's cookie as its keyed hash, never as it is.
  const auto kept = [](const std::string &cookie) {
    return cookie.substr(0, 12) +
           auth::keyed_hash(cluster_key().secret("voter_cookies"), cookie).substr(0, 20);
  };
  size_t missing = 0, cookies_kept = 0;
  for (const auto &voter : acknowledged) {
    missing += held.count(kept(voter)) == 0;
    cookies_kept += held.count(voter);
  }
  CHECK(acknowledged.size() >= 750 / kLoadShare); // every phase's votes
  CHECK(missing == 0);
  CHECK(cookies_kept == 0);
  const auto votes = votes_held(file_of("web-1").string());
  CHECK(votes_held(file_of("web-2").string()) == votes);
  CHECK(votes_held(file_of("web-3").string()) == votes);
}

TEST_CASE("cluster: a node whose file is older than anything the stream still keeps says so and "
          "does not follow it, and one within it catches up") {
  NatsCluster nats;
  test::TempDir dir;
  auto settings = settings_for(nats, "maker");
  settings.most_kept = 3;
  cluster::WriteStream stream(settings); // makes the stream, keeping the last 3 writes
  {
    Store made((dir.path / "old.db").string());
    test::import_content(made, test::seeded_store()->export_content());
  }
  fs::copy_file(dir.path / "old.db", dir.path / "recent.db");
  {
    Node recent(dir.path / "recent.db", nats, "recent");
    recent.follower.start();
    recent.follower.catch_up();
    for (int i = 0; i < 2; ++i) // writes 1 and 2, applied by the recent node
      CHECK_FALSE(vote_through(recent, std::string(32, static_cast<char>('a' + i)), "codestral-2-1",
                               Verdict::ship));
  }
  for (int i = 2; i < 5; ++i) // writes 3 to 5, the recent node down meanwhile
    stream.publish(sealed(encoded(ClusterWrite{"w" + std::to_string(i),
                                               "end_session",
                                               1,
                                               "2025-11-24",
                                               {{"secret_hash", "s" + std::to_string(i)}}}),
                          "w" + std::to_string(i)),
                   "w" + std::to_string(i));
  CHECK(stream.first_sequence() == 3);
  CHECK(stream.last_sequence() == 5);

  Node old(dir.path / "old.db", nats, "old");
  CHECK_THAT(old.follower.too_far_behind(),
             Catch::Contains("up to 0") && Catch::Contains("newer `verdict backup`"));
  // Its server does not start on it.
  const auto servers = nats.joined_urls();
  std::string said;
  CHECK(
      test::run_binary({"serve", "--db", (dir.path / "old.db").string(), "--port", "0", "--cluster",
                        servers, "--node", "old", "--cluster-key", cluster_key_file(dir.path)},
                       &said) == 1);
  CHECK(said.find("newer `verdict backup`") != std::string::npos);

  // The node that had applied up to 2 needs 3 on, all kept: it catches up.
  Node recent(dir.path / "recent.db", nats, "recent");
  CHECK(recent.follower.too_far_behind().empty());
  CHECK(recent.follower.catch_up() == 3);
  CHECK(recent.store.applied_sequence() == 5);
}

TEST_CASE("cluster: the weekly digest is made and sent once for the cluster, whichever node runs "
          "verdict digest, and a second run on another node sends nobody anything again") {
  NatsCluster nats;
  test::TempDir dir;
  const auto first = (dir.path / "web-1.db").string();
  {
    auto site = open_site_database(first);
    for (const auto *email : {"ada@example.com", "bob@example.com"})
      test::request_subscription(*site, email, unix_now());
    site->write([](sql::Db &db) {
      db.exec("UPDATE comparisons SET published_on = date('now') WHERE published_on IS NOT NULL");
      db.exec("UPDATE subscribers SET status = 'confirmed'");
    });
  }
  const auto second = (dir.path / "web-2.db").string();
  fs::copy_file(first, second);
  const auto servers = nats.joined_urls();
  const auto digest_on = [&](const std::string &db, const std::string &node,
                             const std::string &smtp) {
    return std::vector<std::string>{"digest",
                                    "--db",
                                    db,
                                    "--since",
                                    "7d",
                                    "--smtp",
                                    smtp,
                                    "--from",
                                    "news@verdict.example",
                                    "--base-url",
                                    "https://verdict.example",
                                    "--cluster",
                                    servers,
                                    "--node",
                                    node,
                                    "--cluster-key",
                                    cluster_key_file(dir.path)};
  };
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  REQUIRE(test::run_binary(digest_on(first, "web-1", sink.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("Sent 2 of 2.") != std::string::npos);
  CHECK(sink.messages().size() == 2);

  // The other node's file never saw that run, but the cluster did: its run sends nothing.
  REQUIRE(test::run_binary(digest_on(second, "web-2", sink.url()), &said) == 0);
  CHECK(said.find("Nothing new was published") != std::string::npos);
  CHECK(sink.messages().size() == 2);
  // Run on a node's file, the run leaves the file itself to the node's own server.
  CHECK(Store(first).applied_sequence() == 0);
}

TEST_CASE("cluster: verdict user and verdict import on one node reach every node through the "
          "stream") {
  NatsCluster nats;
  test::TempDir dir;
  const auto [first, second] = two_node_files(dir);
  const auto servers = nats.joined_urls();
  const std::vector<std::string> on_web_1 = {
      "--db",   first,   "--cluster",     servers,
      "--node", "web-1", "--cluster-key", cluster_key_file(dir.path)};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), on_web_1.begin(), on_web_1.end());
    return args;
  };
  const auto password = (dir.path / "password").string();
  std::ofstream(password) << "a long enough password\n";
  std::string said;
  REQUIRE(test::run_binary(with({"user", "add", "editor@example.com"}), &said, password) == 0);
  auto content = test::seeded_store()->export_content();
  content.categories.push_back({"agents", "Agents"});
  const auto file = (dir.path / "content.json").string();
  std::ofstream(file) << content_to_json(content);
  REQUIRE(test::run_binary(with({"import", file}), &said) == 0);
  CHECK(said.find("created 1 category") != std::string::npos);
  // Refused there as a lone server refuses it: nothing goes through.
  CHECK(test::run_binary(with({"user", "add", "editor@example.com"}), &said, password) == 1);

  for (const auto &db : {first, second}) {
    Node node(db, nats, "node-of-" + fs::path(db).stem().string());
    CHECK(node.follower.catch_up() == 2);
    CHECK(node.store.editor_by_email("editor@example.com"));
    CHECK(node.store.category("agents"));
  }
}

TEST_CASE("cluster: verdict checkpoint on one node signs one checkpoint into every node's file, "
          "made even beside a recent one") {
  NatsCluster nats;
  test::TempDir dir;
  const auto [first, second] = two_node_files(dir);
  const auto servers = nats.joined_urls();
  const auto checkpoint_on_web_1 = [&] {
    std::string said;
    CHECK(test::run_binary({"checkpoint", "--db", first, "--cluster", servers, "--node", "web-1",
                            "--cluster-key", cluster_key_file(dir.path)},
                           &said) == 0);
    CHECK(said.find("checkpoint: ") != std::string::npos);
  };
  checkpoint_on_web_1();
  checkpoint_on_web_1(); // by hand: made though the first is seconds old
  const auto checkpoints_in = [](const std::string &db) {
    Store store(db);
    std::vector<std::string> signed_ones;
    for (const auto &checkpoint : store.latest_checkpoints(10))
      signed_ones.push_back(std::to_string(checkpoint.size) + " " + merkle::hex(checkpoint.root) +
                            " " + std::to_string(checkpoint.made_at) + " " + checkpoint.signature);
    return signed_ones;
  };
  for (const auto &db : {first, second}) {
    Node node(db, nats, "node-of-" + fs::path(db).stem().string());
    CHECK(node.follower.catch_up() == 2);
  }
  const auto on_web_1 = checkpoints_in(first);
  CHECK(on_web_1.size() == 2);
  CHECK(checkpoints_in(second) == on_web_1);
}

TEST_CASE("cluster: failed sign-ins counted by one node hold back the same guesser on another, "
          "and what a node hears from the others it tells nobody again") {
  auth::SignInThrottle first, second;
  std::vector<auth::SignInThrottle::Counted> told_by_first, told_by_second;
  first.share_with([&](const auto &counted) {
    told_by_first.push_back(counted);
    second.counted_elsewhere(counted);
  });
  second.share_with([&](const auto &counted) { told_by_second.push_back(counted); });
  for (int i = 0; i < 5; ++i)
    test::wrong_password(first, "198.51.100.0/24", "editor@example.com");
  CHECK(told_by_first.size() == 5);
  CHECK(told_by_second.empty()); // heard, not told again
  CHECK(test::held_back(second, "198.51.100.0/24", "editor@example.com").seconds.count() > 0);
  CHECK(test::held_back(second, "203.0.113.0/24", "editor@example.com").seconds.count() == 0);
}

TEST_CASE("cluster: a guesser of desk passwords spreading tries over two nodes is held back as "
          "on one server, and an editor signs in on either node") {
  NatsCluster nats;
  test::TempDir dir;
  const auto site = (dir.path / "web-1.db").string();
  {
    Store store(site);
    test::import_content(store, test::seeded_store()->export_content());
    test::add_editor(store, "editor@example.com", auth::hash_password("a long enough password"));
  }
  fs::copy_file(site, dir.path / "web-2.db");
  test::Server one(node_args(nats, "web-1", site));
  test::Server two(node_args(nats, "web-2", dir.path / "web-2.db"));
  const auto try_password = [](int port, const std::string &password) {
    httplib::Client client("127.0.0.1", port);
    const auto res = client.Post("/admin/login", {{"Sec-Fetch-Site", "same-origin"}},
                                 "email=editor%40example.com&password=" + password,
                                 "application/x-www-form-urlencoded");
    REQUIRE(res);
    return res->status;
  };
  // A session made on one node is good on the other.
  httplib::Client on_one("127.0.0.1", one.port), on_two("127.0.0.1", two.port);
  const auto session =
      test::sign_in_at_desk(on_one, "editor@example.com", "a long enough password");
  // Polled until the other node has applied the session's start (reading the desk writes
  // nothing).
  int desk_status = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + 10s;
       desk_status != 200 && std::chrono::steady_clock::now() < deadline;) {
    const auto desk = test::get_at_desk(on_two, session, "/admin");
    REQUIRE(desk);
    desk_status = desk->status;
    if (desk_status != 200) std::this_thread::sleep_for(50ms);
  }
  CHECK(desk_status == 200);

  // Five failures on one node: the other holds the account back once it hears them. It is
  // asked with wrong passwords at most four times, each a failure of its own, so a refusal
  // there can only come from what it heard; the asks are spaced out to wait for the news.
  for (int i = 0; i < 5; ++i)
    CHECK(try_password(one.port, "wrong") == 401);
  CHECK(try_password(one.port, "wrong") == 429);
  int on_two_status = 0;
  for (const std::chrono::milliseconds wait : {200ms, 1000ms, 3000ms, 6000ms}) {
    std::this_thread::sleep_for(wait);
    on_two_status = try_password(two.port, "wrong");
    if (on_two_status == 429) break;
  }
  CHECK(on_two_status == 429);
  CHECK(try_password(two.port, "a long enough password") == 429);

  // `verdict cluster status` lists both nodes, each at the stream's last write.
  const auto servers = nats.joined_urls();
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  std::string said;
  const auto both_current = [&] {
    return said.find("web-1 ") != std::string::npos && said.find("web-2 ") != std::string::npos &&
           std::regex_search(said, std::regex("web-1 +[0-9]+ +0 ")) &&
           std::regex_search(said, std::regex("web-2 +[0-9]+ +0 "));
  };
  do {
    std::this_thread::sleep_for(500ms);
    REQUIRE(test::run_binary({"cluster", "status", "--cluster", servers, "--cluster-key",
                              cluster_key_file(dir.path)},
                             &said) == 0);
  } while (!both_current() && std::chrono::steady_clock::now() < deadline);
  INFO(said);
  CHECK(both_current());
  CHECK(said.find("The stream of writes holds") != std::string::npos);
  // A node stopped falls behind as writes go on, and shows so.
  two.stop(SIGKILL);
  const auto password = (dir.path / "password").string();
  std::ofstream(password) << "another long enough password\n";
  REQUIRE(test::run_binary({"user", "add", "second@example.com", "--db", site, "--cluster", servers,
                            "--node", "web-1", "--cluster-key", cluster_key_file(dir.path)},
                           &said, password) == 0);
  REQUIRE(test::run_binary({"cluster", "status", "--cluster", servers, "--cluster-key",
                            cluster_key_file(dir.path)},
                           &said) == 0);
  CHECK(std::regex_search(said, std::regex("web-2 +[0-9]+ +[1-9]")));
}

TEST_CASE("cluster: whoever reaches the NATS servers without the cluster's key cannot write: "
          "forged, cut-short, moved, replayed and unknown entries are skipped and counted, "
          "never halt a node, and the stream shows no secret") {
  NatsCluster nats;
  test::TempDir dir;
  const std::string password_hash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$c2VjcmV0LWhhc2g";
  {
    Store site((dir.path / "a.db").string());
    test::import_content(site, test::seeded_store()->export_content());
    test::add_editor(site, "editor@example.com", password_hash);
  }
  fs::copy_file(dir.path / "a.db", dir.path / "b.db");

  // Without the broker's credentials, nobody is let in at all.
  CHECK_THROWS_AS(cluster::WriteStream(settings_for(nats, "stranger", 0)),
                  cluster::StreamUnavailable);

  Node a(dir.path / "a.db", nats, "node-a", 1500ms);
  Node b(dir.path / "b.db", nats, "node-b", 1500ms);
  for (auto *node : {&a, &b}) {
    node->follower.catch_up();
    node->follower.start();
  }
  const std::string reader(32, 'c'), later_reader(32, 'd');
  REQUIRE_FALSE(vote_through(a, reader, "codestral-2-1", Verdict::ship));
  const auto real = a.stream.entry_at(a.stream.last_sequence());
  REQUIRE(real);
  const auto tool = a.store.tool_by_slug("codestral-2-1")->id;
  const auto editor = a.store.editor_by_email("editor@example.com")->id;

  // A node broken into, say: its broker credentials, but not the key.
  cluster::WriteStream intruder(settings_for(nats, "intruder", 3));
  const auto now = unix_now() * 1000;
  const auto today = a.store.today();
  std::vector<ClusterWrite> many_votes;
  for (int i = 0; i < 50; ++i) {
    char voter[33];
    std::snprintf(voter, sizeof voter, "%032d", i);
    many_votes.push_back({"x-vote-" + std::to_string(i),
                          "tool_vote",
                          now,
                          today,
                          {{"ballot",
                            {{"voter", voter},
                             {"network", "own " + std::to_string(i)},
                             {"day", today},
                             {"seconds_on_page", 30},
                             {"token", "1.x"}}},
                           {"tool", tool},
                           {"verdict", "ship"}}});
  }
  const auto other_key = cluster::ClusterKey::from_text(cluster::ClusterKey::new_file_text());
  const auto add_mallory =
      encoded(ClusterWrite{"x-editor",
                           "add_editor",
                           now,
                           today,
                           {{"email", "mallory@example.com"}, {"password_hash", password_hash}}});
  const std::vector<std::pair<std::string, std::string>> forged = {
      {"x-editor", add_mallory},
      {"x-session", encoded(ClusterWrite{"x-session",
                                         "start_session",
                                         now,
                                         today,
                                         {{"secret_hash", "forged"},
                                          {"editor_id", editor},
                                          {"csrf", "c"},
                                          {"expires_at", 4102444800}}})},
      {"x-votes", encoded_together(many_votes)},
      {"x-later", R"({"kind":"a_kind_from_a_later_version"})"},
      {"x-garbage", std::string("\x00\xff not an entry", 16)},
      {"x-other-key", other_key.seal(add_mallory, "x-other-key", now)},
      {"x-cut", real->payload.substr(0, real->payload.size() - 5)},
      {"x-moved", real->payload}, // a real entry published again under another id
  };
  for (const auto &[id, payload] : forged)
    REQUIRE(intruder.publish(payload, id) > 0);
  // The same entry under its own id within the stream's window is stored once, by JetStream.
  const auto before_replay = intruder.last_sequence();
  CHECK(intruder.publish(real->payload, real->id) == real->sequence);
  CHECK(intruder.last_sequence() == before_replay);

  // Sealed with the key but claiming what only the applying node may judge: a vote whose token
  // this site never made is refused where it is applied.
  ClusterWrite claimed = many_votes.front();
  claimed.id = "x-claimed";
  a.stream.publish(sealed(encoded(claimed), claimed.id), claimed.id);

  // The genuine writes go on past all of it.
  REQUIRE_FALSE(vote_through(b, later_reader, "codestral-2-1", Verdict::skip));
  const auto last = a.stream.last_sequence();
  REQUIRE(a.follower.wait_for(last, 10s));
  REQUIRE(b.follower.wait_for(last, 10s));
  for (auto *node : {&a, &b}) {
    CHECK(node->follower.problem().empty());
    CHECK(node->follower.skipped() == forged.size());
    CHECK_FALSE(node->store.editor_by_email("mallory@example.com"));
    CHECK_FALSE(node->store.session("forged", unix_now()));
    CHECK(node->community("codestral-2-1").total == 2);
    CHECK(node->store.tool_by_slug("codestral-2-1")->name ==
          a.store.tool_by_slug("codestral-2-1")->name);
  }
  CHECK(votes_held((dir.path / "a.db").string()) == votes_held((dir.path / "b.db").string()));
  // The vote sealed with a token this site never made is in neither file, not even set aside.
  CHECK(voters_in((dir.path / "a.db").string()) == std::set<std::string>{reader, later_reader});

  // What the nodes publish (a sign-up, a password set, a session) and what they keep: none of
  // it can be read off the stream by a process holding the broker's credentials.
  CHECK(a.writes.submit_or_throw(RequestSubscription{"reader@example.com"}) ==
        SubscriptionRequest::mail_queued);
  CHECK(a.writes.submit(SetEditorPassword{"editor@example.com", password_hash + "2"}).done());
  CHECK(a.writes.submit(StartSession{"session-secret-hash", editor, "csrf-token", 4102444800})
            .done());
  std::string everything;
  for (uint64_t sequence = 1; auto entry = intruder.entry_at(sequence); ++sequence)
    if (entry->id.rfind("x-", 0) != 0) everything += entry->payload;
  REQUIRE_FALSE(everything.empty());
  std::vector<std::string> secrets = {
      reader,        later_reader,          "reader@example.com", "editor@example.com",
      password_hash, "session-secret-hash", "csrf-token",         "codestral-2-1"};
  for (const auto name : cluster::kSiteSecretNames)
    secrets.push_back(cluster_key().secret(name));
  secrets.push_back(cluster_key().secret("voter_cookies"));
  for (const auto &secret : secrets) {
    INFO(secret);
    CHECK(everything.find(secret) == std::string::npos);
  }
}

namespace {

// A reader's vote on `tool` through the node at `port`, as the reader's browser sends it: the
// status answered.
int vote_by_form(int port, const std::string &voter, const std::string &tool,
                 const std::string &verdict) {
  httplib::Client client("127.0.0.1", port);
  const auto page = client.Get(("/tools/" + tool).c_str());
  REQUIRE(page);
  const auto token = test::vote_token_in(page->body, "/tools/" + tool + "/vote");
  REQUIRE_FALSE(token.empty());
  // As long as a reader takes to read the page: the node judges the token by its own clock.
  const auto read_until =
      std::chrono::steady_clock::now() + std::chrono::seconds(kSecondsToReadAPage + 1);
  while (std::chrono::steady_clock::now() < read_until)
    std::this_thread::sleep_for(50ms);
  const auto sent =
      client.Post(("/tools/" + tool + "/vote").c_str(),
                  {{"Sec-Fetch-Site", "same-origin"}, {"Cookie", "verdict_voter=" + voter}},
                  "verdict=" + verdict + "&token=" + token, "application/x-www-form-urlencoded");
  REQUIRE(sent);
  return sent->status;
}

using test::kLibFaketime; // FAKETIME="+70s": a node's clock 70 s ahead

// What a node's file says, read beside the running node: one number of a query.
int64_t file_number(const fs::path &file, const char *query) {
  sql::Db db(file.string(), sql::Db::Open::read_only);
  auto rows = db.prepare(query);
  return rows.step() ? rows.int64(0) : -1;
}

// Waits (bounded) until the node's file has applied `sequence`.
bool file_applied(const fs::path &file, uint64_t sequence, std::chrono::seconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (file_number(file, "SELECT sequence FROM cluster_applied") <
         static_cast<int64_t>(sequence)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

} // namespace

TEST_CASE("cluster: an entry of the cluster's published again after the stream's window is "
          "skipped as a replay, not applied twice") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db"});
  // The stream keeps an id for a second only, so the replay is stored as a new entry.
  auto settings = settings_for(nats, "maker");
  settings.duplicate_window = 1s;
  cluster::WriteStream maker(settings);
  Node a(dir.path / "a.db", nats, "node-a", 1500ms);
  a.follower.catch_up();
  a.follower.start();
  REQUIRE_FALSE(vote_through(a, std::string(32, 'c'), "codestral-2-1", Verdict::ship));
  REQUIRE_FALSE(vote_through(a, std::string(32, 'c'), "codestral-2-1", std::nullopt));
  const auto vote = a.stream.entry_at(1);
  REQUIRE(vote);
  std::this_thread::sleep_for(2600ms);
  cluster::WriteStream intruder(settings_for(nats, "intruder", 3));
  const auto replayed = intruder.publish(vote->payload, vote->id);
  CHECK(replayed == 3); // stored anew: the stream no longer knew its id
  REQUIRE(a.follower.wait_for(replayed, 10s));
  CHECK(a.follower.skipped() == 1);
  CHECK(a.follower.last_skipped() == 3);
  CHECK(a.community("codestral-2-1").total == 0); // the reader's withdrawal stands
  CHECK(a.follower.problem().empty());

  // An entry of the cluster's that was never stored before, sealed long before the stream
  // stored it (a seal kept back, or a node whose clock is far behind): no id to know it by,
  // and skipped all the same.
  const auto taken = ClusterWrite{
      "kept-back-vote", "tool_vote", unix_now_ms() - 600'000, a.store.today(),
      arguments_of(Write{CastToolVote{
          ballot_with_token(std::string(32, 'k'),
                            auth::tool_vote_target(a.store.tool_by_slug("codestral-2-1")->id)),
          a.store.tool_by_slug("codestral-2-1")->id, Verdict::ship}})};
  const auto kept_back = intruder.publish(
      cluster_key().seal(encoded(taken), "kept-back", unix_now_ms() - 600'000), "kept-back");
  REQUIRE(a.follower.wait_for(kept_back, 10s));
  CHECK(a.follower.skipped() == 2);
  CHECK(a.follower.last_skipped() == kept_back);
  CHECK(a.community("codestral-2-1").total == 0);
}

TEST_CASE("cluster: a node whose clock is far behind the servers' (libfaketime) says so and "
          "does not serve, so no reader is told a vote was saved that every node would skip") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"web-1.db"});
  const auto file = dir.path / "web-1.db";
  const std::string asan_options = getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "";
  const auto with_asan = asan_options + ":verify_asan_link_order=0";
  // 150 s behind: every node would skip its entries as stored long after they were sealed.
  std::string said;
  CHECK(test::run_binary(node_args(nats, "web-1", file), &said, "/dev/null",
                         {"LD_PRELOAD=" + std::string(kLibFaketime), "FAKETIME=-150s",
                          "ASAN_OPTIONS=" + with_asan}) != 0);
  CHECK_THAT(said,
             Catch::Contains("s behind the NATS servers'") && Catch::Contains("systemd-timesyncd"));
  CHECK_THAT(said, !Catch::Contains("serving http"));
  // 60 s behind is within what the guide allows: it serves, and takes a vote.
  setenv("LD_PRELOAD", kLibFaketime, 1);
  setenv("FAKETIME", "-60s", 1);
  setenv("ASAN_OPTIONS", with_asan.c_str(), 1);
  test::Server near(node_args(nats, "web-1", file));
  unsetenv("LD_PRELOAD");
  unsetenv("FAKETIME");
  setenv("ASAN_OPTIONS", asan_options.c_str(), 1);
  CHECK(vote_by_form(near.port, new_voter_id(unix_now_ms()), "codestral-2-1", "ship") == 303);
  CHECK(file_number(file, "SELECT count(*) FROM tool_votes") == 1);
}

namespace {

// The resident memory of process `pid`, in KiB.
long resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// /healthz of the node at `port`: its status and what it says.
std::pair<int, std::string> health_of(int port) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10);
  const auto said = client.Get("/healthz");
  return said ? std::pair{said->status, said->body} : std::pair{0, std::string()};
}

// /healthz of the node at `port` once it answers `status`, or its last answer after `within`.
std::pair<int, std::string> health_once(int port, int status, std::chrono::seconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  auto health = health_of(port);
  while (health.first != status && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(200ms);
    health = health_of(port);
  }
  return health;
}

} // namespace

TEST_CASE("cluster: with two of three NATS servers down, 200 readers voting at once are each "
          "answered within 3 s by a 503 that says why and when to try again, nothing is "
          "acknowledged, /healthz says so, a node started meanwhile serves its pages, and writes "
          "come back with the servers, and a reader's verify agrees on every node") {
  NatsCluster nats;
  test::TempDir dir;
  const std::vector<std::string> names = {"web-1", "web-2"};
  const auto file_of = [&](const std::string &name) { return dir.path / (name + ".db"); };
  {
    Store made(file_of("web-1").string());
    test::import_content(made, test::seeded_store()->export_content());
  }
  fs::copy_file(file_of("web-1"), file_of("web-2"));
  std::vector<std::unique_ptr<test::Server>> nodes;
  for (const auto &name : names)
    nodes.push_back(std::make_unique<test::Server>(node_args(nats, name, file_of(name))));

  // One signing key for the cluster: a reader's verify, remembering what it saw through one
  // node, agrees through the other (as after a balancer fails over).
  const auto state = (dir.path / "verify-state.json").string();
  std::string said_first, said_second;
  const int first = test::run_binary(
      {"verify", "http://127.0.0.1:" + std::to_string(nodes[0]->port), "--state", state},
      &said_first);
  const int second = test::run_binary(
      {"verify", "http://127.0.0.1:" + std::to_string(nodes[1]->port), "--state", state},
      &said_second);
  INFO(said_first << "\n--\n" << said_second);
  CHECK(first == 0);
  CHECK(second == 0);
  CHECK(said_second.find("not the one seen before") == std::string::npos);
  for (auto &node : nodes)
    CHECK(health_of(node->port).first == 200);

  const auto tokens = vote_tokens_from(nodes[0]->port);
  nats.kill_server(1, SIGKILL);
  nats.kill_server(2, SIGKILL);
  // Before anyone writes through it, a node's /healthz says it cannot write: the servers take
  // none of its own reports (a balancer then sends writers elsewhere).
  for (auto &node : nodes) {
    const auto [status, body] = health_once(node->port, 503, 20s);
    CHECK(status == 503);
    CHECK_THAT(body, Catch::Contains("stream"));
  }
  const auto memory_before = resident_kib(nodes[0]->pid());

  constexpr int kReaders = 200;
  std::atomic<int> refused_saying_why{0}, acknowledged{0}, slow{0};
  std::vector<std::string> outage_voters(kReaders);
  std::string first_answer;
  std::vector<std::thread> readers;
  for (int i = 0; i < kReaders; ++i)
    readers.emplace_back([&, i] {
      httplib::Client client("127.0.0.1", nodes[static_cast<size_t>(i % 2)]->port);
      client.set_read_timeout(20);
      outage_voters[static_cast<size_t>(i)] = new_voter_id(unix_now_ms());
      const auto asked = std::chrono::steady_clock::now();
      const auto answer = client.Post(
          "/tools/codestral-2-1/vote",
          {{"Sec-Fetch-Site", "same-origin"},
           {"Cookie", "verdict_voter=" + outage_voters[static_cast<size_t>(i)]}},
          "verdict=ship&token=" + tokens.at("codestral-2-1"), "application/x-www-form-urlencoded");
      if (std::chrono::steady_clock::now() - asked > 3s) ++slow;
      if (i == 0 && answer)
        first_answer = std::to_string(answer->status) + " " +
                       answer->get_header_value("Retry-After") + " " +
                       test::visible_text(answer->body);
      if (answer && answer->status == 303) ++acknowledged;
      if (answer && answer->status == 503 && answer->has_header("Retry-After") &&
          test::visible_text(answer->body).find("cannot take writes right now") !=
              std::string::npos)
        ++refused_saying_why;
    });
  for (auto &reader : readers)
    reader.join();
  INFO(first_answer);
  CHECK(acknowledged == 0);
  CHECK(refused_saying_why == kReaders);
#ifndef VERDICT_SANITIZED
  // The shipped build's promise; a sanitizer's build runs several times slower and keeps
  // shadow memory, so it checks what was answered, not how soon or in how much memory.
  CHECK(slow == 0);
  // The queue is bounded and the refused forgotten: no growth beyond a few pages' worth.
  CHECK(resident_kib(nodes[0]->pid()) - memory_before < 64 * 1024);
#else
  (void)memory_before;
#endif
  // The servers left may take a few seconds to notice they lost their leader; /healthz says
  // so once they do (or once a write was refused).
  for (auto &node : nodes) {
    const auto [status, body] = health_once(node->port, 503, 15s);
    CHECK(status == 503);
    CHECK_THAT(body, Catch::Contains("stream"));
  }

  // A node started while the stream cannot answer serves the pages its file has, says on
  // /healthz that they may be behind, and refuses writes.
  nodes[1]->stop(SIGTERM);
  nodes[1] = std::make_unique<test::Server>(node_args(nats, "web-2", file_of("web-2")));
  {
    httplib::Client client("127.0.0.1", nodes[1]->port);
    const auto page = client.Get("/tools/codestral-2-1");
    REQUIRE(page);
    CHECK(page->status == 200);
    // A vote is refused; from then /healthz says so (the server left may still call itself
    // the stream's leader, so the refusal is what tells).
    client.set_read_timeout(20);
    const auto refused = client.Post("/tools/codestral-2-1/vote",
                                     {{"Sec-Fetch-Site", "same-origin"},
                                      {"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}},
                                     "verdict=ship&token=" + tokens.at("codestral-2-1"),
                                     "application/x-www-form-urlencoded");
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(health_of(nodes[1]->port).first == 503);
  }

  // The servers back: writes are taken again on both nodes, and /healthz says ok.
  nats.start(1);
  nats.start(2);
  nats.wait_until_ready();
  const auto fresh_tokens = vote_tokens_from(nodes[0]->port);
  for (auto &node : nodes) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    int status = 0;
    while (status != 303 && std::chrono::steady_clock::now() < deadline) {
      httplib::Client client("127.0.0.1", node->port);
      client.set_read_timeout(20);
      const auto answer = client.Post("/tools/codestral-2-1/vote",
                                      {{"Sec-Fetch-Site", "same-origin"},
                                       {"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}},
                                      "verdict=ship&token=" + fresh_tokens.at("codestral-2-1"),
                                      "application/x-www-form-urlencoded");
      status = answer ? answer->status : 0;
      if (status != 303) std::this_thread::sleep_for(500ms);
    }
    CHECK(status == 303);
    const auto health = health_once(node->port, 200, 20s);
    INFO(health.second);
    CHECK(health.first == 200);
  }

  // Every node ends with the same votes. (A vote refused with "may not have been saved" can
  // still land once the servers return, if the one server left had taken it: JetStream then
  // commits it. What holds is that nothing was acknowledged that the stream did not hold.)
  cluster::WriteStream watcher(settings_for(nats, "test-watcher"));
  CHECK(all_applied(watcher, names.size(), 60s));
  for (auto &node : nodes)
    CHECK(WIFEXITED(node->stop(SIGTERM)));
  CHECK(votes_held(file_of("web-1").string()) == votes_held(file_of("web-2").string()));
  CHECK(voters_in(file_of("web-1").string()).size() >= 2);
}

TEST_CASE("cluster: verdict cluster key writes a key only its owner reads, never over another, "
          "carries a site's secrets with --db, and a node refuses to start without one") {
  test::TempDir dir;
  const auto key = (dir.path / "cluster.key").string();
  std::string said;
  REQUIRE(test::run_binary({"cluster", "key", "--out", key}, &said) == 0);
  CHECK((fs::status(key).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  const auto made = test::read_file(key);
  const auto loaded = cluster::ClusterKey::from_file(key);
  CHECK(loaded.open(loaded.seal("entry", "id-1", 5), "id-1")->plain == "entry");
  CHECK_FALSE(loaded.open(loaded.seal("entry", "id-1", 5), "id-2"));
  CHECK_FALSE(cluster_key().open(loaded.seal("entry", "id-1", 5), "id-1"));

  // A key in use is never overwritten by mistake.
  CHECK(test::run_binary({"cluster", "key", "--out", key}, &said) == 1);
  CHECK_THAT(said, Catch::Contains("a file is there already"));
  CHECK(test::read_file(key) == made);

  // A key others can read is refused, saying how to mend it.
  fs::permissions(key, fs::perms::group_read, fs::perm_options::add);
  CHECK_THROWS_WITH(cluster::ClusterKey::from_file(key), Catch::Contains("chmod 600"));

  // From a site served alone before: its secrets go into the key, so links and the vote log's
  // signing key stay what readers know.
  const auto site = (dir.path / "site.db").string();
  std::string signing;
  {
    auto store = open_site_database(site);
    signing = store->log_signing_key();
  }
  const auto carrying = (dir.path / "carrying.key").string();
  REQUIRE(test::run_binary({"cluster", "key", "--out", carrying, "--db", site}, &said) == 0);
  CHECK(cluster::ClusterKey::from_file(carrying).secret("vote_log_signing") == signing);
  CHECK(loaded.secret("vote_log_signing") != signing);

  // A node without the key does not start, and a password in an address is never shown.
  CHECK(test::run_binary({"serve", "--db", site, "--cluster",
                          "nats://verdict-node-1:hunter2pw@127.0.0.1:1", "--node", "web-1"},
                         &said) != 0);
  CHECK_THAT(said, Catch::Contains("--cluster-key"));
  CHECK(test::run_binary({"serve", "--db", site, "--cluster",
                          "nats://verdict-node-1:hunter2pw@127.0.0.1", "--node", "web-1",
                          "--cluster-key", carrying},
                         &said) != 0);
  CHECK(said.find("hunter2pw") == std::string::npos);
  CHECK(test::run_binary({"serve", "--db", site, "--cluster",
                          "nats://verdict-node-1:hunter2pw@127.0.0.1:1", "--node", "web-1",
                          "--cluster-key", carrying},
                         &said) != 0);
  CHECK_THAT(said, Catch::Contains("verdict-node-1:***@127.0.0.1:1"));
  CHECK(said.find("hunter2pw") == std::string::npos);
}

TEST_CASE("cluster: a node whose file falls more than 5 s behind the stream says so, and says "
          "it no more once it has caught up, to verdict doctor too") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db", "b.db"});
  Node a(dir.path / "a.db", nats, "node-a");
  Node b(dir.path / "b.db", nats, "node-b");
  for (auto *node : {&a, &b}) {
    node->follower.catch_up();
    node->follower.start();
  }
  REQUIRE_FALSE(vote_through(a, std::string(32, 'c'), "codestral-2-1", Verdict::ship));
  REQUIRE(b.follower.wait_for(a.stream.last_sequence(), 10s));
  CHECK(b.follower.problem().empty());

  // Another process holds b's file for writing: b cannot apply what the stream holds.
  sql::Db holder((dir.path / "b.db").string());
  holder.exec("BEGIN IMMEDIATE");
  CHECK_FALSE(vote_through(a, std::string(32, 'd'), "codestral-2-1", Verdict::ship));
  const auto behind = [&b] {
    for (int i = 0; i < 200 && b.follower.problem().empty(); ++i)
      std::this_thread::sleep_for(50ms);
    return b.follower.problem();
  };
  CHECK_THAT(behind(), Catch::Contains("has waited more than 5 s"));
  // `verdict doctor` on any machine reads it from the stream, as `cluster status` does.
  const auto servers = nats.joined_urls();
  const auto settings =
      node_settings_file(dir.path, dir.path / "a.db", servers, cluster_key_file(dir.path));
  const auto cluster_line = [&settings] {
    std::string said;
    test::run_binary({"doctor", "--settings", settings.string()}, &said);
    const auto start = said.find("cluster  ");
    return start == std::string::npos ? said
                                      : said.substr(start - 9, said.find('\n', start) - start + 9);
  };
  const auto stuck = cluster_line();
  CHECK_THAT(stuck, Catch::StartsWith("PROBLEM  cluster      "));
  CHECK_THAT(stuck, Catch::Contains("node-b is stuck: ") && Catch::Contains("more than 5 s"));
  holder.exec("COMMIT");
  REQUIRE(b.follower.wait_for(a.stream.last_sequence(), 30s));
  const auto caught_up = [&b] {
    for (int i = 0; i < 100 && !b.follower.problem().empty(); ++i)
      std::this_thread::sleep_for(50ms);
    return b.follower.problem();
  };
  CHECK(caught_up().empty());
  // A report a second: node-b's place is said anew, polled for.
  std::string current;
  for (const auto deadline = std::chrono::steady_clock::now() + 20s;
       std::chrono::steady_clock::now() < deadline;) {
    current = cluster_line();
    if (current.starts_with("ok       cluster      2 nodes current")) break;
    std::this_thread::sleep_for(200ms);
  }
  CHECK_THAT(current, Catch::StartsWith("ok       cluster      2 nodes current"));
}

TEST_CASE("cluster: an id another node's user took first is never a write of ours: a vote, a "
          "sign-in and a desk save that meet one are published again under a new id or "
          "refused, and every one acknowledged is on every node") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db", "b.db"}, true);
  // web-1's ids as anyone could guess them (its name and a count); the node's own are 128
  // random bits (below).
  auto count = std::make_shared<std::atomic<int>>(0);
  const auto guessable = [](int n) { return "web-1-" + std::to_string(n); };
  Node a(dir.path / "a.db", nats, "web-1", 2min, 1,
         [count, guessable] { return guessable(++*count); });
  Node b(dir.path / "b.db", nats, "web-2", 2min, 2);
  for (auto *node : {&a, &b}) {
    node->follower.catch_up();
    node->follower.start();
  }
  // Holding only verdict-node-3's password, junk published first under web-1's next ids: the
  // first write's every try (its own id, then three entry ids), and the second's first try.
  cluster::WriteStream intruder(settings_for(nats, "intruder", 3));
  for (int n = 1; n <= 6; ++n)
    REQUIRE(intruder.publish("junk", guessable(n)) > 0);

  const auto tool = a.store.tool_by_slug("codestral-2-1")->id;
  const auto vote = [&](char voter) {
    std::promise<WriteResult> told;
    a.writes.submit_queued(
        CastToolVote{ballot_with_token(std::string(32, voter), auth::tool_vote_target(tool)), tool,
                     Verdict::ship},
        [&told](const WriteResult &ended) { told.set_value(ended); });
    return told.get_future().get();
  };
  const auto refused = vote('1');
  CHECK(refused.ended == WriteResult::Ended::unavailable);
  const auto republished = vote('2');
  CHECK(republished.done());
  const auto editor = a.store.editor_by_email("editor@example.com").value().id;
  // The sign-in's and the save's first tries meet taken ids too (each takes its write's id,
  // then its entry's).
  REQUIRE(intruder.publish("junk", guessable(*count + 2)) > 0);
  const auto signed_in = a.writes.submit(StartSession{"session-hash", editor, "csrf", 4102444800});
  CHECK(signed_in.done());
  REQUIRE(intruder.publish("junk", guessable(*count + 2)) > 0);
  const auto saved = a.writes.submit(CreateCategory{{"agents", "Agents"}, "editor@example.com"});
  CHECK(saved.done());
  std::vector<WriteResult> votes;
  for (char voter = '3'; voter <= '9'; ++voter)
    votes.push_back(vote(voter));

  const auto last = a.stream.last_sequence();
  REQUIRE(a.follower.wait_for(last, 10s));
  REQUIRE(b.follower.wait_for(last, 10s));
  for (auto *node : {&a, &b}) {
    INFO(node->follower.problem());
    // The refused vote is nowhere; every acknowledged one is everywhere.
    CHECK(node->community("codestral-2-1").total == 1 + static_cast<int64_t>(votes.size()));
    CHECK(node->store.session("session-hash", unix_now()));
    CHECK(node->store.category("agents"));
  }
  CHECK(votes_held((dir.path / "a.db").string()) == votes_held((dir.path / "b.db").string()));
  for (const auto &each : votes)
    CHECK(each.done());

  // The stream's own word: a duplicate of an entry that is not these bytes is IdTaken; a
  // publish sent again with its own bytes is its first sequence.
  cluster::WriteStream raw(settings_for(nats, "raw", 1));
  CHECK_THROWS_AS(raw.publish("mine", guessable(1)), cluster::IdTaken);
  const auto mine = raw.publish("mine", "raw-own-id");
  CHECK(raw.publish("mine", "raw-own-id") == mine);

  // A node's own ids, of its writes and of its entries: its name and 128 random bits, never two
  // alike.
  for (char voter = 'a'; voter <= 'e'; ++voter)
    CHECK_FALSE(vote_through(b, std::string(32, voter), "codestral-2-1", Verdict::skip));
  std::set<std::string> ids;
  const std::regex unguessable("web-2-[0-9a-f]{32}");
  for (uint64_t sequence = 1; sequence <= a.stream.last_sequence(); ++sequence) {
    const auto entry = a.stream.entry_at(sequence);
    REQUIRE(entry);
    if (entry->id.rfind("web-2-", 0) != 0) continue;
    CHECK(std::regex_match(entry->id, unguessable));
    ids.insert(entry->id);
    const auto opened = cluster_key().open(entry->payload, entry->id);
    REQUIRE(opened);
    const auto writes = decoded_cluster_writes(opened->plain);
    REQUIRE(writes);
    for (const auto &write : *writes) {
      CHECK(std::regex_match(write.id, unguessable));
      ids.insert(write.id);
    }
  }
  CHECK(ids.size() == 10); // five entries, five writes
}

TEST_CASE("cluster: an entry published again is applied once whatever the node's clock: a "
          "node 70 s or 119 s ahead of the servers (libfaketime), its vote published again "
          "within the stream's window and after it, keeps the reader's last choice") {
  for (const auto *ahead : {"+70s", "+119s"}) {
    INFO("the node's clock " << ahead);
    NatsCluster nats;
    test::TempDir dir;
    one_site_as(dir.path, {"web-1.db"});
    const auto file = dir.path / "web-1.db";
    // The stream made first, remembering an id for 2 s (the guide's is two minutes): a copy
    // published 3 s later is stored anew, as one published 121 s later would be.
    constexpr auto kWindow = 2s;
    auto maker_settings = settings_for(nats, "maker");
    maker_settings.duplicate_window = kWindow;
    cluster::WriteStream maker(maker_settings);
    // libfaketime in the node's process alone (the faketime command would fork it away from
    // the test's hands).
    REQUIRE(fs::exists(kLibFaketime));
    const std::string asan_options = getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "";
    setenv("LD_PRELOAD", kLibFaketime, 1);
    setenv("FAKETIME", ahead, 1);
    // ASan's runtime would refuse to start behind another preloaded library.
    setenv("ASAN_OPTIONS", (asan_options + ":verify_asan_link_order=0").c_str(), 1);
    test::Server node(node_args(nats, "web-1", file));
    unsetenv("LD_PRELOAD");
    unsetenv("FAKETIME");
    setenv("ASAN_OPTIONS", asan_options.c_str(), 1);

    const auto voter = new_voter_id(unix_now_ms());
    REQUIRE(vote_by_form(node.port, voter, "codestral-2-1", "ship") == 303);
    // The entry that carries the ship vote, as anyone holding a node's password reads it.
    const auto ship = [&]() -> std::optional<cluster::StreamEntry> {
      for (uint64_t sequence = maker.last_sequence(); sequence > 0; --sequence) {
        auto entry = maker.entry_at(sequence);
        const auto opened = entry ? cluster_key().open(entry->payload, entry->id) : std::nullopt;
        if (opened && opened->plain.find("\"tool_vote\"") != std::string::npos) return entry;
      }
      return std::nullopt;
    }();
    REQUIRE(ship);
    const auto published_at = std::chrono::steady_clock::now();
    REQUIRE(vote_by_form(node.port, voter, "codestral-2-1", "skip") == 303);
    const char *ships = "SELECT count(*) FROM tool_votes WHERE verdict = 'ship'";
    const char *skips = "SELECT count(*) FROM tool_votes WHERE verdict = 'skip'";
    REQUIRE(file_applied(file, maker.last_sequence(), 30s));
    REQUIRE(file_number(file, skips) == 1);

    cluster::WriteStream intruder(settings_for(nats, "intruder", 3));
    // Within the window JetStream keeps the id: nothing new is stored.
    const auto last = maker.last_sequence();
    if (std::chrono::steady_clock::now() < published_at + kWindow) {
      CHECK(intruder.publish(ship->payload, ship->id) == ship->sequence);
      CHECK(maker.last_sequence() == last);
    }
    // After it, the copy is stored anew: the node's file knows the id, and skips it.
    while (std::chrono::steady_clock::now() < published_at + kWindow + 1s)
      std::this_thread::sleep_for(50ms);
    const auto replayed = intruder.publish(ship->payload, ship->id);
    CHECK(replayed > last);
    REQUIRE(file_applied(file, replayed, 30s));
    CHECK(file_number(file, ships) == 0);
    CHECK(file_number(file, skips) == 1);
    CHECK(file_number(file, "SELECT skipped FROM cluster_applied") == 1);
    CHECK(file_number(file, "SELECT last_skipped FROM cluster_applied") ==
          static_cast<int64_t>(replayed));
  }
}

namespace {

// A bare NATS connection as a process holding one node's NATS password makes one (a 40-line
// client): told each permission the servers refuse it.
class RawNatsClient {
public:
  explicit RawNatsClient(const std::vector<std::string> &urls) {
    natsOptions *options = nullptr;
    REQUIRE(natsOptions_Create(&options) == NATS_OK);
    std::vector<const char *> servers;
    for (const auto &url : urls)
      servers.push_back(url.c_str());
    natsOptions_SetServers(options, servers.data(), static_cast<int>(servers.size()));
    // Its answers come to its own user's inbox, the one place the servers let it listen.
    natsOptions_SetCustomInboxPrefix(
        options, cluster::inbox_prefix_of(cluster::user_in(urls.front())).c_str());
    natsOptions_SetErrorHandler(
        options,
        [](natsConnection *, natsSubscription *, natsStatus status, void *closure) {
          if (status == NATS_NOT_PERMITTED) ++*static_cast<std::atomic<int> *>(closure);
        },
        &refusals);
    REQUIRE(natsConnection_Connect(&connection, options) == NATS_OK);
    natsOptions_Destroy(options);
    REQUIRE(natsConnection_JetStream(&jetstream, connection, nullptr) == NATS_OK);
  }
  ~RawNatsClient() {
    jsCtx_Destroy(jetstream);
    natsConnection_Destroy(connection);
  }
  // Waits (bounded) until the servers have refused `more` things past those counted now.
  bool refused_more(int more, int before) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (refusals < before + more && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(20ms);
    return refusals >= before + more;
  }
  std::atomic<int> refusals{0};
  natsConnection *connection = nullptr;
  jsCtx *jetstream = nullptr;
};

// The names of the stream's consumers, as the servers' monitoring port lists them.
std::set<std::string> consumers_of_the_stream(int http_port) {
  httplib::Client monitor("127.0.0.1", http_port);
  const auto listed = monitor.Get("/jsz?consumers=true");
  REQUIRE(listed);
  std::set<std::string> names;
  const auto json = nlohmann::json::parse(listed->body);
  for (const auto &account : json.value("account_details", nlohmann::json::array()))
    for (const auto &stream : account.value("stream_detail", nlohmann::json::array()))
      if (stream.value("name", "") == "VERDICT_WRITES")
        for (const auto &consumer : stream.value("consumer_detail", nlohmann::json::array()))
          names.insert(consumer.value("name", ""));
  return names;
}

} // namespace

TEST_CASE("cluster: each node touches only its own: another node's user can neither listen "
          "to a node's inbox nor read or delete its consumer, and the nodes go on following") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db", "b.db"});
  Node a(dir.path / "a.db", nats, "web-1", 2min, 1);
  Node b(dir.path / "b.db", nats, "web-2", 2min, 2);
  for (auto *node : {&a, &b}) {
    node->follower.catch_up();
    node->follower.start();
  }
  REQUIRE_FALSE(vote_through(a, std::string(32, '1'), "codestral-2-1", Verdict::ship));
  // The nodes' consumers, named by the servers.
  std::set<std::string> consumers;
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (consumers.size() < 2 && std::chrono::steady_clock::now() < deadline) {
    consumers.clear();
    for (const auto port : nats.http_ports())
      for (const auto &name : consumers_of_the_stream(port))
        consumers.insert(name);
    std::this_thread::sleep_for(100ms);
  }
  REQUIRE(consumers.size() >= 2);

  // Holding verdict-node-3's password: listening to web-1's inbox is refused, and so is every
  // question about or deletion of a consumer.
  RawNatsClient intruder(nats.urls(3));
  const int before = intruder.refusals;
  // web-1's inbox, and every inbox at once.
  const auto web_1_inbox = cluster::inbox_prefix_of("verdict-node-1") + ".>";
  for (const auto *inbox : {web_1_inbox.c_str(), "_INBOX.>"}) {
    natsSubscription *listening = nullptr;
    REQUIRE(natsConnection_SubscribeSync(&listening, intruder.connection, inbox) == NATS_OK);
    natsConnection_Flush(intruder.connection);
    natsSubscription_Destroy(listening);
  }
  CHECK(intruder.refused_more(2, before));
  for (const auto &consumer : consumers) {
    jsErrCode error = static_cast<jsErrCode>(0);
    jsOptions quick;
    jsOptions_Init(&quick);
    quick.Wait = 500;
    CHECK(js_DeleteConsumer(intruder.jetstream, "VERDICT_WRITES", consumer.c_str(), &quick,
                            &error) != NATS_OK);
    jsConsumerInfo *info = nullptr;
    CHECK(js_GetConsumerInfo(&info, intruder.jetstream, "VERDICT_WRITES", consumer.c_str(), &quick,
                             &error) != NATS_OK);
    jsConsumerInfo_Destroy(info);
  }
  CHECK(intruder.refused_more(static_cast<int>(2 * consumers.size()), before + 2));
  // Its own inbox it may listen to; nobody's answers come there.
  natsSubscription *own = nullptr;
  REQUIRE(natsConnection_SubscribeSync(&own, intruder.connection, "_INBOX_verdict-node-3.>") ==
          NATS_OK);
  natsConnection_Flush(intruder.connection);

  // Every consumer is still there, and both nodes go on: a vote through each is on both.
  std::set<std::string> after;
  for (const auto port : nats.http_ports())
    for (const auto &name : consumers_of_the_stream(port))
      after.insert(name);
  for (const auto &consumer : consumers)
    CHECK(after.count(consumer) == 1);
  REQUIRE_FALSE(vote_through(b, std::string(32, '2'), "codestral-2-1", Verdict::ship));
  REQUIRE_FALSE(vote_through(a, std::string(32, '3'), "codestral-2-1", Verdict::skip));
  const auto last = a.stream.last_sequence();
  CHECK(a.follower.wait_for(last, 10s));
  CHECK(b.follower.wait_for(last, 10s));
  for (auto *node : {&a, &b})
    CHECK(node->community("codestral-2-1").total == 3);
  natsMsg *heard = nullptr;
  CHECK(natsSubscription_NextMsg(&heard, own, 200) == NATS_TIMEOUT);
  natsSubscription_Destroy(own);
}

TEST_CASE("cluster: a node proves it holds the cluster's key before it serves: one given another "
          "key refuses to start and writes nothing, its file remembers the key, skip counts "
          "outlive a restart, a forged report is shown as forged, and looking makes nothing") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"web-1.db", "web-2.db"});
  const auto servers = nats.joined_urls();

  // Looking at a cluster no node has started makes nothing: no stream, no bucket, no consumer.
  CHECK(test::run_binary({"cluster", "status", "--cluster", servers, "--cluster-key",
                          cluster_key_file(dir.path)}) != 0);
  const auto settings =
      node_settings_file(dir.path, dir.path / "web-1.db", servers, cluster_key_file(dir.path));
  std::string doctor_said;
  CHECK(test::run_binary({"doctor", "--settings", settings.string()}, &doctor_said) == 1);
  CHECK_THAT(doctor_said, Catch::Contains("hold no stream VERDICT_WRITES"));
  {
    RawNatsClient looker(nats.urls(1));
    jsStreamInfo *info = nullptr;
    for (const auto *stream : {"VERDICT_WRITES", "KV_VERDICT_WRITES_NODES"}) {
      CHECK(js_GetStreamInfo(&info, looker.jetstream, stream, nullptr, nullptr) == NATS_NOT_FOUND);
      jsStreamInfo_Destroy(info);
      info = nullptr;
    }
  }

  test::Server web_1(node_args(nats, "web-1", dir.path / "web-1.db"));
  REQUIRE(vote_by_form(web_1.port, new_voter_id(unix_now_ms()), "codestral-2-1", "ship") == 303);
  // Junk from whoever holds a node's password, skipped and counted in web-1's file.
  cluster::WriteStream intruder(settings_for(nats, "intruder", 3));
  const auto junk = intruder.publish("junk", "junk-1");
  REQUIRE(file_applied(dir.path / "web-1.db", junk, 30s));
  CHECK(file_number(dir.path / "web-1.db", "SELECT skipped FROM cluster_applied") == 1);

  // web-2 given another key: refused before it writes anything, saying why.
  const auto other_folder = dir.path / "other";
  fs::create_directories(other_folder);
  const auto other_key = (other_folder / "cluster.key").string();
  std::ofstream(other_key) << cluster::ClusterKey::new_file_text();
  fs::permissions(other_key, fs::perms::owner_read | fs::perms::owner_write);
  const auto before = test::read_file((dir.path / "web-2.db").string());
  auto wrong = node_args(nats, "web-2", dir.path / "web-2.db");
  wrong.back() = other_key;
  std::string said;
  CHECK(test::run_binary(wrong, &said) != 0);
  CHECK_THAT(said, Catch::Contains("none of the") && Catch::Contains("opens with this key"));
  CHECK(file_number(dir.path / "web-2.db", "SELECT count(*) FROM site_secrets WHERE name = "
                                           "'cluster_key_fingerprint'") == 0);

  // With the cluster's key it starts; its file then keeps the key's fingerprint, and another
  // key is refused on the file's word alone.
  { test::Server web_2(node_args(nats, "web-2", dir.path / "web-2.db")); }
  CHECK(test::run_binary(wrong, &said) != 0);
  CHECK_THAT(said, Catch::Contains("followed a cluster whose key is another"));

  // web-1 stopped and started again: its skip count is its file's, and reported as such.
  CHECK(WIFEXITED(web_1.stop(SIGTERM)));
  test::Server again(node_args(nats, "web-1", dir.path / "web-1.db"));
  // A report forged under web-2's name by the intruder, in the bucket every node writes.
  {
    RawNatsClient forger(nats.urls(3));
    kvStore *places = nullptr;
    REQUIRE(js_KeyValue(&places, forger.jetstream, "VERDICT_WRITES_NODES") == NATS_OK);
    uint64_t revision = 0;
    REQUIRE(kvStore_PutString(&revision, places, "web-2", "999 0 0 0 ") == NATS_OK);
    kvStore_Destroy(places);
  }
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  std::string status;
  const auto shown = [&status] {
    return status.find("skipped 1 entry") != std::string::npos &&
           status.find("web-2") != std::string::npos && status.find("FORGED") != std::string::npos;
  };
  do {
    status.clear();
    test::run_binary(
        {"cluster", "status", "--cluster", servers, "--cluster-key", cluster_key_file(dir.path)},
        &status);
    if (!shown()) std::this_thread::sleep_for(200ms);
  } while (!shown() && std::chrono::steady_clock::now() < deadline);
  INFO(status);
  CHECK(shown());
  CHECK(std::regex_search(status, std::regex("web-2 +FORGED")));
  CHECK(std::regex_search(status, std::regex("web-1 +[0-9]+ +0 ")));
}

TEST_CASE("cluster: every entry is sealed under a nonce of its own: no two of thousands alike, "
          "and two seals of one text under one id differ") {
  const std::string text = R"({"kind":"tool_vote"})";
  std::set<std::string> nonces;
  constexpr int kSeals = 5000;
  std::string first;
  for (int i = 0; i < kSeals; ++i) {
    const auto sealed = cluster_key().seal(text, "one-id", 1800000000000);
    if (i == 0) first = sealed;
    // The mark ("VS1"), then the 24-byte nonce.
    nonces.insert(sealed.substr(3, 24));
  }
  CHECK(cluster_key().open(first, "one-id")->plain == text);
  CHECK(nonces.size() == kSeals);
  CHECK(nonces.count(std::string(24, '\0')) == 0);
  const auto second = cluster_key().seal(text, "one-id", 1800000000000);
  CHECK(second != first);
  CHECK(second.substr(3 + 24) != first.substr(3 + 24)); // the keystream differs too
}

TEST_CASE("cluster: while a node's file is more than 5 s behind the stream, every page it serves "
          "says the figures may be behind and no cache keeps it, and once it has caught up the "
          "line is gone") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"web-1.db"});
  test::Server web_1(node_args(nats, "web-1", dir.path / "web-1.db"));
  httplib::Client reader("127.0.0.1", web_1.port);
  const auto page = [&reader] {
    auto got = reader.Get("/tools/codestral-2-1");
    REQUIRE(got);
    REQUIRE(got->status == 200);
    return *got;
  };
  const std::string kNotice = "may be a few seconds behind";
  const auto current = page();
  CHECK(current.body.find(kNotice) == std::string::npos);
  CHECK_THAT(current.get_header_value("Cache-Control"), Catch::Contains("public"));

  // The node's file held by another writer: the stream's next entry cannot be applied.
  sql::Db holder((dir.path / "web-1.db").string());
  holder.exec("BEGIN IMMEDIATE");
  cluster::WriteStream writer(settings_for(nats, "writer", 2));
  writer.publish("not the cluster's: skipped, which writes its place", "held-1");
  const auto shows = [&](bool notice) {
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    for (;;) {
      const auto got = page();
      if ((got.body.find(kNotice) != std::string::npos) == notice ||
          std::chrono::steady_clock::now() > deadline)
        return got;
      std::this_thread::sleep_for(100ms);
    }
  };
  const auto behind = shows(true);
  CHECK(test::visible_text(behind.body).find("The figures on this page " + kNotice) !=
        std::string::npos);
  CHECK(behind.get_header_value("Cache-Control") == "no-store");
  // A reader with a cookie is told too.
  const auto voter = reader.Get("/", {{"Cookie", "verdict_voter=" + new_voter_id(unix_now_ms())}});
  REQUIRE(voter);
  CHECK(voter->body.find(kNotice) != std::string::npos);

  holder.exec("ROLLBACK");
  const auto caught_up = shows(false);
  CHECK(caught_up.body.find(kNotice) == std::string::npos);
  CHECK_THAT(caught_up.get_header_value("Cache-Control"), Catch::Contains("public"));
}

TEST_CASE("cluster: votes taken for the log's batches wait on every node, and the batch both "
          "nodes' clocks ask for is made once, the same entries in the same order in both "
          "files") {
  NatsCluster nats;
  test::TempDir dir;
  one_site_as(dir.path, {"a.db", "b.db"}, true);
  Node a(dir.path / "a.db", nats, "node-a");
  Node b(dir.path / "b.db", nats, "node-b");
  for (auto *node : {&a, &b}) {
    node->follower.catch_up();
    node->follower.start();
  }
  const auto tool = a.store.tool_by_slug("codestral-2-1")->id;
  const auto size = a.store.vote_log_size();
  const auto counted = a.community("codestral-2-1").total;
  for (int i = 0; i < 6; ++i) { // through either node, as a site publishing in batches takes it
    auto &node = i % 2 ? b : a;
    const auto ballot =
        ballot_with_token(std::string(31, 'q') + std::to_string(i), auth::tool_vote_target(tool));
    CHECK(
        node.writes.submit(CastToolVote{ballot, tool, i % 3 ? Verdict::ship : Verdict::skip, true})
            .done());
  }
  REQUIRE(file_applied(dir.path / "a.db", a.stream.last_sequence(), 10s));
  REQUIRE(file_applied(dir.path / "b.db", b.stream.last_sequence(), 10s));
  for (auto *node : {&a, &b}) {
    CHECK(node->store.votes_waiting());
    CHECK(node->store.vote_log_size() == size);
    CHECK(node->community("codestral-2-1").total == counted);
  }
  // The hour's end: each node's clock asks; the second ask, seconds after the first, adds none.
  CHECK(a.writes.submit(PublishVotes{3600}).done());
  CHECK(b.writes.submit(PublishVotes{3600}).done());
  REQUIRE(file_applied(dir.path / "a.db", a.stream.last_sequence(), 10s));
  REQUIRE(file_applied(dir.path / "b.db", b.stream.last_sequence(), 10s));
  for (auto *node : {&a, &b}) {
    CHECK_FALSE(node->store.votes_waiting());
    CHECK(node->store.vote_log_size() == size + 6);
    CHECK(node->community("codestral-2-1").total == counted + 6);
  }
  CHECK(votes_held((dir.path / "a.db").string()) == votes_held((dir.path / "b.db").string()));
}
