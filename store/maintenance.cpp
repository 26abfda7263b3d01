#include "store/maintenance.h"

#include <sys/stat.h>

#include "store/sqlite.h"

namespace verdict {

void backup_database(const std::string &db_path, const std::string &out_path) {
  struct stat info {};
  if (stat(db_path.c_str(), &info) != 0) throw std::runtime_error("no database at " + db_path);
  if (stat(out_path.c_str(), &info) == 0)
    throw std::runtime_error(out_path + " already exists; choose a new file name");
  sql::Db db(db_path, true);
  auto stmt = db.prepare("VACUUM INTO :out");
  stmt.bind(":out", out_path).run();
}

std::vector<std::string> check_database(const std::string &db_path) {
  struct stat info {};
  if (stat(db_path.c_str(), &info) != 0) return {"no database at " + db_path};
  sql::Db db(db_path, true);
  std::vector<std::string> problems;
  auto integrity = db.prepare("PRAGMA integrity_check");
  while (integrity.step())
    if (integrity.text(0) != "ok") problems.push_back(integrity.text(0));
  auto keys = db.prepare("PRAGMA foreign_key_check");
  while (keys.step())
    problems.push_back("foreign key fault in " + keys.text(0) + " row " + keys.text(1));
  return problems;
}

} // namespace verdict
