// The database file beneath SQLite: which file the site opened, and whether the write-ahead
// log beside it belongs to it. SQLite finds its log by name (`site.db-wal`), so an operator
// who restores a backup over the file, or moves another file into its place, leaves a log
// written for the old file beside the new one, and SQLite would apply it: the restored file
// reads as "malformed". The site records, beside the database, which file its log was
// written for (`site.db-wal-owner`), and before opening sets aside a log written for another.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace verdict::database_file {

// What tells one file, and one state of its bytes, from another.
struct Identity {
  dev_t device = 0;
  ino_t inode = 0;
  int64_t size = 0;
  int64_t modified_ns = 0; // changed by every write to the file (checkpoints, in WAL mode)
  bool same_file(const Identity &other) const {
    return device == other.device && inode == other.inode;
  }
  bool operator==(const Identity &) const = default;
};

// The file at `path` now; none when there is no file.
std::optional<Identity> identity_of(const std::string &path);

// Throws, saying why, when `path` holds something that cannot be a site's database: an empty
// file (0 bytes) or a file that is not SQLite's. No file at all is fine (a new site).
void refuse_what_is_not_a_database(const std::string &path);

// Why the site at `path` cannot be written, or empty when it can: the file system is mounted
// read-only, the file is not writable by this user, or its folder is not (SQLite keeps its
// log and the log's index beside the file). The store then serves the file read-only.
std::string why_read_only(const std::string &path);

// What a site that was at `path` leaves beside it when its file is gone: its log, the log's
// index and record, a rollback journal, the copies a server kept of a file deleted under it
// (`path.served-<time>`). Empty when nothing of a site is there.
std::vector<std::string> leftovers_of_a_site(const std::string &path);

// Before SQLite opens `path`: when the log beside it was written for another file (or for
// this file before it was overwritten), renames the log (and drops its index, `-shm`) so
// SQLite opens the file as it is. Returns the sentence for the log; empty when nothing was
// done. Without a record (a database from an older verdict) the log is trusted, as SQLite
// would.
std::string set_aside_a_foreign_log(const std::string &path);

// The record the check above reads. The writer calls `checkpoint_starting` before it copies
// the log into the file (which changes the file) and `settled` after, each synced to disk,
// so a crash in between never makes a log look foreign.
void note_checkpoint_starting(const std::string &path);
void note_settled(const std::string &path);
// After the last connection closed: with no log left beside the file there is nothing to
// record, and the file stands alone again.
void forget_when_no_log(const std::string &path);

} // namespace verdict::database_file
