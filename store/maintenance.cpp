#include "store/maintenance.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "store/database_file.h"
#include "store/queries.h"
#include "store/sqlite.h"

namespace verdict {

namespace {

// Sets aside a log written for another file (store/database_file.h) where it can, saying so.
void set_aside_a_foreign_log_said(const std::string &db_path) {
  if (!database_file::why_read_only(db_path).empty()) return; // nothing may be renamed there
  if (const auto said = database_file::set_aside_a_foreign_log(db_path); !said.empty())
    std::cerr << "verdict: " << said << "\n";
}

} // namespace

void copy_database(sql::Db &db, const std::string &out_path) {
  // Made under another name and stamped before it takes its own: a copy stopped half-way is
  // never found at `out_path` bearing the site's stamp.
  const auto partial = out_path + ".partial-" + std::to_string(::getpid());
  std::filesystem::remove(partial);
  try {
    // Made empty and its owner's alone before anything is written into it: a copy holds the
    // editors' password hashes and the vote log's signing key (VACUUM INTO takes an empty file).
    const int made = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (made < 0) throw std::runtime_error("cannot make " + partial);
    ::close(made);
    auto stmt = db.prepare("VACUUM INTO :out");
    stmt.bind(":out", partial).run();
    // A stamp of its own (store/database_file.h): restored over the site's file later, a log
    // the site wrote meanwhile is never taken for this copy's.
    {
      sql::Db copy(partial, sql::Db::Open::existing);
      database_file::commit_new_stamp(copy);
    }
    std::filesystem::rename(partial, out_path);
  } catch (...) {
    std::filesystem::remove(partial);
    throw;
  }
}

void backup_database(const std::string &db_path, const std::string &out_path) {
  struct stat info {};
  if (stat(db_path.c_str(), &info) != 0) throw std::runtime_error("no database at " + db_path);
  if (stat(out_path.c_str(), &info) == 0)
    throw std::runtime_error(out_path + " already exists; choose a new file name");
  // A log left beside a file restored over the site's is not this file's: read without it.
  set_aside_a_foreign_log_said(db_path);
  sql::Db db(db_path, sql::Db::Open::read_only);
  copy_database(db, out_path);
  // Run by root for a site's user (a timer, or by hand): the copy is owned as the site is.
  struct stat site {};
  if (::geteuid() == 0 && stat(db_path.c_str(), &site) == 0 &&
      ::chown(out_path.c_str(), site.st_uid, site.st_gid) != 0)
    throw std::runtime_error("cannot give " + out_path + " to the database's owner");
}

std::vector<std::string> check_database(const std::string &db_path) {
  struct stat info {};
  if (stat(db_path.c_str(), &info) != 0) return {"no database at " + db_path};
  try {
    database_file::refuse_what_is_not_a_database(db_path);
  } catch (const std::exception &e) {
    return {e.what()};
  }
  set_aside_a_foreign_log_said(db_path);
  sql::Db db(db_path, sql::Db::Open::read_only);
  std::vector<std::string> problems;
  // A sound SQLite file is not yet a site: it must hold Verdict's schema.
  auto version = db.prepare("PRAGMA user_version");
  version.step();
  auto tables = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                           "('tools', 'comparisons', 'tool_votes', 'pair_votes')");
  tables.step();
  if (version.int64(0) == 0 || tables.int64(0) != 4)
    return {db_path + " is an SQLite database but not a Verdict database (it does not hold "
                      "Verdict's tables)"};
  auto integrity = db.prepare("PRAGMA integrity_check");
  while (integrity.step())
    if (integrity.text(0) != "ok") problems.push_back(integrity.text(0));
  auto keys = db.prepare("PRAGMA foreign_key_check");
  while (keys.step())
    problems.push_back("foreign key fault in " + keys.text(0) + " row " + keys.text(1));
  return problems;
}

SiteVitals read_site_vitals(const std::string &db_path) {
  sql::Db db(db_path, sql::Db::Open::read_only);
  SiteVitals vitals;
  if (const auto newest = queries::latest_checkpoints(db, 1); !newest.empty()) {
    vitals.checkpoint_made_at = newest.front().made_at;
    vitals.checkpoint_size = newest.front().size;
  }
  vitals.log_size = queries::vote_log_size(db);
  vitals.subscribers = queries::subscriber_counts(db);
  return vitals;
}

} // namespace verdict
