#include <catch2/catch.hpp>

#include "handlers/routes.h"
#include "middleware/cost_budget.h"
#include "middleware/rate_limit.h"
#include "test_support.h"

using namespace verdict;
using namespace std::chrono;

TEST_CASE("a client over its writes per minute waits for the window to pass") {
  RateLimiter limiter(3);
  const auto t0 = steady_clock::now();
  CHECK(limiter.take("10.0.0.1", t0) == 0);
  CHECK(limiter.take("10.0.0.1", t0) == 0);
  CHECK(limiter.take("10.0.0.1", t0) == 0);
  CHECK(limiter.take("10.0.0.1", t0 + seconds(20)) == 40);
  CHECK(limiter.take("10.0.0.2", t0) == 0); // another client is not affected
  CHECK(limiter.take("10.0.0.1", t0 + seconds(61)) == 0);
}

TEST_CASE("a limit of zero turns rate limiting off") {
  RateLimiter limiter(0);
  for (int i = 0; i < 1000; ++i)
    CHECK(limiter.take("10.0.0.1") == 0);
}

TEST_CASE("X-Forwarded-For is believed only from the trusted proxy") {
  CHECK(client_address("10.0.0.9", "1.2.3.4", TrustedProxies()) == "10.0.0.9");
  CHECK(client_address("10.0.0.9", "1.2.3.4", TrustedProxies("127.0.0.1")) == "10.0.0.9");
  CHECK(client_address("127.0.0.1", "6.6.6.6, 1.2.3.4", TrustedProxies("127.0.0.1")) == "1.2.3.4");
  CHECK(client_address("127.0.0.1", "", TrustedProxies("127.0.0.1")) == "127.0.0.1");
}

