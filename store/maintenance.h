// Owner's tools that work on a database file directly: backup and integrity check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/model.h"

namespace verdict {

namespace sql {
class Db;
}

// Writes what `db` reads to `out_path` (which must not exist) as one self-contained file, with
// a stamp of its own (store/database_file.h).
void copy_database(sql::Db &db, const std::string &out_path);

// Writes a consistent, self-contained copy of the database at `db_path` to `out_path` (which
// must not exist) while the site may be serving and writing: VACUUM INTO reads one snapshot.
void backup_database(const std::string &db_path, const std::string &out_path);

// PRAGMA integrity_check and foreign_key_check; returns the problems found (empty when sound).
std::vector<std::string> check_database(const std::string &db_path);

// What `verdict doctor` reads of a site besides its soundness: the vote log's newest checkpoint
// and size, and the digest's subscribers. Read on a read-only connection: run as root beside
// the site's own user, it must make no file that user then cannot open.
struct SiteVitals {
  std::optional<int64_t> checkpoint_made_at;
  uint64_t checkpoint_size = 0; // entries the newest checkpoint covers
  uint64_t log_size = 0;        // entries in the vote log
  SubscriberCounts subscribers;
};
SiteVitals read_site_vitals(const std::string &db_path);

} // namespace verdict
