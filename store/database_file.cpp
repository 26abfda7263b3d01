#include "store/database_file.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "store/sqlite.h"

namespace verdict::database_file {

namespace {

// SQLite's application id: 4 bytes, big-endian, at this offset of the file's first page.
constexpr std::streamoff kStampOffset = 68;

uint32_t stamp_from(const unsigned char *bytes) {
  return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
         uint32_t{bytes[3]};
}

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

// What the record says. Written by this version: the stamps the file may hold for its log
// (one when settled, two while a checkpoint runs). Written by an older one: the file's
// identity by device, inode, size and time of change, which this version still judges.
struct Record {
  std::vector<uint32_t> stamps;
  std::optional<Identity> older_identity;
  bool checkpointing = false;
};

std::optional<Record> read_record(const std::string &path) {
  std::ifstream in(owner_path(path));
  std::string first;
  if (!(in >> first)) return std::nullopt;
  Record record;
  std::string state;
  if (first == "stamps") {
    // "stamps N… state": each N a stamp as written (decimal digits, 32 bits), else no record.
    for (std::string word; in >> word;) {
      if (!std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
        unsigned long long stamp = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), stamp);
        if (error != std::errc() || end != word.data() + word.size() || stamp > UINT32_MAX)
          return std::nullopt;
        record.stamps.push_back(static_cast<uint32_t>(stamp));
        continue;
      }
      state = word;
      break;
    }
    if (state.empty() || record.stamps.empty()) return std::nullopt;
  } else {
    // An older verdict's: "device inode size time state". Anything else is no record of a
    // verdict's, as good as none (the log trusted, as SQLite would), never a reason not to
    // start.
    Identity file;
    unsigned long long device = 0, inode = 0;
    const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), device);
    if (error != std::errc() || end != first.data() + first.size() ||
        !(in >> inode >> file.size >> file.modified_ns >> state))
      return std::nullopt;
    file.device = static_cast<dev_t>(device);
    file.inode = static_cast<ino_t>(inode);
    record.older_identity = file;
  }
  record.checkpointing = state == "checkpointing";
  return record;
}

void write_record(const std::string &path, std::vector<uint32_t> stamps, const char *state) {
  std::ostringstream text;
  text << "stamps";
  for (const auto stamp : stamps)
    text << ' ' << stamp;
  text << ' ' << state << '\n';
  write_synced(owner_path(path), text.str());
}

// The stamp in the header of the file at `path`, read before SQLite has it open; 0 when the
// header cannot be read.
uint32_t stamp_in_header(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char bytes[4] = {};
  in.seekg(kStampOffset);
  if (!in.read(reinterpret_cast<char *>(bytes), sizeof bytes)) return 0;
  return stamp_from(bytes);
}

// The folder a database's path names it in ("." for a bare name).
std::string folder_of(const std::string &path) {
  const std::filesystem::path file(path);
  return file.has_parent_path() ? file.parent_path().string() : std::string(".");
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
  const CheckpointLock lock(path); // no checkpoint elsewhere changes the file or the record now
  const auto log = path + "-wal";
  const auto log_file = identity_of(log);
  const auto file = identity_of(path);
  if (!log_file || log_file->size == 0 || !file) return {};
  const auto record = read_record(path);
  if (!record) return {};
  bool foreign = false;
  if (record->older_identity) {
    const auto &was = *record->older_identity;
    foreign = !was.same_file(*file) || (!record->checkpointing && !(was == *file));
  } else {
    const auto stamp = stamp_in_header(path);
    foreign =
        std::find(record->stamps.begin(), record->stamps.end(), stamp) == record->stamps.end();
  }
  if (!foreign) return {};
  const auto aside = log + ".set-aside-" + std::to_string(std::time(nullptr));
  if (std::rename(log.c_str(), aside.c_str()) != 0)
    throw std::runtime_error(log + " was written for another file than " + path +
                             " and cannot be set aside; move it away before starting");
  std::remove((path + "-shm").c_str());
  std::remove(owner_path(path).c_str()); // no log now: the next checkpoint records the file's
  return log + " was written for another file than " + path +
         " (the file was replaced or restored since): set aside as " + aside + ", and " + path +
         " opened as it is";
}

uint32_t stamp_of_open_file(sql::Db &db) {
  sqlite3_file *file = nullptr;
  unsigned char bytes[4] = {};
  if (sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK ||
      !file || !file->pMethods ||
      file->pMethods->xRead(file, bytes, sizeof bytes, kStampOffset) != SQLITE_OK)
    return 0; // a file shorter than its header: a new one, before its first checkpoint
  return stamp_from(bytes);
}

uint32_t committed_stamp(sql::Db &db) {
  auto stamp = db.prepare("PRAGMA application_id");
  stamp.step();
  return static_cast<uint32_t>(stamp.int64(0)); // kept as a signed 32-bit number
}

uint32_t commit_new_stamp(sql::Db &db) {
  // A per-thread resource: each thread's own generator, seeded once; it carries nothing
  // between callers.
  static thread_local std::mt19937 random{std::random_device{}()};
  const auto in_file = stamp_of_open_file(db);
  auto stamp = static_cast<uint32_t>(random());
  while (stamp == 0 || stamp == in_file)
    stamp = static_cast<uint32_t>(random());
  db.exec("PRAGMA application_id = " + std::to_string(static_cast<int32_t>(stamp)));
  return stamp;
}

CheckpointLock::CheckpointLock(const std::string &path)
    : fd_(::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_ >= 0) ::flock(fd_, LOCK_EX);
}

CheckpointLock::~CheckpointLock() {
  if (fd_ >= 0) ::close(fd_); // closing drops the flock
}

void note_checkpoint_starting(const std::string &path, uint32_t from, uint32_t to) {
  if (!is_memory_or_uri(path)) write_record(path, {from, to}, "checkpointing");
}

void note_settled(const std::string &path, uint32_t stamp) {
  if (!is_memory_or_uri(path)) write_record(path, {stamp}, "settled");
}

void forget_when_no_log(const std::string &path) {
  if (is_memory_or_uri(path) || identity_of(path + "-wal")) return;
  std::remove(owner_path(path).c_str());
}

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
