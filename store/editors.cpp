// Editors and their sessions: who may sign in at the desk, and the browsers signed in.
#include <algorithm>
#include <cctype>

#include "domain/dates.h"
#include "domain/text.h"
#include "store/aggregate_writes.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

Editor editor_from(sql::Stmt &stmt) {
  return {stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3)};
}

} // namespace

std::vector<Editor> StoreReads::editors() {
  return read([](sql::Db &db) {
    std::vector<Editor> all;
    auto stmt = db.cached("SELECT id, email, password_hash, created_at "
                          "/* every row: a handful of editors */ FROM editors ORDER BY id");
    while (stmt.step())
      all.push_back(editor_from(stmt));
    return all;
  });
}

std::optional<Editor> StoreReads::editor_by_email(std::string_view email) {
  const auto address = ascii_lowercase(email);
  return read([&](sql::Db &db) -> std::optional<Editor> {
    auto stmt =
        db.cached("SELECT id, email, password_hash, created_at FROM editors WHERE email = :email");
    stmt.bind(":email", address);
    if (!stmt.step()) return std::nullopt;
    return editor_from(stmt);
  });
}

std::optional<EditorSession> StoreReads::session(std::string_view secret_hash, int64_t now) {
  return read([&](sql::Db &db) -> std::optional<EditorSession> {
    auto stmt = db.cached("SELECT s.editor_id, e.email, s.csrf_token, s.expires_at "
                          "FROM sessions s JOIN editors e ON e.id = s.editor_id "
                          "WHERE s.secret_hash = :hash AND s.expires_at > :now");
    stmt.bind(":hash", secret_hash).bind(":now", now);
    if (!stmt.step()) return std::nullopt;
    return EditorSession{stmt.int64(0), stmt.text(1), stmt.text(2), stmt.int64(3)};
  });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const AddEditor &write) {
  const auto address = ascii_lowercase(write.email);
  auto taken = db.cached("SELECT 1 FROM editors WHERE email = :email");
  taken.bind(":email", address);
  if (taken.step())
    return WriteResult::already_exists("an editor with address " + address + " exists");
  auto stmt = db.cached("INSERT INTO editors (email, password_hash, created_at) "
                        "VALUES (:email, :hash, :at)");
  stmt.bind(":email", address).bind(":hash", write.password_hash);
  stmt.bind(":at", rfc3339_utc(at.seconds())).run();
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const RemoveEditor &write) {
  auto stmt = db.cached("DELETE FROM editors WHERE email = :email"); // sessions cascade
  stmt.bind(":email", ascii_lowercase(write.email)).run();
  if (db.changes() == 0) return WriteResult::not_found(write.email + " is not an editor");
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const SetEditorPassword &write) {
  const auto address = ascii_lowercase(write.email);
  auto stmt = db.cached("UPDATE editors SET password_hash = :hash WHERE email = :email");
  stmt.bind(":hash", write.password_hash).bind(":email", address).run();
  if (db.changes() == 0) return WriteResult::not_found(write.email + " is not an editor");
  // A new password signs every browser out: whoever knew the old one is out too.
  auto sessions = db.cached("DELETE FROM sessions WHERE editor_id = "
                            "(SELECT id FROM editors WHERE email = :email)");
  sessions.bind(":email", address).run();
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const StartSession &write) {
  auto expired = db.cached("DELETE FROM sessions WHERE editor_id = :editor AND "
                           "expires_at <= :now");
  expired.bind(":editor", write.editor_id).bind(":now", at.seconds()).run();
  auto stmt = db.cached("INSERT INTO sessions (secret_hash, editor_id, csrf_token, expires_at) "
                        "VALUES (:hash, :editor, :csrf, :expires)");
  stmt.bind(":hash", write.secret_hash).bind(":editor", write.editor_id);
  stmt.bind(":csrf", write.csrf_token).bind(":expires", write.expires_at).run();
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const EndSession &write) {
  auto stmt = db.cached("DELETE FROM sessions WHERE secret_hash = :hash");
  stmt.bind(":hash", write.secret_hash).run();
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
