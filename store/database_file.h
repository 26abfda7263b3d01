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

namespace verdict::sql {
class Db;
}

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

// Which state of the file's own bytes a log was written for is told by a stamp inside the
// file: SQLite's application id (4 bytes in the file's header), given a new random value by
// every checkpoint (the file's bytes change only then: in WAL mode a write goes to the log).
// The record beside the file (`site.db-wal-owner`) names the stamp its log was written for,
// so a `touch`, a `cp -p` or a clock changed after a crash leaves the log applied, and a
// restored or replaced file (another stamp: `verdict backup` gives each copy its own) has the
// log set aside. Timestamps play no part.
//
// Before SQLite opens `path`: when the log beside it was written for another file (or for
// this file before it was overwritten), renames the log (and drops its index, `-shm`) so
// SQLite opens the file as it is. Returns the sentence for the log; empty when nothing was
// done. Without a record (a database from an older verdict) the log is trusted, as SQLite
// would; a record written by an older verdict is judged as it judged it.
std::string set_aside_a_foreign_log(const std::string &path);

// The stamp in the header of the open database's own file (not its log), read through
// SQLite's descriptor: opening the file again would drop the process's locks on it.
uint32_t stamp_of_open_file(sql::Db &db);
// The stamp the file holds once its log is copied into it: the last one committed.
uint32_t committed_stamp(sql::Db &db);
// Commits a new stamp for the file's next state (random, never 0, never the one in the file)
// and returns it.
uint32_t commit_new_stamp(sql::Db &db);

// While held, no other process (or thread) checkpoints the site at `path` or judges its log:
// a flock(2) on the file's folder (separate from SQLite's own locks, which it leaves alone).
class CheckpointLock {
public:
  explicit CheckpointLock(const std::string &path);
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock &) = delete;
  CheckpointLock &operator=(const CheckpointLock &) = delete;

private:
  int fd_ = -1;
};

// The record the check above reads, written under a CheckpointLock, each synced to disk: the
// writer calls `note_checkpoint_starting` with the file's stamp and the one it has just
// committed (either may be in the file while the log is copied into it) and `note_settled`
// with the file's stamp after, so a crash in between never makes a log look foreign.
void note_checkpoint_starting(const std::string &path, uint32_t from, uint32_t to);
void note_settled(const std::string &path, uint32_t stamp);
// After the last connection closed: with no log left beside the file there is nothing to
// record, and the file stands alone again.
void forget_when_no_log(const std::string &path);

} // namespace verdict::database_file
