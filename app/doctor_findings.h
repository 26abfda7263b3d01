// What `verdict doctor` makes of what it found on a running install: one finding a subject,
// ok or what is wrong and what to do. Pure judgements of figures already read (the reading is
// app/doctor_command.cpp's), so each rule's edges are tested with figures alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/write_stream.h"

namespace verdict {

struct Finding {
  std::string subject; // what was looked at: "database", "site", "backups", "mail", …
  bool ok = true;
  std::string said;  // what holds, or what is wrong
  std::string to_do; // for a problem: what to do about it
};

inline Finding fine(std::string subject, std::string said) {
  return {std::move(subject), true, std::move(said), {}};
}
inline Finding problem(std::string subject, std::string said, std::string to_do) {
  return {std::move(subject), false, std::move(said), std::move(to_do)};
}

// The nightly timer makes a copy a day (at a random time within its hour): a newest copy older
// than a day and a half means a night was missed.
constexpr int64_t kBackupOldAfterHours = 36;
// `copies_made_at`: when each dated copy in `folder` was made (app/backup_command.h);
// `back_up_now`: the command that makes one.
Finding judge_backups(const std::string &folder, const std::vector<int64_t> &copies_made_at,
                      int64_t now, const std::string &back_up_now);

// A backup needs as much room again as the database, and SQLite's write-ahead log and a
// VACUUM as much once more: less than twice the database free, or under 1 GiB, is a problem.
// `database_bytes`: none when there is no database (said by the database's finding alone).
Finding judge_disk(const std::string &folder, uint64_t free_bytes,
                   std::optional<uint64_t> database_bytes);

// The site's certificate, read from its https address: a problem two weeks before it ends
// (an ACME client renews a month before; two weeks left means renewal is failing).
constexpr int64_t kCertificateWarnDays = 14;
Finding judge_certificate(const std::string &base_url, int64_t expires_at, int64_t now);

// The vote log's newest signed checkpoint: made daily, so older than `max_age_hours` with
// entries after it means the site's daily checkpoint stopped (as `verdict verify` judges it).
struct CheckpointState {
  std::optional<int64_t> newest_made_at;
  uint64_t newest_size = 0; // entries the newest checkpoint covers
  uint64_t log_size = 0;    // entries in the log now
};
// `checkpoint_now`: the command that signs one.
Finding judge_checkpoint(const CheckpointState &state, int64_t now, int max_age_hours,
                         const std::string &checkpoint_now);

// A node of the cluster says where it is every second: quiet for longer, stuck, far behind,
// or skipping entries not sealed with the cluster's key (someone without the key reaches the
// NATS servers) are problems.
constexpr int64_t kNodeQuietAfterSeconds = 10;
constexpr uint64_t kNodeBehindAfterWrites = 1000;
Finding judge_cluster(const std::vector<cluster::WriteStream::NodePlace> &places,
                      uint64_t last_sequence, int64_t now);

} // namespace verdict
