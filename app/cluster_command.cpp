#include "app/cluster_command.h"

#include <chrono>
#include <iomanip>

#include "cluster/write_stream.h"

namespace verdict {

int run_cluster_status(const Options &options, std::ostream &out, std::ostream &err) {
  try {
    cluster::WriteStream stream(cluster::StreamSettings{options.cluster, "verdict-cluster-status"});
    const auto first = stream.first_sequence(), last = stream.last_sequence();
    out << "The stream of writes holds " << (last == 0 ? 0 : last - first + 1) << " writes";
    if (last > 0) out << " (" << first << " to " << last << ")";
    out << ".\n";
    const auto places = stream.node_places();
    if (places.empty()) {
      out << "No node has said how far it is yet.\n";
      return 0;
    }
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    size_t widest = 4;
    for (const auto &place : places)
      widest = std::max(widest, place.node.size());
    out << std::left << std::setw(static_cast<int>(widest + 2)) << "node" << std::setw(12)
        << "applied" << std::setw(10) << "lag"
        << "said\n";
    for (const auto &place : places) {
      const auto lag = last > place.applied ? last - place.applied : 0;
      const auto age = now - place.reported_at;
      out << std::setw(static_cast<int>(widest + 2)) << place.node << std::setw(12) << place.applied
          << std::setw(10) << lag << age << " s ago"
          << (age > 10 ? " (not heard from since: stopped, or cut off)" : "") << "\n";
    }
    return 0;
  } catch (const cluster::StreamUnavailable &e) {
    err << "verdict cluster status: " << e.what() << "\n";
    return 1;
  }
}

} // namespace verdict
