// The edit log: what each editor changed at the desk, when, and the item before and after.
// Every change is logged inside the write that makes it (queries::log_change), so the log
// never tells of a change that did not happen nor misses one that did.
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

void queries::log_edit(sql::Db &db, const EditEntry &entry) {
  auto stmt = db.cached("INSERT INTO edit_log (editor, action, kind, subject, before, after) "
                        "VALUES (:editor, :action, :kind, :subject, :before, :after)");
  stmt.bind(":editor", entry.editor).bind(":action", entry.action).bind(":kind", entry.kind);
  stmt.bind(":subject", entry.subject);
  if (entry.before.empty())
    stmt.bind_null(":before");
  else
    stmt.bind(":before", entry.before);
  if (entry.after.empty())
    stmt.bind_null(":after");
  else
    stmt.bind(":after", entry.after);
  stmt.run();
}

Paged<EditEntry> Store::edit_log(PageSpan span) {
  return read([&](sql::Db &db) {
    std::vector<EditEntry> rows;
    auto stmt = db.cached("SELECT id, at, editor, action, kind, subject, ifnull(before, ''), "
                          "ifnull(after, '') FROM edit_log ORDER BY id DESC "
                          "LIMIT :limit OFFSET :offset");
    stmt.bind(":limit", int64_t{span.size} + 1).bind(":offset", span.offset());
    while (stmt.step())
      rows.push_back({stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.text(4),
                      stmt.text(5), stmt.text(6), stmt.text(7)});
    return queries::paged(std::move(rows), span);
  });
}

} // namespace verdict
