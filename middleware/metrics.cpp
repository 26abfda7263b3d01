#include "middleware/metrics.h"

#include <cstdio>
#include <memory>

#include "transport/answer_hold.h"

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

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

} // namespace

httplib::Server::Handler RequestMetrics::named(const std::string &pattern,
                                               httplib::Server::Handler handler,
                                               Audience audience) {
  auto &series = audience == Audience::desk ? desk_ : public_;
  return [this, &series, label = label_of(pattern),
          handler = std::move(handler)](const httplib::Request &req, httplib::Response &res) {
    auto *context = transport::context_of(req);
    const auto started = context ? context->started : std::chrono::steady_clock::now();
    handler(req, res);
    if (context) context->routed = true; // one that threw leaves its 500 counted as "other"
    // httplib makes a status a handler left unset 200 after routing.
    observe(series, label, res.status == -1 ? 200 : res.status,
            std::chrono::steady_clock::now() - started);
  };
}

void RequestMetrics::observe_unrouted(const httplib::Request &req, int status) {
  auto *context = transport::context_of(req);
  if (context && !context->routed)
    observe(public_, "other", status, std::chrono::steady_clock::now() - context->started);
}

void RequestMetrics::observe(Series &series, const std::string &route, int status,
                             std::chrono::nanoseconds took) {
  {
    std::lock_guard lock(mutex_);
    ++series.requests[{route, status}];
  }
  const double seconds = std::chrono::duration<double>(took).count();
  size_t bucket = 0;
  while (bucket < kBuckets.size() && seconds > kBuckets[bucket])
    ++bucket;
  series.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  series.count.fetch_add(1, std::memory_order_relaxed);
  series.total_ns.fetch_add(static_cast<uint64_t>(took.count()), std::memory_order_relaxed);
}

std::string RequestMetrics::histogram_text(const Series &series, const char *name,
                                           const char *help) const {
  const std::string metric = name;
  std::string text = "# HELP " + metric + " " + help + "\n# TYPE " + metric + " histogram\n";
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= kBuckets.size(); ++i) {
    cumulative += series.buckets[i].load(std::memory_order_relaxed);
    text += metric + "_bucket{le=\"" +
            (i < kBuckets.size() ? number(kBuckets[i]) : std::string("+Inf")) + "\"} " +
            std::to_string(cumulative) + "\n";
  }
  text += metric + "_sum " + number(static_cast<double>(series.total_ns.load()) / 1e9) + "\n";
  text += metric + "_count " + std::to_string(series.count.load()) + "\n";
  return text;
}

std::string RequestMetrics::prometheus_text(Audience audience) const {
  const bool with_desk = audience == Audience::desk;
  std::string text = "# HELP verdict_requests_total Requests answered through the route table, "
                     "by route and status.\n# TYPE verdict_requests_total counter\n";
  {
    std::lock_guard lock(mutex_);
    for (const auto *series : {&public_, &desk_}) {
      if (series == &desk_ && !with_desk) continue;
      for (const auto &[key, count] : series->requests)
        text += "verdict_requests_total{route=\"" + key.first + "\",status=\"" +
                std::to_string(key.second) + "\"} " + std::to_string(count) + "\n";
    }
  }
  text += histogram_text(public_, "verdict_request_duration_seconds",
                         "Time from a routed request's arrival at a worker to its answer, "
                         "readers' routes.");
  if (with_desk)
    text += histogram_text(desk_, "verdict_desk_request_duration_seconds",
                           "Time from a desk request's arrival at a worker to its answer.");
  return text;
}

std::string prometheus_sample(const char *name, const char *type, const char *help, double value) {
  return std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" +
         name + " " + number(value) + "\n";
}

} // namespace verdict
