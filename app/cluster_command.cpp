#include "app/cluster_command.h"

#include <chrono>
#include <iomanip>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "app/server.h"
#include "cluster/cluster_key.h"
#include "cluster/write_stream.h"

namespace verdict {

cluster::StreamSettings stream_settings(const Options &options, const std::string &name) {
  cluster::StreamSettings settings;
  settings.servers = options.cluster;
  settings.node = name;
  settings.creds_file = options.cluster_creds;
  settings.tls_ca = options.cluster_ca;
  settings.tls_cert = options.cluster_tls_cert;
  settings.tls_key = options.cluster_tls_key;
  // A reader waits for the stream's answer at most this long (two such waits in all, with one
  // in the queue): a vote is answered within 3 s however the servers fare.
  settings.publish_wait = std::chrono::milliseconds(1200);
  return settings;
}

int run_cluster_key(const Options &options, std::ostream &out, std::ostream &err) {
  std::map<std::string, std::string> carried;
  if (options.db_named) {
    if (!std::filesystem::exists(options.db)) {
      err << "verdict cluster key: there is no site at " << options.db << "\n";
      return 1;
    }
    auto store = open_site_database(options.db);
    for (const auto name : cluster::kSiteSecretNames)
      if (auto kept = store->kept_site_secret(name)) carried[std::string(name)] = *kept;
  }
  const auto text = cluster::ClusterKey::new_file_text(carried);
  // O_EXCL: a key already given to nodes is never overwritten by mistake.
  const int fd = ::open(options.key_out.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    err << "verdict cluster key: cannot make " << options.key_out << ": "
        << (errno == EEXIST ? "a file is there already (a key in use is never overwritten)"
                            : std::string(std::strerror(errno)))
        << "\n";
    return 1;
  }
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool closed = ::fsync(fd) == 0 && ::close(fd) == 0;
  if (!written || !closed) {
    std::filesystem::remove(options.key_out);
    err << "verdict cluster key: could not write " << options.key_out << "\n";
    return 1;
  }
  out << "Wrote the cluster's key to " << options.key_out << " (mode 600)"
      << (carried.empty() ? "" : ", with the secrets of " + options.db)
      << ". Copy it to every node and give it as --cluster-key (or VERDICT_CLUSTER_KEY).\n";
  return 0;
}

int run_cluster_status(const Options &options, std::ostream &out, std::ostream &err) {
  try {
    // Every report is checked against the cluster's key: one that does not open is forged.
    const auto key = cluster::ClusterKey::from_file(options.cluster_key_file);
    auto settings = stream_settings(options, "verdict-cluster-status");
    settings.may_create = false; // it only looks
    cluster::WriteStream stream(settings);
    const auto first = stream.first_sequence(), last = stream.last_sequence();
    out << "The stream of writes holds " << (last == 0 ? 0 : last - first + 1) << " writes";
    if (last > 0) out << " (" << first << " to " << last << ")";
    out << ".\n";
    const auto places = stream.node_places(key);
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
      if (place.forged) {
        out << std::setw(static_cast<int>(widest + 2)) << place.node
            << "FORGED: this report does not open with the cluster's key (someone holding a "
               "node's NATS password but not the key wrote it)\n";
        continue;
      }
      const auto lag = last > place.applied ? last - place.applied : 0;
      const auto age = now - place.reported_at;
      out << std::setw(static_cast<int>(widest + 2)) << place.node << std::setw(12) << place.applied
          << std::setw(10) << lag << age << " s ago"
          << (age > 10 ? " (not heard from since: stopped, or cut off)" : "") << "\n";
      if (place.skipped > 0)
        out << "  " << place.node << " skipped " << place.skipped
            << (place.skipped == 1 ? " entry" : " entries")
            << " not sealed with the cluster's key (or published again), the last at "
            << place.last_skipped << ": someone without the key reaches the NATS servers\n";
      if (!place.problem.empty())
        out << "  " << place.node << " is stuck: " << place.problem << "\n";
    }
    return 0;
  } catch (const std::runtime_error &e) { // the stream unreadable, or no key to check with
    err << "verdict cluster status: " << e.what() << "\n";
    return 1;
  }
}

} // namespace verdict
