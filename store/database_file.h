// The database file beneath SQLite: which file the site opened, and whether the write-ahead
// log beside it belongs to it. SQLite finds its log by name (`site.db-wal`), so an operator
// who restores a backup over the file, or moves another file into its place, leaves a log
// written for the old file beside the new one, and SQLite would apply it: the restored file
// reads as "malformed". The file carries its identity inside (migration 14: a random id and
// how many times its log was copied into it), and the site records beside the database which
// identity its log was written on (`site.db-wal-owner`). Before opening, a log is set aside
// only when that record proves it another file's: never by timestamps or inodes, which a
// `touch`, a `cp -p` or a clock change alter without changing a byte of the database.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

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

// What the file's own bytes say it is (its log not applied); none for a file without one
// (made by a verdict before the identity, or not yet copied into from its log).
struct InsideIdentity {
  std::string file_id;
  int64_t checkpoints = 0;
};
std::optional<InsideIdentity> identity_inside(const std::string &path);

// Before SQLite opens `path`: when the record proves the log beside it was written on another
// file (another id, or this file at another count of copies: a restored older backup),
// renames the log (and drops its index, `-shm`) so SQLite opens the file as it is. Returns the
// sentence for the log; empty when nothing was done. Without a record (a database from an
// older verdict) the log is trusted, as SQLite would.
std::string set_aside_a_foreign_log(const std::string &path);

// The record the check above reads, each written synced, naming the range of counts the file
// may show while the log beside it is its own: from what the file says now to what the log
// holds. The writer calls `note_checkpoint_starting` with the count it is about to put in
// the log, before it does; copies the log into the file; then calls `note_settled`. Any copy
// (the writer's, or SQLite's own as the last connection closes, or a crash midway) leaves
// the file at a count in the range last recorded.
void note_checkpoint_starting(const std::string &path, int64_t checkpoints_in_log);
void note_settled(const std::string &path, int64_t checkpoints_in_log);
// After the last connection closed: with no log left beside the file there is nothing to
// record, and the file stands alone again.
void forget_when_no_log(const std::string &path);

} // namespace verdict::database_file
