#include "store/database_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "store/sqlite.h"

namespace verdict::database_file {

namespace {

std::string owner_path(const std::string &path) {
  return path + "-wal-owner";
}

// Writes `text` to `path` whole and synced, through a new file renamed over the old, so a
// reader finds the old record or the new one, never a mix.
void write_synced(const std::string &path, const std::string &text) {
  const auto temporary = path + ".new";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + temporary);
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!written || !synced || std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot write " + path);
}

bool is_memory_or_uri(const std::string &path) {
  return path == ":memory:" || path.rfind("file:", 0) == 0;
}

// The record: the file's id and the range of copy counts the log was written on ("from" the
// count settled, "to" the count a copy in progress will leave).
struct Record {
  std::string file_id;
  int64_t from = 0, to = 0;
};

constexpr const char *kRecordHeading = "verdict-wal-owner 2";

std::optional<Record> read_record(const std::string &path) {
  std::ifstream in(owner_path(path));
  std::string heading;
  Record record;
  std::string state;
  // A record of an older verdict (the file's inode and timestamps) is no proof: none.
  if (!std::getline(in, heading) || heading != kRecordHeading ||
      !(in >> record.file_id >> record.from >> record.to >> state))
    return std::nullopt;
  return record;
}

void write_record(const std::string &path, const InsideIdentity &file, int64_t to,
                  const char *state) {
  std::ostringstream text;
  text << kRecordHeading << '\n'
       << file.file_id << ' ' << file.checkpoints << ' ' << to << ' ' << state << '\n';
  write_synced(owner_path(path), text.str());
}

// `path` as an SQLite URI that reads the file's own bytes, its log not applied.
std::string immutable_uri(const std::string &path) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[static_cast<unsigned char>(c) & 15];
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

} // namespace

std::optional<Identity> identity_of(const std::string &path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return Identity{info.st_dev, info.st_ino, static_cast<int64_t>(info.st_size),
                  static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec};
}

void refuse_what_is_not_a_database(const std::string &path) {
  if (is_memory_or_uri(path)) return;
  const auto file = identity_of(path);
  if (!file) return;
  if (file->size == 0)
    throw std::runtime_error(path + " is empty (0 bytes), not a Verdict database: restore a backup "
                                    "to it, or remove it to start a new site");
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  if (!in || std::string(magic, sizeof magic) != std::string("SQLite format 3\0", 16))
    throw std::runtime_error(path + " is not an SQLite database, so not a Verdict database");
}

std::optional<InsideIdentity> identity_inside(const std::string &path) {
  if (is_memory_or_uri(path) || !identity_of(path)) return std::nullopt;
  try {
    sql::Db db(immutable_uri(path), sql::Db::Open::read_only);
    auto stmt = db.prepare("SELECT file_id, checkpoints FROM file_identity WHERE id = 1");
    if (!stmt.step()) return std::nullopt;
    return InsideIdentity{stmt.text(0), stmt.int64(1)};
  } catch (const sql::Error &) {
    return std::nullopt; // no such table yet: a file from before the identity, or a new one
  }
}

std::string set_aside_a_foreign_log(const std::string &path) {
  if (is_memory_or_uri(path)) return {};
  const auto log = path + "-wal";
  const auto log_file = identity_of(log);
  if (!log_file || log_file->size == 0 || !identity_of(path)) return {};
  const auto record = read_record(path);
  if (!record) return {};
  const auto file = identity_inside(path);
  const bool foreign = !file || file->file_id != record->file_id ||
                       file->checkpoints < record->from || file->checkpoints > record->to;
  if (!foreign) return {};
  const auto aside = log + ".set-aside-" + std::to_string(std::time(nullptr));
  if (std::rename(log.c_str(), aside.c_str()) != 0)
    throw std::runtime_error(log + " was written for another file than " + path +
                             " and cannot be set aside; move it away before starting");
  std::remove((path + "-shm").c_str());
  // The file alone now: the log it will write starts from its own count.
  if (const auto alone = identity_inside(path))
    write_record(path, *alone, alone->checkpoints, "settled");
  return log + " was written for another file than " + path +
         " (the file was replaced or restored since): set aside as " + aside + ", and " + path +
         " opened as it is";
}

void note_checkpoint_starting(const std::string &path, int64_t checkpoints_in_log) {
  if (is_memory_or_uri(path)) return;
  if (const auto file = identity_inside(path))
    write_record(path, *file, checkpoints_in_log, "checkpointing");
  else
    std::remove(owner_path(path).c_str()); // nothing in the file yet to tell it by
}

void note_settled(const std::string &path, int64_t checkpoints_in_log) {
  if (is_memory_or_uri(path)) return;
  if (const auto file = identity_inside(path))
    write_record(path, *file, checkpoints_in_log, "settled");
  else
    std::remove(owner_path(path).c_str());
}

void forget_when_no_log(const std::string &path) {
  if (is_memory_or_uri(path) || identity_of(path + "-wal")) return;
  std::remove(owner_path(path).c_str());
}

} // namespace verdict::database_file
