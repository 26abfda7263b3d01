#include "app/doctor_findings.h"

#include <algorithm>
#include <cstdio>

#include "domain/dates.h"

namespace verdict {

namespace {

std::string bytes_in_words(uint64_t bytes) {
  char text[32];
  const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
  if (mib < 1024)
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  else
    std::snprintf(text, sizeof text, "%.1f GiB", mib / 1024.0);
  return text;
}

} // namespace

Finding judge_backups(const std::string &folder, const std::vector<int64_t> &copies_made_at,
                      int64_t now, const std::string &back_up_now) {
  const auto enable = "sudo systemctl enable --now verdict-backup.timer (one a night), or `" +
                      back_up_now + "` from a timer of your own";
  if (copies_made_at.empty()) return problem("backups", "none in " + folder, enable);
  const auto newest = *std::max_element(copies_made_at.begin(), copies_made_at.end());
  const auto age = now - newest;
  const auto counted = std::to_string(copies_made_at.size()) +
                       (copies_made_at.size() == 1 ? " copy" : " copies") + " in " + folder;
  if (age > kBackupOldAfterHours * 3600)
    return problem("backups",
                   "the newest of " + counted + " is " + age_in_words(age) +
                       " old: a night was missed",
                   "`systemctl status verdict-backup` says why; " + enable);
  return fine("backups", "the newest of " + counted + " is " + age_in_words(age) +
                             " old (keep copies off this machine too)");
}

Finding judge_disk(const std::string &folder, uint64_t free_bytes,
                   std::optional<uint64_t> database_bytes) {
  constexpr uint64_t kGiB = 1024ull * 1024 * 1024;
  const auto figures =
      bytes_in_words(free_bytes) + " free where the database is (" + folder + ")" +
      (database_bytes ? "; the database is " + bytes_in_words(*database_bytes) : std::string());
  if (free_bytes < kGiB || free_bytes < 2 * database_bytes.value_or(0))
    return problem("disk",
                   figures + ": a backup needs as much again, and SQLite's log as much once more",
                   "free space there (copy old backups off this machine, say)");
  return fine("disk", figures);
}

Finding judge_certificate(const std::string &base_url, int64_t expires_at, int64_t now) {
  const auto left = expires_at - now;
  if (left <= 0)
    return problem("certificate",
                   base_url + "'s certificate ended " + age_in_words(-left) +
                       " ago: readers' browsers refuse the site",
                   "renew it (certbot renew) and reload nginx");
  if (left < kCertificateWarnDays * 86400)
    return problem("certificate",
                   base_url + "'s certificate ends in " + age_in_words(left) +
                       ": its renewal is failing",
                   "renew it (certbot renew; `systemctl status certbot.timer` says why it did "
                   "not) and reload nginx");
  return fine("certificate",
              base_url + "'s certificate is trusted and ends in " + age_in_words(left));
}

Finding judge_checkpoint(const CheckpointState &state, int64_t now, int max_age_hours,
                         const std::string &checkpoint_now) {
  const auto uncovered = state.log_size - std::min(state.log_size, state.newest_size);
  if (!state.newest_made_at) {
    if (state.log_size == 0) return fine("vote log", "no votes yet, so no checkpoint yet");
    return problem("vote log", std::to_string(state.log_size) + " entries and no signed checkpoint",
                   "the site makes one a day while it serves; `" + checkpoint_now +
                       "` makes one now");
  }
  const auto age = now - *state.newest_made_at;
  const auto figures = "the newest checkpoint is " + age_in_words(age) + " old, " +
                       std::to_string(uncovered) + (uncovered == 1 ? " entry" : " entries") +
                       " after it";
  if (uncovered > 0 && age > static_cast<int64_t>(max_age_hours) * 3600)
    return problem("vote log", figures + ": the daily checkpoint stopped",
                   "is the site serving? `" + checkpoint_now + "` makes one now");
  return fine("vote log", figures);
}

Finding judge_cluster(const std::vector<cluster::WriteStream::NodePlace> &places,
                      uint64_t last_sequence, int64_t now) {
  if (places.empty())
    return problem("cluster", "no node has said where it is",
                   "are the nodes running with VERDICT_CLUSTER? `journalctl -u verdict` on each "
                   "says");
  std::vector<std::string> faults, to_do;
  uint64_t most_behind = 0;
  for (const auto &place : places) {
    if (place.forged) {
      faults.push_back("the report under " + place.node +
                       " is forged: it does not open with the cluster's key");
      to_do.push_back("someone holding a node's NATS password but not the key writes to the "
                      "NATS servers: change the nodes' passwords");
      continue;
    }
    const auto lag = last_sequence > place.applied ? last_sequence - place.applied : 0;
    most_behind = std::max(most_behind, lag);
    if (!place.problem.empty()) {
      faults.push_back(place.node + " is stuck: " + place.problem);
      to_do.push_back("`journalctl -u verdict` on " + place.node);
    } else if (now - place.reported_at > kNodeQuietAfterSeconds) {
      faults.push_back(place.node + " last said where it is " +
                       age_in_words(now - place.reported_at) + " ago: stopped or cut off");
      to_do.push_back("`systemctl status verdict` on " + place.node);
    } else if (lag >= kNodeBehindAfterWrites) {
      faults.push_back(place.node + " is " + std::to_string(lag) + " writes behind");
      to_do.push_back("`journalctl -u verdict` on " + place.node + " if it does not catch up");
    }
    if (place.skipped > 0) {
      faults.push_back(place.node + " skipped " + std::to_string(place.skipped) +
                       " entries not sealed with the cluster's key");
      to_do.push_back("someone without the key reaches the NATS servers: change their "
                      "passwords and check the firewall");
    }
  }
  const auto joined = [](const std::vector<std::string> &parts) {
    std::string text;
    for (const auto &part : parts)
      text += (text.empty() ? "" : "; ") + part;
    return text;
  };
  if (!faults.empty()) return problem("cluster", joined(faults), joined(to_do));
  return fine("cluster", std::to_string(places.size()) +
                             " nodes current (most behind: " + std::to_string(most_behind) +
                             " of " + std::to_string(last_sequence) + " writes)");
}

} // namespace verdict
