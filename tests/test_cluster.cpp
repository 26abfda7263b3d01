// The cluster's log of writes (cluster/write_stream.h) against real NATS servers: three
// Debian nats-server processes clustered on loopback at ephemeral ports, each with JetStream
// in a folder of the test's, as three machines of a Verdict cluster would run them.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/stream_follower.h"
#include "cluster/write_stream.h"
#include "domain/cluster_write.h"
#include "store/store.h"
#include "test_support.h"

using namespace verdict;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A port the kernel hands out on loopback now, free once the probe closes. The servers take
// theirs a moment later: a small window another process could use, which a failed start names.
int free_loopback_port() {
  const int probe = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(probe >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(probe, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(getsockname(probe, reinterpret_cast<sockaddr *>(&address), &length) == 0);
  close(probe);
  return ntohs(address.sin_port);
}

// Three nats-server processes, one NATS cluster with JetStream.
class NatsCluster {
public:
  static constexpr int kServers = 3;

  NatsCluster() {
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

  std::vector<std::string> urls() const {
    std::vector<std::string> all;
    for (const auto &server : servers_)
      all.push_back("nats://127.0.0.1:" + std::to_string(server.client_port));
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
    std::ofstream(config) << "server_name: n" << i << "\n"
                          << "host: 127.0.0.1\nport: " << server.client_port << "\n"
                          << "http: 127.0.0.1:" << server.http_port << "\n"
                          << "jetstream {\n  store_dir: " << (folder / "js").string()
                          << "\n  max_memory_store: 64MB\n  max_file_store: 256MB\n}\n"
                          << "cluster {\n  name: verdict\n  listen: 127.0.0.1:" << server.route_port
                          << "\n  routes: [\n"
                          << routes << "  ]\n}\n";
    servers_[static_cast<size_t>(i)].pid =
        test::start_child({"/usr/sbin/nats-server", "-c", config}, -1, -1);
  }

  // Every running server says it is healthy and the JetStream cluster has a leader.
  void wait_until_ready() {
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < deadline) {
      bool ready = true;
      for (const auto &server : servers_) {
        if (server.pid <= 0) continue;
        httplib::Client monitor("127.0.0.1", server.http_port);
        monitor.set_connection_timeout(1);
        const auto health = monitor.Get("/healthz");
        const auto jetstream = monitor.Get("/jsz");
        ready = ready && health && health->status == 200 && jetstream &&
                jetstream->body.find("\"leader\"") != std::string::npos;
      }
      if (ready) return;
      std::this_thread::sleep_for(100ms);
    }
    FAIL("the NATS servers did not form a JetStream cluster within 30 s");
  }

private:
  struct Server {
    int client_port, route_port, http_port;
    pid_t pid;
  };
  test::TempDir dir_;
  std::vector<Server> servers_;
};

cluster::StreamSettings settings_for(const NatsCluster &nats, const std::string &node) {
  cluster::StreamSettings settings;
  settings.servers = nats.urls();
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

TEST_CASE("cluster: a tool vote is carried by the stream as it was cast, and what is not one "
          "is refused") {
  const ToolVoteWrite ship{
      {std::string(32, 'a'), "net-1", "2026-11-25", 7}, "codestral-2-1", Verdict::ship};
  const auto back = decoded_tool_vote(encoded(ship));
  REQUIRE(back);
  CHECK(back->ballot.voter == ship.ballot.voter);
  CHECK(back->ballot.network == "net-1");
  CHECK(back->ballot.day == "2026-11-25");
  CHECK(back->ballot.seconds_on_page == 7);
  CHECK(back->tool == "codestral-2-1");
  CHECK(back->verdict == Verdict::ship);
  auto withdrawn = ship;
  withdrawn.verdict.reset();
  CHECK_FALSE(decoded_tool_vote(encoded(withdrawn))->verdict);

  for (
      const auto *broken :
      {"", "not json", "[]", R"({"kind":"pair_vote"})",
       R"({"kind":"tool_vote","tool":"x","voter":"v","network":"n","day":"d","verdict":"ship"})",
       R"({"kind":"tool_vote","tool":"x","voter":"v","network":"n","day":"d","seconds_on_page":1,"verdict":"maybe"})",
       R"({"kind":"tool_vote","tool":1,"voter":"v","network":"n","day":"d","seconds_on_page":1,"verdict":null})"}) {
    INFO(broken);
    CHECK_FALSE(decoded_tool_vote(broken));
  }
}

TEST_CASE("cluster: a node applies each write of the stream once, in order, with its sequence in "
          "the same transaction") {
  test::TempDir dir;
  const auto path = (dir.path / "node.db").string();
  const ToolVoteWrite ship{
      {std::string(32, 'b'), "net-1", "2026-11-25", 30}, "codestral-2-1", Verdict::ship};
  auto withdraw = ship;
  withdraw.verdict.reset();
  Store store(path);
  store.import_content(test::seeded_store()->export_content());
  const auto community = [&] { return store.tool_by_slug("codestral-2-1")->community; };
  REQUIRE(community().total == 0);
  CHECK(store.applied_sequence() == 0);

  CHECK(store.apply_tool_vote(1, ship));
  CHECK(community().total == 1);
  CHECK(store.applied_sequence() == 1);
  // The same write again (a node that stopped after applying it, before it knew): nothing.
  CHECK_FALSE(store.apply_tool_vote(1, ship));
  CHECK(community().total == 1);
  // A gap is refused and writes nothing.
  CHECK_THROWS_AS(store.apply_tool_vote(3, withdraw), Refused);
  CHECK(community().total == 1);
  CHECK(store.applied_sequence() == 1);
  // A write naming a tool this file lacks writes nothing, its sequence neither.
  auto unknown = ship;
  unknown.tool = "no-such-tool";
  CHECK_THROWS_AS(store.apply_tool_vote(2, unknown), NotFound);
  CHECK(store.applied_sequence() == 1);

  CHECK(store.apply_tool_vote(2, withdraw));
  CHECK(community().total == 0);
  CHECK(store.applied_sequence() == 2);
}

TEST_CASE("cluster: a node's place in the stream is in its file, and survives a restart") {
  test::TempDir dir;
  const auto path = (dir.path / "node.db").string();
  const ToolVoteWrite ship{
      {std::string(32, 'c'), "net-1", "2026-11-25", 30}, "codestral-2-1", Verdict::ship};
  {
    Store store(path);
    store.import_content(test::seeded_store()->export_content());
    REQUIRE(store.apply_tool_vote(1, ship));
  }
  Store again(path);
  CHECK(again.applied_sequence() == 1);
  CHECK_FALSE(again.apply_tool_vote(1, ship));
  CHECK(again.tool_by_slug("codestral-2-1")->community.total == 1);
}

namespace {

// A node: its own file, made from the same content as every other node's, and its own
// connection to the cluster.
struct Node {
  Node(const fs::path &file, const NatsCluster &nats, const std::string &name)
      : store(file.string()), stream(settings_for(nats, name)), follower(store, stream) {}
  Store store;
  cluster::WriteStream stream;
  StreamFollower follower;
  ShipTally community(const std::string &tool) { return store.tool_by_slug(tool)->community; }
};

ToolVoteWrite vote_of(char voter, const std::string &tool, std::optional<Verdict> verdict) {
  return {{std::string(32, voter), std::string("net-") + voter, "2026-11-25", 30}, tool, verdict};
}

} // namespace

TEST_CASE("cluster: two nodes following the stream hold the same tallies, each applies its own "
          "writes too, and a node started again goes on from its file's place") {
  NatsCluster nats;
  test::TempDir dir;
  const auto content = test::seeded_store()->export_content();
  for (const auto *file : {"a.db", "b.db"})
    Store((dir.path / file).string()).import_content(content);
  {
    Node a(dir.path / "a.db", nats, "node-a");
    Node b(dir.path / "b.db", nats, "node-b");
    // Writes taken by either node, one log.
    a.stream.publish(encoded(vote_of('1', "codestral-2-1", Verdict::ship)), "w1");
    b.stream.publish(encoded(vote_of('2', "codestral-2-1", Verdict::skip)), "w2");
    a.stream.publish(encoded(vote_of('3', "cursor-background-agent", Verdict::ship)), "w3");
    a.stream.publish(encoded(vote_of('1', "codestral-2-1", std::nullopt)), "w4"); // withdrawn
    CHECK(a.follower.catch_up() == 4);
    CHECK(b.follower.catch_up() == 4);
    CHECK(a.follower.catch_up() == 0); // nothing new, nothing applied twice
    for (auto *node : {&a, &b}) {
      CHECK(node->store.applied_sequence() == 4);
      CHECK(node->community("codestral-2-1").total == 1);
      CHECK(node->community("codestral-2-1").ships == 0);
      CHECK(node->community("cursor-background-agent").ships == 1);
    }

    // Following in the background: a node's own write is in its file within a bound.
    b.follower.start(std::chrono::milliseconds(20));
    const auto sequence =
        b.stream.publish(encoded(vote_of('4', "codestral-2-1", Verdict::ship)), "w5");
    CHECK(sequence == 5);
    CHECK(b.follower.wait_for(sequence, std::chrono::seconds(10)));
    CHECK(b.community("codestral-2-1").total == 2);
    CHECK(b.follower.problem().empty());
    CHECK_FALSE(a.follower.wait_for(6, std::chrono::milliseconds(50))); // no write 6 yet
  }
  // Node a stopped at 4 and starts again: it applies 5, and only 5.
  Node again(dir.path / "a.db", nats, "node-a");
  CHECK(again.follower.catch_up() == 1);
  CHECK(again.store.applied_sequence() == 5);
  CHECK(again.community("codestral-2-1").total == 2);
  CHECK(again.community("cursor-background-agent").total == 1);

  // A write this version cannot read stops the node there, saying so, rather than skip it.
  again.stream.publish(R"({"kind":"a_kind_from_a_later_version"})", "w6");
  CHECK_THROWS_WITH(again.follower.catch_up(), Catch::Contains("cannot apply: upgrade"));
  CHECK(again.store.applied_sequence() == 5);
}
