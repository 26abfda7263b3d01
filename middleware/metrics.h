// What /metrics reports about the requests the server answered, in Prometheus' text format:
// requests by route and status, and how long they took. Routes are named by their pattern in
// the route table (a slug shows as ":param"), so a flood of distinct addresses cannot grow the
// set of labels; each route's handler counts its own requests (`named`), so naming a request
// costs nothing per request. Requests the reactors answer themselves from the shared cache
// or for a voter are counted by the transport (ConnectionServer::shared_answers, cookie_answers)
// and added by the /metrics page.
//
// Routes have an audience. Readers' routes may be shown to anyone; the desk's (signing in,
// its pages and saves, the subscriber list) only to the site's owner, since counts of
// sign-ins by status or of subscriber exports tell an attacker how an attack goes. So each
// audience has its own counts and its own histogram: public figures must not be able to add
// up to more than the public routes.
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

enum class Audience { everyone, desk };

class RequestMetrics {
public:
  // `handler`, counting the requests it answers under its route's name ("/tools/:param") as
  // soon as it has answered, before the answer is sent: a client that reads /metrics after
  // its answer arrived finds its request counted.
  httplib::Server::Handler named(const std::string &pattern, httplib::Server::Handler handler,
                                 Audience audience = Audience::everyone);
  // After answering `req`: counts it as "other" when no route answered it (a 404 for an
  // unknown address, a 405). Each request's start, and whether a route took it, are the
  // connection server's (transport/answer_hold.h RequestContext).
  void observe_unrouted(const httplib::Request &req, int status);
  // Counters and the histogram, as lines of the text format (HELP, TYPE, samples): the
  // public routes', and with `audience` desk the desk's too (its own histogram).
  std::string prometheus_text(Audience audience = Audience::everyone) const;

  // Upper bounds of the latency buckets, in seconds.
  static constexpr std::array<double, 10> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                      0.025,  0.05,  0.1,    0.25,  1.0};

private:
  // One audience's figures.
  struct Series {
    std::map<std::pair<std::string, int>, uint64_t> requests;         // (route, status) -> count
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{}; // the last is +Inf
    std::atomic<uint64_t> count{0};
    std::atomic<uint64_t> total_ns{0};
  };
  void observe(Series &series, const std::string &route, int status, std::chrono::nanoseconds took);
  std::string histogram_text(const Series &series, const char *name, const char *help) const;

  mutable std::mutex mutex_; // guards both series' request maps
  Series public_, desk_;
};

// A gauge or counter line of the text format, with its HELP and TYPE.
std::string prometheus_sample(const char *name, const char *type, const char *help, double value);

} // namespace verdict
