#include "app/backup_command.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "store/maintenance.h"

namespace verdict {

namespace {

namespace fs = std::filesystem;

// Copies are named by the moment they were made, so their names sort as their ages do.
constexpr std::string_view kCopyPrefix = "verdict-";
constexpr std::string_view kCopySuffix = ".db";

std::string copy_name(std::time_t now) {
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  return std::string(kCopyPrefix) + stamp + std::string(kCopySuffix);
}

bool is_copy(const fs::path &path) {
  const auto name = path.filename().string();
  return name.size() == kCopyPrefix.size() + 15 + kCopySuffix.size() &&
         name.starts_with(kCopyPrefix) && name.ends_with(kCopySuffix);
}

} // namespace

std::vector<int64_t> copies_made_at(const std::string &folder) {
  std::vector<int64_t> made;
  std::error_code unreadable;
  for (const auto &entry : fs::directory_iterator(folder, unreadable)) {
    if (!entry.is_regular_file() || !is_copy(entry.path())) continue;
    const auto stamp = entry.path().filename().string().substr(kCopyPrefix.size(), 15);
    std::tm utc{};
    const char *end = strptime(stamp.c_str(), "%Y%m%d-%H%M%S", &utc);
    if (end && *end == '\0') made.push_back(timegm(&utc));
  }
  return made;
}

int run_backup(const Options &options, std::ostream &said) {
  if (options.backup_folder.empty()) {
    backup_database(options.db, options.files[0]);
    said << "verdict: backed up " << options.db << " to " << options.files[0] << "\n";
    return 0;
  }
  const fs::path folder = options.backup_folder;
  fs::create_directories(folder);
  const auto out = (folder / copy_name(std::time(nullptr))).string();
  backup_database(options.db, out);
  // A copy is only worth keeping if it opens as a site: one that does not is not kept, and
  // the older copies stay.
  if (const auto problems = check_database(out); !problems.empty()) {
    fs::remove(out);
    for (const auto &problem : problems)
      said << "verdict backup: " << problem << "\n";
    said << "verdict: the copy failed its check and was removed; older copies are kept\n";
    return 1;
  }
  said << "verdict: backed up " << options.db << " to " << out << "\n";
  std::vector<fs::path> copies;
  for (const auto &entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && is_copy(entry.path())) copies.push_back(entry.path());
  std::sort(copies.begin(), copies.end(), std::greater<>()); // newest first
  for (size_t i = static_cast<size_t>(options.backups_kept); i < copies.size(); ++i) {
    fs::remove(copies[i]);
    said << "verdict: removed the older copy " << copies[i].string() << "\n";
  }
  return 0;
}

} // namespace verdict
