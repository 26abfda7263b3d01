// The edit log: what each editor changed at the desk, when, and the item before and after.
// Every change is logged inside the write that makes it (queries::log_change), so the log
// never tells of a change that did not happen nor misses one that did.
#include "domain/dates.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

void queries::log_edit(sql::Db &db, const WriteContext &at, const EditEntry &entry) {
  auto stmt = db.cached("INSERT INTO edit_log (at, editor, action, kind, subject, before, after) "
                        "VALUES (:at, :editor, :action, :kind, :subject, :before, :after)");
  stmt.bind(":at", rfc3339_utc(at.seconds()))
      .bind(":editor", entry.editor)
      .bind(":action", entry.action)
      .bind(":kind", entry.kind);
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

Paged<EditEntry> StoreReads::edit_log(PageSpan span, std::string_view words) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT id, at, editor, action, kind, subject, ifnull(before, ''), "
                          "ifnull(after, '') FROM edit_log "
                          "WHERE :words = '%%' OR editor LIKE :words ESCAPE '\\' "
                          "OR action LIKE :words ESCAPE '\\' OR kind LIKE :words ESCAPE '\\' "
                          "OR subject LIKE :words ESCAPE '\\' "
                          "OR ifnull(before, '') LIKE :words ESCAPE '\\' "
                          "OR ifnull(after, '') LIKE :words ESCAPE '\\' "
                          "ORDER BY id DESC LIMIT :limit OFFSET :offset");
    stmt.bind(":words", queries::holding(words));
    return queries::paged(stmt, span, [](const sql::Stmt &row) {
      return EditEntry{row.int64(0), row.text(1), row.text(2), row.text(3),
                       row.text(4),  row.text(5), row.text(6), row.text(7)};
    });
  });
}

} // namespace verdict