TEST_CASE("http: writes over the limit get 429 with Retry-After, and REMOTE_ADDR is not believed") {
  test::SiteServer site(":memory:", 2, ""); // no proxy trusted: X-Forwarded-For is the client's
  auto client = site.client();
  int refused = 0;
  const auto token = test::vote_token_for(client, "/tools/codestral-2-1/vote");
  for (int i = 0; i < 4; ++i) {
    // A client claiming a different address each time is still one client.
    const auto res =
        client.Post("/tools/codestral-2-1/vote",
                    {{"Sec-Fetch-Site", "same-origin"},
                     {"REMOTE_ADDR", "10.9.9." + std::to_string(i)},
                     {"X-Forwarded-For", "10.8.8." + std::to_string(i)}},
                    "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
    REQUIRE(res);
    if (res->status == 429) {
      ++refused;
      CHECK_FALSE(res->get_header_value("Retry-After").empty());
    }
  }
  CHECK(refused == 2);
  CHECK(site.store().tool_by_slug("codestral-2-1")->community.total == 2);
}

TEST_CASE(
    "a client's window reopens exactly a minute after it began, and waits are whole seconds") {
  RateLimiter limiter(1);
  const auto t0 = steady_clock::now();
  CHECK(limiter.take("10.0.0.1", t0) == 0);
  CHECK(limiter.take("10.0.0.1", t0 + milliseconds(59500)) == 1); // never "wait 0 seconds"
  CHECK(limiter.take("10.0.0.1", t0 + seconds(60)) == 0);
}

TEST_CASE("X-Forwarded-For from the trusted proxy names the address the proxy appended last") {
  CHECK(client_address("127.0.0.1", "6.6.6.6, 7.7.7.7, 1.2.3.4", TrustedProxies("127.0.0.1")) ==
        "1.2.3.4");
  CHECK(client_address("127.0.0.1", "1.2.3.4", TrustedProxies("127.0.0.1")) == "1.2.3.4");
  CHECK(client_address("127.0.0.1", " , ", TrustedProxies("127.0.0.1")) == "127.0.0.1");
}

TEST_CASE("trusted proxies: a list of addresses and networks, each entry checked, and "
          "X-Forwarded-For read from the end past every trusted front") {
  const TrustedProxies fronts("127.0.0.1, 10.0.0.0/8,2001:db8:f::/48");
  CHECK(fronts.contains("127.0.0.1"));
  CHECK(fronts.contains("::ffff:127.0.0.1")); // the same address by an IPv6 socket
  CHECK(fronts.contains("10.200.3.4"));
  CHECK(fronts.contains("2001:db8:f:1::9"));
  CHECK_FALSE(fronts.contains("127.0.0.2"));
  CHECK_FALSE(fronts.contains("11.0.0.1"));
  CHECK_FALSE(fronts.contains("2001:db8:e::1"));
  CHECK_FALSE(fronts.contains("10.0.0.1:80"));
  CHECK_FALSE(TrustedProxies().contains("127.0.0.1"));
  for (const auto *bad : {"localhost", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/8x", "::1/129",
                          "127.0.0.1:8080", "1.2.3.4, proxy.example"})
    CHECK_THROWS_AS(TrustedProxies(bad), std::invalid_argument);

  CHECK(canonical_address(" 2001:DB8::0:1 ") == "2001:db8::1");
  CHECK(canonical_address("::ffff:198.51.100.7") == "198.51.100.7");
  for (const auto *not_one :
       {"203.0.113.9:5000", "[::1]", "reader.example", "", "1.2.3", "1.2.3.4.5"})
    CHECK(canonical_address(not_one).empty());

  // Two fronts: the client is the first address, from the end, that is not one of them.
  CHECK(client_address("127.0.0.1", "198.51.100.7, 10.1.2.3", fronts) == "198.51.100.7");
  CHECK(client_address("10.9.9.9", "6.6.6.6, 198.51.100.7", fronts) == "198.51.100.7");
  // Not an address: the reading stops at the proxy that passed it on.
  CHECK(client_address("127.0.0.1", "203.0.113.9:5000", fronts) == "127.0.0.1");
  CHECK(client_address("127.0.0.1", "junk, 10.1.2.3", fronts) == "10.1.2.3");
  CHECK(client_address("127.0.0.1", "198.51.100.7, [::1]", fronts) == "127.0.0.1");
  // Written one way, whatever way it came.
  CHECK(client_address("127.0.0.1", "2001:DB8:0::7", fronts) == "2001:db8::7");
}

TEST_CASE("http: behind the trusted proxy, addresses inside one IPv4 /24 or one IPv6 /48 share one "
          "write limit, and another network has its own") {
  test::SiteServer site(":memory:", 2, "127.0.0.1");
  auto client = site.client();
  const auto token = test::vote_token_for(client, "/tools/codestral-2-1/vote");
  const auto vote_from = [&](const std::string &address) {
    const auto res =
        client.Post("/tools/codestral-2-1/vote",
                    {{"Sec-Fetch-Site", "same-origin"}, {"X-Forwarded-For", address}},
                    "verdict=ship&token=" + token, "application/x-www-form-urlencoded");
    REQUIRE(res);
    return res->status;
  };
  CHECK(vote_from("203.0.113.1") == 303);
  CHECK(vote_from("203.0.113.2") == 303);
  CHECK(vote_from("203.0.113.3") == 429);
  CHECK(vote_from("203.0.113.254") == 429);
  CHECK(vote_from("2001:db8:7:1::1") == 303);
  CHECK(vote_from("2001:db8:7:2::1") == 303); // another /64, the same /48
  CHECK(vote_from("2001:db8:7:3::1") == 429);
  CHECK(vote_from("198.51.100.1") == 303);
}

TEST_CASE("cost budget: a client who spent its CPU time waits until it earns more, and others "
          "are not held up") {
  CostBudget budget(
      {milliseconds(100), milliseconds(1000), milliseconds(10000), milliseconds(10000)});
  const auto t0 = steady_clock::now();
  CHECK_FALSE(budget.begin("10.0.0.0/24", t0));
  budget.finish("10.0.0.0/24", milliseconds(1500), t0); // one answer may overdraw it
  const auto refused = budget.begin("10.0.0.0/24", t0);
  REQUIRE(refused);
  CHECK_FALSE(refused->whole_site);
  CHECK(refused->wait_seconds == 6); // 500 ms owed, and 1 ms to hold, at 100 ms a second
  CHECK_FALSE(budget.begin("10.0.1.0/24", t0));
  CHECK(budget.begin("10.0.0.0/24", t0 + seconds(5)));
  CHECK_FALSE(budget.begin("10.0.0.0/24", t0 + seconds(6)));
  // Earned time is held up to the burst only: a client quiet for an hour has one second.
  budget.finish("10.0.0.0/24", milliseconds(900), t0 + seconds(3600));
  CHECK_FALSE(budget.begin("10.0.0.0/24", t0 + seconds(3600)));
  budget.finish("10.0.0.0/24", milliseconds(200), t0 + seconds(3600));
  CHECK(budget.begin("10.0.0.0/24", t0 + seconds(3600)));
}

TEST_CASE("cost budget: many clients together cannot spend more than the whole site's share: "
          "once it is spent, those who spent it wait") {
  CostBudget budget({milliseconds(100), milliseconds(1000), milliseconds(500), milliseconds(2000)});
  const auto t0 = steady_clock::now();
  for (int i = 0; i < 3; ++i) {
    const auto client = "10.0." + std::to_string(i) + ".0/24";
    REQUIRE_FALSE(budget.begin(client, t0));
    budget.finish(client, milliseconds(800), t0);
  }
  // Each still holds time of its own, but the site's is spent, by them.
  const auto refused = budget.begin("10.0.0.0/24", t0);
  REQUIRE(refused);
  CHECK(refused->whole_site);
  CHECK(refused->wait_seconds == 1);
  // A client who spent nothing is answered even so.
  CHECK_FALSE(budget.begin("10.9.9.0/24", t0));
  CHECK_FALSE(budget.begin("10.0.0.0/24", t0 + seconds(2)));
}

TEST_CASE("cost budget: six networks flooding for 30 s spend their own shares of the site's "
          "budget, and a seventh that asks now and then is answered every time") {
  CostBudget budget;
  const auto t0 = steady_clock::now();
  int reader_asked = 0, reader_refused = 0;
  double flood_ms = 0;
  for (int step = 0; step < 300; ++step) { // every 100 ms
    const auto now = t0 + milliseconds(100 * step);
    for (int i = 0; i < 6; ++i) {
      const auto flooder = "10.0." + std::to_string(i) + ".0/24";
      for (int at_once = 0; at_once < 4; ++at_once) {
        if (budget.begin(flooder, now)) continue;
        budget.finish(flooder, milliseconds(30), now);
        flood_ms += 30;
      }
    }
    if (step % 10 == 5) { // a search a second
      ++reader_asked;
      if (budget.begin("10.9.9.0/24", now)) {
        ++reader_refused;
      } else {
        budget.finish("10.9.9.0/24", milliseconds(30), now);
      }
    }
  }
  CHECK(reader_asked == 30);
  CHECK(reader_refused == 0);
  // The flood still spends no more than the site earns, its burst, and one burst more: what
  // those under their shares may spend past the site's bucket.
  CHECK(flood_ms <= 500 * 30 + 2 * 2000);
}

TEST_CASE("cost budget: networks holding several costly answers in progress leave places for a "
          "client with none") {
  CostBudget budget;
  const auto t0 = steady_clock::now();
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < 6; ++i)
      (void)budget.begin("10.0." + std::to_string(i) + ".0/24", t0);
  CHECK_FALSE(budget.begin("10.9.9.0/24", t0));
  // Its second waits for the flood's to finish.
  const auto second = budget.begin("10.9.9.0/24", t0);
  REQUIRE(second);
  CHECK(second->whole_site);
}

