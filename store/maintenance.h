// Owner's tools that work on a database file directly: backup and integrity check.
#pragma once

#include <string>
#include <vector>

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

} // namespace verdict
