#include "store/database_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace verdict::database_file {

namespace {

std::string owner_path(const std::string &path) {
  return path + "-wal-owner";
}

// Writes `text` to `path` whole and synced, through a new file renamed over the old, so a
// reader finds the old record or the new one, never a mix.
void write_synced(const std::string &path, const std::string &text) {
  // Named for this process: a second process on the same site (verify, backup) writing the
  // record at the same moment must not share one temporary file with the server.
  const auto temporary = path + ".new-" + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + temporary);
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!written || !synced || std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot write " + path);
}

struct Record {
  Identity file;
  bool checkpointing = false;
};

std::optional<Record> read_record(const std::string &path) {
  std::ifstream in(owner_path(path));
  std::string state;
  Record record;
  unsigned long long device = 0, inode = 0;
  if (!(in >> device >> inode >> record.file.size >> record.file.modified_ns >> state))
    return std::nullopt;
  record.file.device = static_cast<dev_t>(device);
  record.file.inode = static_cast<ino_t>(inode);
  record.checkpointing = state == "checkpointing";
  return record;
}

void write_record(const std::string &path, const char *state) {
  const auto file = identity_of(path);
  if (!file) return; // gone: the watcher says so; there is nothing to record
  std::ostringstream text;
  text << static_cast<unsigned long long>(file->device) << ' '
       << static_cast<unsigned long long>(file->inode) << ' ' << file->size << ' '
       << file->modified_ns << ' ' << state << '\n';
  write_synced(owner_path(path), text.str());
}

bool is_memory_or_uri(const std::string &path) {
  return path == ":memory:" || path.rfind("file:", 0) == 0;
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

std::string set_aside_a_foreign_log(const std::string &path) {
  if (is_memory_or_uri(path)) return {};
  const auto log = path + "-wal";
  const auto log_file = identity_of(log);
  const auto file = identity_of(path);
  if (!log_file || log_file->size == 0 || !file) return {};
  const auto record = read_record(path);
  if (!record) return {};
  const bool foreign =
      !record->file.same_file(*file) || (!record->checkpointing && !(record->file == *file));
  if (!foreign) return {};
  const auto aside = log + ".set-aside-" + std::to_string(std::time(nullptr));
  if (std::rename(log.c_str(), aside.c_str()) != 0)
    throw std::runtime_error(log + " was written for another file than " + path +
                             " and cannot be set aside; move it away before starting");
  std::remove((path + "-shm").c_str());
  write_record(path, "settled");
  return log + " was written for another file than " + path +
         " (the file was replaced or restored since): set aside as " + aside + ", and " + path +
         " opened as it is";
}

void note_checkpoint_starting(const std::string &path) {
  if (!is_memory_or_uri(path)) write_record(path, "checkpointing");
}

void note_settled(const std::string &path) {
  if (!is_memory_or_uri(path)) write_record(path, "settled");
}

void forget_when_no_log(const std::string &path) {
  if (is_memory_or_uri(path) || identity_of(path + "-wal")) return;
  std::remove(owner_path(path).c_str());
}

namespace {

// The folder a database's path names it in ("." for a bare name).
std::string folder_of(const std::string &path) {
  const std::filesystem::path file(path);
  return file.has_parent_path() ? file.parent_path().string() : std::string(".");
}

} // namespace

std::string why_read_only(const std::string &path) {
  if (is_memory_or_uri(path) || !std::filesystem::exists(path)) return {};
  const auto folder = folder_of(path);
  struct statvfs mounted {};
  if (::statvfs(folder.c_str(), &mounted) == 0 && (mounted.f_flag & ST_RDONLY))
    return "the file system holding " + path + " is mounted read-only";
  if (::access(path.c_str(), W_OK) != 0)
    return path + " cannot be written by this user (uid " + std::to_string(::getuid()) + ")";
  if (::access(folder.c_str(), W_OK) != 0)
    return "the folder " + folder + " cannot be written by this user (uid " +
           std::to_string(::getuid()) + "), and SQLite keeps the database's log beside it";
  return {};
}

std::vector<std::string> leftovers_of_a_site(const std::string &path) {
  std::vector<std::string> found;
  for (const auto *suffix : {"-wal", "-shm", "-wal-owner", "-journal"})
    if (std::filesystem::exists(path + suffix)) found.push_back(path + suffix);
  const auto served_prefix = std::filesystem::path(path).filename().string() + ".served-";
  std::error_code error;
  for (const auto &entry : std::filesystem::directory_iterator(folder_of(path), error))
    if (entry.path().filename().string().starts_with(served_prefix))
      found.push_back(entry.path().string());
  return found;
}

} // namespace verdict::database_file