TEST_CASE("cost budget: the whole site has eight costly answers in progress at most, from "
          "however many clients, so a crowd starting together cannot run the site into debt") {
  CostBudget budget;
  const auto t0 = steady_clock::now();
  for (int i = 0; i < 8; ++i)
    CHECK_FALSE(budget.begin("10.0." + std::to_string(i) + ".0/24", t0));
  const auto ninth = budget.begin("10.0.9.0/24", t0); // its own bucket full, the site's too
  REQUIRE(ninth);
  CHECK(ninth->whole_site);
  CHECK(ninth->wait_seconds == 1);
  budget.finish("10.0.0.0/24", milliseconds(1), t0);
  CHECK_FALSE(budget.begin("10.0.9.0/24", t0)); // one finished: its place is free again
}

TEST_CASE("cost budget: a client has four costly answers in progress at most, whatever its "
          "budget holds, and another client is not held up by them") {
  CostBudget budget;
  const auto t0 = steady_clock::now();
  for (int i = 0; i < 4; ++i)
    CHECK_FALSE(budget.begin("10.0.0.0/24", t0));
  const auto fifth = budget.begin("10.0.0.0/24", t0);
  REQUIRE(fifth);
  CHECK_FALSE(fifth->whole_site);
  CHECK(fifth->wait_seconds == 1);
  CHECK_FALSE(budget.begin("10.0.1.0/24", t0));
  budget.finish("10.0.0.0/24", milliseconds(1), t0);
  CHECK_FALSE(budget.begin("10.0.0.0/24", t0)); // one finished: its place is free again
}
