// The transport on the open internet: ambiguous requests refused before any handler sees
// them, idle and slow clients that cannot starve readers, bursts, bounds and shutdown.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "test_support.h"
#include "transport/connection.h"
#include "transport/request_framing.h"

using namespace verdict;
using namespace verdict::transport;
using Kind = Framing::Kind;

namespace {

const std::string kGet = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";

std::string vote_request(const std::string &extra_headers,
                         const std::string &body = "verdict=ship") {
  return "POST /tools/codestral-2-1/vote HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         "Sec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\n"
         "Connection: close\r\n" +
         extra_headers + "\r\n" + body;
}

int status_of(const std::string &answer) {
  if (answer.rfind("HTTP/1.1 ", 0) != 0 || answer.size() < 12) return 0;
  return std::stoi(answer.substr(9, 3));
}

// Enough descriptors for a few thousand sockets on both ends.
void allow_many_sockets() {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

} // namespace

TEST_CASE("framing: a whole request is found in what has arrived, and not before") {
  CHECK(frame_request("GET / HTTP/1.1\r\nHost: x\r\n").kind == Kind::incomplete);
  const auto get = frame_request(kGet);
  CHECK(get.kind == Kind::complete);
  CHECK(get.head_length == kGet.size());
  const std::string post = "POST /subscribe HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n";
  CHECK(frame_request(post + "emai").kind == Kind::incomplete);
  const auto whole = frame_request(post + "email" + kGet); // a pipelined request follows
  CHECK(whole.kind == Kind::complete);
  CHECK(whole.body_length == 5);
  CHECK(frame_request("\r\n\r\n" + kGet).skip == 4);
  CHECK(frame_request("GET / HTTP/1.0\r\n\r\n").kind == Kind::complete); // 1.0 needs no Host
  CHECK_FALSE(frame_request("GET / HTTP/1.0\r\n\r\n").keep_alive);
  CHECK_FALSE(frame_request("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").keep_alive);
}

TEST_CASE(
    "framing: every ambiguous or oversized request is refused with the status that says why") {
  const std::string host = "Host: x\r\n";
  const std::vector<std::pair<std::string, int>> cases = {
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 12abc\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: +3\r\n\r\nabc", 400},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 0x3\r\n\r\nabc", 400},
      {"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
       411},
      {"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: %63hunked\r\n\r\n", 501},
      {"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501},
      {"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
       400},
      {"POST / HTTP/1.1\r\n" + host + "\r\n", 411},
      {"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc",
       400},
      {"GET / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 9000\r\n\r\n", 413},
      {"GET / HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nabc", 400},
      {"GET / HTTP/1.1\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\n" + host + "Bad Name: x\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\n" + host + " folded: x\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\n" + host + "X: a\x01z\r\n\r\n", 400},
      {"GET / HTTP/1.1\nHost: x\n\n", 400},
      {"GET / HTTP/1.1\r\nHost: x\nX: y\r\n\r\n", 400},
      {"GET /a b HTTP/1.1\r\n" + host + "\r\n", 400},
      {"GET / HTTP/2.0\r\n" + host + "\r\n", 505},
      {"BREW / HTTP/1.1\r\n" + host + "\r\n", 501},
      {"GET / HTTP/1.1\r\n" + host + "Expect: 200-ok\r\n\r\n", 417},
      {"GET /" + std::string(5000, 'a') + " HTTP/1.1\r\n" + host + "\r\n", 414},
      {"GET /" + std::string(5000, 'a'), 414},
      {"GET / HTTP/1.1\r\n" + host + "X: " + std::string(9000, 'a') + "\r\n\r\n", 431},
  };
  for (const auto &[request, status] : cases) {
    INFO(request.substr(0, 120));
    const auto framing = frame_request(request);
    CHECK(framing.kind == Kind::refused);
    CHECK(framing.status == status);
    CHECK_FALSE(framing.reason.empty());
  }
  std::string many = "GET / HTTP/1.1\r\n" + host;
  for (int i = 0; i < 100; ++i)
    many += "X-" + std::to_string(i) + ": y\r\n";
  CHECK(frame_request(many + "\r\n").status == 431);
}

TEST_CASE("framing: Range, If-Range and Expect are taken out before the request is parsed") {
  const std::string request = "POST /subscribe HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n"
                              "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n";
  const auto waiting = frame_request(request);
  CHECK(waiting.kind == Kind::incomplete);
  CHECK(waiting.expects_continue);
  const auto whole = frame_request(request + "email");
  REQUIRE(whole.kind == Kind::complete);
  CHECK_FALSE(whole.expects_continue);
  CHECK(head_for_parser(request, whole) ==
        "POST /subscribe HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n");
}

TEST_CASE("transport: ambiguous requests get their 4xx page and write nothing") {
  test::SiteServer site;
  const std::vector<std::pair<std::string, int>> cases = {
      {vote_request("Content-Length: 12\r\nContent-Length: 12\r\n"), 400},
      {vote_request("Content-Length: 12abc\r\n"), 400},
      {vote_request("Transfer-Encoding: chunked\r\n", "c\r\nverdict=ship\r\n0\r\n\r\n"), 411},
      {vote_request("Transfer-Encoding: %63hunked\r\n", "c\r\nverdict=ship\r\n0\r\n\r\n"), 501},
      {vote_request("Transfer-Encoding: chunked\r\n", "c\r\nverdict=shipXX0\r\n\r\n"), 411},
      {"POST /tools/codestral-2-1/vote HTTP/1.1\r\nSec-Fetch-Site: same-origin\r\nContent-Type: "
       "application/x-www-form-urlencoded\r\nContent-Length: 12\r\n\r\nverdict=ship",
       400},
      {vote_request("Host: evil.example\r\nContent-Length: 12\r\n"), 400},
      {"PUT /tools/codestral-2-1/vote HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405},
  };
  for (const auto &[request, status] : cases) {
    INFO(request.substr(0, 200));
    const auto answer = test::raw_exchange(site.port(), request);
    CHECK(status_of(answer) == status);
    CHECK(answer.find("text/html") != std::string::npos);
  }
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
  std::string many_headers = vote_request("");
  many_headers.insert(many_headers.find("\r\n\r\n") + 2, [] {
    std::string lines;
    for (int i = 0; i < 10000; ++i)
      lines += "X-" + std::to_string(i) + ": y\r\n";
    return lines;
  }());
  CHECK(status_of(test::raw_exchange(site.port(), many_headers)) == 431);
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 0);
}

TEST_CASE("transport: a method an address does not take gets 405 and what it allows") {
  test::SiteServer site;
  auto client = site.client();
  const auto get_vote = client.Get("/tools/codestral-2-1/vote");
  REQUIRE(get_vote);
  CHECK(get_vote->status == 405);
  CHECK(get_vote->get_header_value("Allow") == "POST");
  const auto post_page = test::post_form(client, "/tools/codestral-2-1", "verdict=ship");
  CHECK(post_page->status == 405);
  CHECK(post_page->get_header_value("Allow") == "GET, HEAD");
  const auto del = client.Delete("/");
  CHECK(del->status == 405);
  CHECK(del->get_header_value("Allow") == "GET, HEAD");
  CHECK(client.Delete("/no/such/page")->status == 404);
  const auto head = client.Head("/tools/codestral-2-1");
  CHECK(head->status == 200);
  CHECK(head->body.empty());
}

TEST_CASE("transport: the forwarded address is the one the trusted proxy appended last") {
  test::SiteServer site(TransportLimits{}, 2, "127.0.0.1");
  int refused = 0;
  for (int i = 0; i < 4; ++i) {
    // The client's own X-Forwarded-For line changes every time; the proxy's (last) does not.
    const auto answer = test::raw_exchange(
        site.port(), vote_request("X-Forwarded-For: 10.9.9." + std::to_string(i) +
                                  "\r\nX-Forwarded-For: 10.9.9.99, 203.0.113.7\r\n"
                                  "Content-Length: 12\r\n"));
    refused += status_of(answer) == 429;
  }
  CHECK(refused == 2);
}

TEST_CASE("transport: idle and trickling clients do not keep a reader waiting") {
  allow_many_sockets();
  test::SiteServer site;
  std::vector<std::unique_ptr<test::RawConnection>> idle, trickling;
  for (int i = 0; i < 300; ++i) {
    idle.push_back(std::make_unique<test::RawConnection>(site.port()));
    idle.back()->send(kGet); // served once, then kept open
  }
  for (int i = 0; i < 100; ++i) {
    trickling.push_back(std::make_unique<test::RawConnection>(site.port()));
    trickling.back()->send("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  }
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    while (!stop) {
      for (auto &c : trickling)
        c->send("a");
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  for (auto &c : idle)
    REQUIRE(c->read_until("</html>").find("</html>") != std::string::npos);
  // A fresh reader, with all of those open: answered (the bench measures how fast).
  auto client = site.client();
  client.set_read_timeout(5);
  for (int i = 0; i < 20; ++i) {
    const auto res = client.Get("/");
    REQUIRE(res);
    CHECK(res->status == 200);
  }
  stop = true;
  trickle.join();
  CHECK(site.server().open_connections() >= 400);
}

TEST_CASE("transport: a request that trickles in past its deadline is closed, and so is idle "
          "keep-alive") {
  TransportLimits limits;
  limits.request_timeout = std::chrono::milliseconds(300);
  limits.idle_timeout = std::chrono::milliseconds(300);
  test::SiteServer site(limits);
  test::RawConnection slow(site.port());
  slow.send("GET / HTTP/1.1\r\nHost: x\r\n");
  test::RawConnection idle(site.port());
  idle.send(kGet);
  REQUIRE(idle.read_until("</html>").find("</html>") != std::string::npos);
  // Both are closed by the server: reading returns what is left and then the end.
  CHECK(slow.read_all(5).empty());
  CHECK(idle.read_all(5).empty());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (site.server().open_connections() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(site.server().open_connections() == 0);
}

namespace {

// Polls until the server holds `count` connections open, or `seconds` pass.
bool open_connections_reach(test::SiteServer &site, size_t count, int seconds = 10) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (site.server().open_connections() < count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return site.server().open_connections() >= count;
}

const std::string kHealth = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

} // namespace

TEST_CASE("transport: past its connection bound a new reader closes the connection that waited "
          "longest on its client, and is answered") {
  TransportLimits limits;
  limits.max_connections = 10;
  limits.reactors = 1; // one line of waiting connections, so the oldest is known
  test::SiteServer site(limits, 0, "");
  std::vector<std::unique_ptr<test::RawConnection>> held;
  for (int i = 0; i < 10; ++i) {
    held.push_back(
        std::make_unique<test::RawConnection>(site.port(), "127.0.1." + std::to_string(i + 1)));
    held.back()->send("GET / HTTP/1.1\r\n"); // a head trickling in
  }
  REQUIRE(open_connections_reach(site, 10));
  test::RawConnection reader(site.port(), "127.0.2.1");
  reader.send(kHealth);
  CHECK(status_of(reader.read_until("ok\n", 10)) == 200);
  // The first to connect, its head still arriving, was closed: its read ends at once.
  CHECK(held.front()->read_all(10).empty());
  CHECK(site.server().open_connections() <= 10);
  // The others are still open, and each finishing its head is answered.
  held.back()->send("Host: x\r\nConnection: close\r\n\r\n");
  CHECK(status_of(held.back()->read_all(10)) == 200);
}

TEST_CASE("transport: 16 addresses holding 256 slow connections each cannot keep a reader from "
          "another address out") {
  allow_many_sockets();
  TransportLimits limits; // 4,096 connections, 256 a client
  REQUIRE(limits.max_connections == 4096);
  test::SiteServer site(limits, 0, "");
  std::vector<std::unique_ptr<test::RawConnection>> slow;
  for (int address = 0; address < 16; ++address) {
    for (int i = 0; i < 256; ++i) {
      slow.push_back(std::make_unique<test::RawConnection>(
          site.port(), "127.0." + std::to_string(10 + address) + ".1"));
      slow.back()->send("GET / HTTP/1.1\r\nHost: x\r\n"); // and never the rest
    }
  }
  REQUIRE(open_connections_reach(site, 4096, 30));
  test::RawConnection reader(site.port(), "127.0.99.1");
  reader.send(kHealth);
  CHECK(status_of(reader.read_until("ok\n", 10)) == 200);
  CHECK(site.server().open_connections() <= 4096);
}

TEST_CASE("transport: one network holds at most its share of the connections, however many "
          "addresses it uses, and another network is still served") {
  TransportLimits limits;
  limits.max_connections = 64;
  limits.max_connections_per_client = 4;
  limits.max_connections_per_network = 8;
  test::SiteServer site(limits, 0, "");
  std::vector<std::unique_ptr<test::RawConnection>> held;
  for (int address = 1; address <= 4; ++address)
    for (int i = 0; i < 2; ++i)
      held.push_back(
          std::make_unique<test::RawConnection>(site.port(), "127.0.5." + std::to_string(address)));
  REQUIRE(open_connections_reach(site, 8));
  // A fifth address of the same /24, with no connection of its own, finds its network's share
  // taken.
  test::RawConnection fifth(site.port(), "127.0.5.5");
  const auto refused = fifth.read_all(10);
  CHECK(status_of(refused) == 503);
  CHECK(refused.find("Too many connections from your network") != std::string::npos);
  test::RawConnection other(site.port(), "127.0.6.1");
  other.send(kHealth);
  CHECK(status_of(other.read_all(10)) == 200);
}

TEST_CASE("transport: a client is an IPv4 address or an IPv6 /56, its network the /24 or /48 "
          "around it") {
  const auto shares = [](const std::string &text) {
    sockaddr_storage address{};
    if (text.find(':') == std::string::npos) {
      auto &v4 = reinterpret_cast<sockaddr_in &>(address);
      v4.sin_family = AF_INET;
      REQUIRE(inet_pton(AF_INET, text.c_str(), &v4.sin_addr) == 1);
    } else {
      auto &v6 = reinterpret_cast<sockaddr_in6 &>(address);
      v6.sin6_family = AF_INET6;
      REQUIRE(inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr) == 1);
    }
    return shares_of(address);
  };
  // Many /64s of one /56 are one client.
  CHECK(shares("2001:db8:0:ff00::1").client == shares("2001:db8:0:ffff::1").client);
  CHECK(shares("2001:db8:0:ff00::1").client == "2001:db8:0:ff00::/56");
  CHECK(shares("2001:db8:0:100::1").client != shares("2001:db8:0:ff00::1").client);
  // Another /56 of the same /48 is another client of the same network.
  CHECK(shares("2001:db8:0:100::1").network == shares("2001:db8:0:ff00::1").network);
  CHECK(shares("2001:db8:0:ff00::1").network == "2001:db8::/48");
  CHECK(shares("2001:db8:1::1").network != shares("2001:db8:0:ff00::1").network);
  // IPv4: the address, and its /24; an IPv4-mapped address is the IPv4 address it names.
  CHECK(shares("203.0.113.7").client == "203.0.113.7");
  CHECK(shares("203.0.113.7").network == "203.0.113.0/24");
  CHECK(shares("::ffff:203.0.113.7").client == "203.0.113.7");
  CHECK(shares("::ffff:203.0.113.7").network == "203.0.113.0/24");
  CHECK(shares("203.0.113.8").client != shares("203.0.113.7").client);
  CHECK(shares("203.0.113.8").network == shares("203.0.113.7").network);
}

TEST_CASE("transport: one client holds at most its share of the connections, and the others "
          "are still served") {
  TransportLimits limits;
  limits.max_connections = 64;
  limits.max_connections_per_client = 8;
  test::SiteServer site(limits, 0, ""); // no proxy: every address is a client of its own
  std::vector<std::unique_ptr<test::RawConnection>> held;
  for (int i = 0; i < 8; ++i) {
    held.push_back(std::make_unique<test::RawConnection>(site.port()));
    held.back()->send("G"); // one byte each, as the attack held them
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (site.server().open_connections() < 8 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  test::RawConnection ninth(site.port());
  const auto refused = ninth.read_all(5);
  CHECK(status_of(refused) == 503);
  CHECK(refused.find("Too many connections from your address") != std::string::npos);

  // Another client is served while the first holds its share.
  test::RawConnection other(site.port(), "127.0.0.2");
  other.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(status_of(other.read_all(5)) == 200);

  // A connection closed gives its place back to its client.
  held.pop_back();
  const auto freed = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (site.server().open_connections() > 7 && std::chrono::steady_clock::now() < freed)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  test::RawConnection again(site.port());
  again.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(status_of(again.read_all(5)) == 200);
}

TEST_CASE("transport: the trusted proxy's address, through which every reader comes, has no "
          "share of its own") {
  TransportLimits limits;
  limits.max_connections = 64;
  limits.max_connections_per_client = 4;
  limits.unshared_clients = TrustedProxies("127.0.0.1");
  test::SiteServer site(limits);
  std::vector<std::unique_ptr<test::RawConnection>> readers;
  for (int i = 0; i < 12; ++i) {
    readers.push_back(std::make_unique<test::RawConnection>(site.port()));
    readers.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  }
  int answered = 0;
  for (auto &reader : readers)
    answered += status_of(reader->read_until("ok\n", 5)) == 200;
  CHECK(answered == 12);
}

TEST_CASE("transport: 2,000 readers connecting at once are all answered") {
  allow_many_sockets();
  test::SiteServer site;
  std::vector<std::unique_ptr<test::RawConnection>> readers;
  for (int i = 0; i < 2000; ++i) {
    readers.push_back(std::make_unique<test::RawConnection>(site.port()));
    readers.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  }
  int answered = 0;
  for (auto &reader : readers)
    answered += reader->read_all(30).find("\r\n\r\nok\n") != std::string::npos;
  CHECK(answered == 2000);
}

TEST_CASE("transport: pipelined requests are answered in order, a bad one last of all") {
  test::SiteServer site;
  const std::string body = "email=a%40b.example";
  const auto answer = test::raw_exchange(
      site.port(),
      kGet + "\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" +
          "POST /subscribe HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\nContent-Type: "
          "application/x-www-form-urlencoded\r\nContent-Length: " +
          std::to_string(body.size()) + "\r\n\r\n" + body + " GET /healthz HTTP/1.1\r\n\r\n");
  const auto home = answer.find("HTTP/1.1 200");
  const auto health = answer.find("HTTP/1.1 200", home + 1);
  const auto subscribed = answer.find("HTTP/1.1 303");
  const auto refused = answer.find("HTTP/1.1 400");
  CHECK(home < health);
  CHECK(health < subscribed);
  CHECK(subscribed < refused);
  CHECK(refused != std::string::npos);
  CHECK(site.store().subscriber_counts().total() == 1);
}

TEST_CASE("transport: votes pipelined on one connection are each answered once stored, in "
          "order, and the request behind them too") {
  test::SiteServer site;
  httplib::Client client("127.0.0.1", site.port());
  const auto vote = [&client](const std::string &slug) {
    const auto path = "/tools/" + slug + "/vote";
    const auto body = "verdict=ship&token=" + test::vote_token_for(client, path);
    return "POST " + path +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: same-origin\r\n"
           "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  const auto stored = [&site](const std::string &slug) {
    const auto tool = site.store().tool_by_slug(slug);
    return tool->community.total + tool->community_set_aside.network +
           tool->community_set_aside.too_fast;
  };
  const auto before = stored("codestral-2-1") + stored("cursor-background-agent");
  const auto answer = test::raw_exchange(
      site.port(), vote("codestral-2-1") + vote("cursor-background-agent") +
                       "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const auto first = answer.find("HTTP/1.1 303");
  const auto second = answer.find("HTTP/1.1 303", first + 1);
  const auto health = answer.find("HTTP/1.1 200", second + 1);
  REQUIRE(health != std::string::npos);
  CHECK(first < answer.find("#tool-codestral-2-1"));
  CHECK(answer.find("#tool-codestral-2-1") < second);
  CHECK(second < answer.find("#tool-cursor-background-agent"));
  CHECK(stored("codestral-2-1") + stored("cursor-background-agent") == before + 2);
}

TEST_CASE("transport: a request answered at once is answered by its reactor while every worker "
          "is busy, and the others wait for a worker") {
  TransportLimits limits;
  limits.workers = 1;
  ConnectionServer server(limits);
  std::mutex mutex;
  std::condition_variable changed;
  bool slow_started = false, slow_may_end = false;
  server.Get("/slow", [&](const httplib::Request &, httplib::Response &res) {
    std::unique_lock lock(mutex);
    slow_started = true;
    changed.notify_all();
    changed.wait(lock, [&] { return slow_may_end; });
    res.set_content("slow\n", "text/plain");
  });
  const auto named = [](const std::string &word) {
    return [word](const httplib::Request &, httplib::Response &res) {
      res.set_content(word + "\n", "text/plain");
    };
  };
  server.Post("/at-once", named("at once"));
  server.Post("/by-worker", named("by a worker"));
  server.answer_on_reactor([](std::string_view method, std::string_view path) {
    return method == "POST" && path == "/at-once";
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  REQUIRE(port > 0);
  std::thread serving([&server] { server.listen_after_bind(); });
  while (!server.is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto post = [](const std::string &path) {
    return "POST " + path + "?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx";
  };

  std::string slow_answer;
  std::thread slow([&] {
    slow_answer =
        test::raw_exchange(port, "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  });
  {
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, std::chrono::seconds(5), [&] { return slow_started; }));
  }
  // The one worker is busy: a request named at once is answered all the same, pipelined ones
  // too, each in order...
  test::RawConnection at_once(port);
  at_once.send(post("/at-once") + post("/at-once"));
  auto both = at_once.read_until("at once\n");
  if (both.find("at once") == both.rfind("at once")) both += at_once.read_until("at once\n");
  CHECK(both.find("at once") != both.rfind("at once"));
  // ...and one that is not waits for the worker, even behind one answered at once.
  test::RawConnection mixed(port);
  mixed.send(post("/at-once") + post("/by-worker"));
  CHECK(mixed.read_until("at once\n", 5).find("at once") != std::string::npos);
  CHECK(mixed.read_some(1).empty());
  {
    std::lock_guard lock(mutex);
    slow_may_end = true;
  }
  changed.notify_all();
  CHECK(mixed.read_until("by a worker\n", 5).find("by a worker") != std::string::npos);
  slow.join();
  CHECK(slow_answer.find("slow") != std::string::npos);
  server.stop();
  serving.join();
}

TEST_CASE("transport: the site's votes are answered by the reactor that read them, and nothing "
          "else is") {
  test::SiteServer site;
  const auto &server = site.server();
  CHECK(server.answers_on_reactor("POST", "/tools/codestral-2-1/vote"));
  CHECK(
      server.answers_on_reactor("POST", "/compare/codestral-2-1-vs-cursor-background-agent/vote"));
  CHECK_FALSE(server.answers_on_reactor("GET", "/tools/codestral-2-1/vote"));
  CHECK_FALSE(server.answers_on_reactor("POST", "/tools/codestral-2-1"));
  CHECK_FALSE(server.answers_on_reactor("POST", "/tools/codestral-2-1/vote/x"));
  CHECK_FALSE(server.answers_on_reactor("POST", "/subscribe"));
  CHECK_FALSE(server.answers_on_reactor("POST", "/admin/login"));
  CHECK_FALSE(server.answers_on_reactor("GET", "/"));
}

TEST_CASE("framing: limits hold to the byte, and connection tokens are read as lists") {
  const FramingLimits limits;
  const auto post_of = [](size_t length) {
    return "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(length) + "\r\n\r\n";
  };
  CHECK(frame_request(post_of(limits.max_body)).kind == Kind::incomplete);
  CHECK(frame_request(post_of(limits.max_body + 1)).status == 413);
  // The desk's forms carry long texts: their limit is their own, and no one else's.
  const auto desk_post_of = [](size_t length) {
    return "POST /admin/tools HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(length) +
           "\r\n\r\n";
  };
  CHECK(limits.max_desk_body > limits.max_body);
  CHECK(frame_request(desk_post_of(limits.max_desk_body)).kind == Kind::incomplete);
  CHECK(frame_request(desk_post_of(limits.max_desk_body + 1)).status == 413);
  CHECK(frame_request(post_of(limits.max_body + 1)).status == 413); // "/": not the desk's
  const auto line_of = [](size_t length) { // a request line of exactly `length` bytes
    return "GET /" + std::string(length - 14, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n";
  };
  CHECK(frame_request(line_of(limits.max_request_line)).kind == Kind::complete);
  CHECK(frame_request(line_of(limits.max_request_line + 1)).status == 414);
  const auto head_of = [](size_t length) { // a whole head of exactly `length` bytes
    const std::string start = "GET / HTTP/1.1\r\nHost: x\r\nX: ";
    return start + std::string(length - start.size() - 4, 'a') + "\r\n\r\n";
  };
  CHECK(frame_request(head_of(limits.max_head)).kind == Kind::complete);
  CHECK(frame_request(head_of(limits.max_head + 1)).status == 431);
  std::string headers = "GET / HTTP/1.1\r\nHost: x\r\n";
  for (size_t i = 1; i < limits.max_headers; ++i)
    headers += "X-" + std::to_string(i) + ": y\r\n";
  CHECK(frame_request(headers + "\r\n").kind == Kind::complete);
  CHECK(frame_request(headers + "X-Last: y\r\n\r\n").status == 431);

  CHECK_FALSE(
      frame_request("GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, Close\r\n\r\n").keep_alive);
  CHECK(frame_request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keep_alive);
  const std::string if_range = "GET / HTTP/1.1\r\nHost: x\r\nIf-Range: \"x\"\r\n\r\n";
  CHECK(head_for_parser(if_range, frame_request(if_range)) == "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  // A desk form past httplib's own 8 KiB form limit is handed on under its media type
  // capitalised (httplib would refuse it), every other header as it came; a short one as is.
  const auto desk_form = [](size_t length) {
    return "POST /admin/tools HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-"
           "urlencoded \r\nContent-Length: " +
           std::to_string(length) + "\r\nCookie: c=1\r\n\r\n";
  };
  const auto long_head = desk_form(20000);
  CHECK(head_for_parser(long_head, frame_request(long_head)) ==
        "POST /admin/tools HTTP/1.1\r\nHost: x\r\nContent-Type: Application/x-www-form-urlencoded"
        "\r\nContent-Length: 20000\r\nCookie: c=1\r\n\r\n");
  const auto short_head = desk_form(100);
  CHECK(head_for_parser(short_head, frame_request(short_head)) == short_head);
}

TEST_CASE("framing: more refusals, for hosts, bodies, bytes and versions") {
  for (const std::string request :
       {"GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", "GET / HTTP/1.1\r\nHost: %61\r\n\r\n",
        "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
        "DELETE / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        "HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na",
        "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", "GET /a\x7f HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX: a\x7f\r\n\r\n"}) {
    INFO(request);
    CHECK(frame_request(request).status == 400);
  }
}

TEST_CASE("transport: a refusal carries the security headers and is never stored") {
  test::SiteServer site;
  const auto answer = test::raw_exchange(site.port(), "GET / HTTP/1.1\r\n\r\n");
  CHECK(status_of(answer) == 400);
  CHECK(answer.find("Content-Security-Policy: default-src 'none'") != std::string::npos);
  CHECK(answer.find("X-Content-Type-Options: nosniff") != std::string::npos);
  CHECK(answer.find("Cache-Control: no-store") != std::string::npos);
  CHECK(answer.find("Connection: close") != std::string::npos);
  CHECK(answer.find("An HTTP/1.1 request names its Host.") != std::string::npos);
}
