// What /metrics reports about the requests the server answered, in Prometheus' text format:
// requests by route and status, and how long they took. Routes are named by their pattern in
// the route table (a slug shows as ":param"), so a flood of distinct addresses cannot grow the
// set of labels; each route's handler counts its own requests (`named`), so naming a request
// costs nothing per request. Requests the reactors answer themselves from the shared cache
// or for a voter are counted by the transport (ConnectionServer::shared_answers, cookie_answers)
// and added by the /metrics page.
#pragma once

#include <httplib.h>

#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace verdict {

class RequestMetrics {
public:
  // `handler`, counting the requests it answers under its route's name ("/tools/:param") as
  // soon as it has answered, before the answer is sent: a client that reads /metrics after
  // its answer arrived finds its request counted.
  httplib::Server::Handler named(const std::string &pattern, httplib::Server::Handler handler);
  // Before routing: this thread's next request starts now and has no route yet.
  static void begin_request();
  // After answering: counts the request as "other" when no route answered it (a 404 for an
  // unknown address, a 405).
  void observe_unrouted(int status);
  // Counters and the histogram, as lines of the text format (HELP, TYPE, samples).
  std::string prometheus_text() const;

  // Upper bounds of the latency buckets, in seconds.
  static constexpr std::array<double, 10> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                      0.025,  0.05,  0.1,    0.25,  1.0};

private:
  void observe(const std::string &route, int status, std::chrono::nanoseconds took);

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;         // (route, status) -> count
  std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets_{}; // the last is +Inf
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> total_ns_{0};
};

// A gauge or counter line of the text format, with its HELP and TYPE.
std::string prometheus_sample(const char *name, const char *type, const char *help, double value);

} // namespace verdict
