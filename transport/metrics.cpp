#include "transport/metrics.h"

#include <cstdio>
#include <memory>

namespace verdict {

namespace {

// "/compare/([a-z0-9-]{1,260})/vote" -> "/compare/:param/vote"
std::string label_of(const std::string &pattern) {
  std::string label;
  int depth = 0;
  for (const char c : pattern) {
    if (c == '(' && depth++ == 0) label += ":param";
    if (depth == 0 && c != '\\') label += c;
    if (c == ')') --depth;
  }
  return label;
}

// The request this worker thread is answering (one at a time): when it started, and whether
// a route answered it.
thread_local std::chrono::steady_clock::time_point request_started;
thread_local bool routed = false;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

} // namespace

httplib::Server::Handler RequestMetrics::named(const std::string &pattern,
                                               httplib::Server::Handler handler) {
  return [this, label = label_of(pattern),
          handler = std::move(handler)](const httplib::Request &req, httplib::Response &res) {
    handler(req, res);
    routed = true; // a handler that threw leaves its 500 to be counted as "other"
    // httplib makes a status a handler left unset 200 after routing.
    observe(label, res.status == -1 ? 200 : res.status,
            std::chrono::steady_clock::now() - request_started);
  };
}

void RequestMetrics::begin_request() {
  request_started = std::chrono::steady_clock::now();
  routed = false;
}

void RequestMetrics::observe_unrouted(int status) {
  if (!routed) observe("other", status, std::chrono::steady_clock::now() - request_started);
}

void RequestMetrics::observe(const std::string &route, int status, std::chrono::nanoseconds took) {
  {
    std::lock_guard lock(mutex_);
    ++requests_[{route, status}];
  }
  const double seconds = std::chrono::duration<double>(took).count();
  size_t bucket = 0;
  while (bucket < kBuckets.size() && seconds > kBuckets[bucket])
    ++bucket;
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  total_ns_.fetch_add(static_cast<uint64_t>(took.count()), std::memory_order_relaxed);
}

std::string RequestMetrics::prometheus_text() const {
  std::string text = "# HELP verdict_requests_total Requests answered through the route table, "
                     "by route and status.\n# TYPE verdict_requests_total counter\n";
  {
    std::lock_guard lock(mutex_);
    for (const auto &[key, count] : requests_)
      text += "verdict_requests_total{route=\"" + key.first + "\",status=\"" +
              std::to_string(key.second) + "\"} " + std::to_string(count) + "\n";
  }
  text += "# HELP verdict_request_duration_seconds Time from a routed request's arrival at a "
          "worker to its answer.\n# TYPE verdict_request_duration_seconds histogram\n";
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= kBuckets.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    text += "verdict_request_duration_seconds_bucket{le=\"" +
            (i < kBuckets.size() ? number(kBuckets[i]) : std::string("+Inf")) + "\"} " +
            std::to_string(cumulative) + "\n";
  }
  text += "verdict_request_duration_seconds_sum " +
          number(static_cast<double>(total_ns_.load()) / 1e9) + "\n";
  text += "verdict_request_duration_seconds_count " + std::to_string(count_.load()) + "\n";
  return text;
}

std::string prometheus_sample(const char *name, const char *type, const char *help, double value) {
  return std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" +
         name + " " + number(value) + "\n";
}

} // namespace verdict
