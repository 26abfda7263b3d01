// Editors and their sessions: who may sign in at the desk, and the browsers signed in.
#include <algorithm>
#include <cctype>

#include "domain/text.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

Editor editor_from(sql::Stmt &stmt) {
  return {stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3)};
}

} // namespace

void Store::add_editor(std::string_view email, std::string_view password_hash) {
  const auto address = ascii_lowercase(email);
  const std::string hash(password_hash);
  write([&](sql::Db &db) {
    auto taken = db.cached("SELECT 1 FROM editors WHERE email = :email");
    taken.bind(":email", address);
    if (taken.step()) throw AlreadyExists("an editor with address " + address + " exists");
    auto stmt = db.cached("INSERT INTO editors (email, password_hash) VALUES (:email, :hash)");
    stmt.bind(":email", address).bind(":hash", hash).run();
  });
}

std::vector<Editor> Store::editors() {
  return read([](sql::Db &db) {
    std::vector<Editor> all;
    auto stmt = db.cached("SELECT id, email, password_hash, created_at "
                          "/* every row: a handful of editors */ FROM editors ORDER BY id");
    while (stmt.step())
      all.push_back(editor_from(stmt));
    return all;
  });
}

std::optional<Editor> Store::editor_by_email(std::string_view email) {
  const auto address = ascii_lowercase(email);
  return read([&](sql::Db &db) -> std::optional<Editor> {
    auto stmt =
        db.cached("SELECT id, email, password_hash, created_at FROM editors WHERE email = :email");
    stmt.bind(":email", address);
    if (!stmt.step()) return std::nullopt;
    return editor_from(stmt);
  });
}

bool Store::remove_editor(std::string_view email) {
  const auto address = ascii_lowercase(email);
  bool removed = false;
  write([&](sql::Db &db) {
    auto stmt = db.cached("DELETE FROM editors WHERE email = :email"); // sessions cascade
    stmt.bind(":email", address).run();
    removed = db.changes() > 0;
  });
  return removed;
}

bool Store::set_editor_password(std::string_view email, std::string_view password_hash) {
  const auto address = ascii_lowercase(email);
  const std::string hash(password_hash);
  bool changed = false;
  write([&](sql::Db &db) {
    auto stmt = db.cached("UPDATE editors SET password_hash = :hash WHERE email = :email");
    stmt.bind(":hash", hash).bind(":email", address).run();
    changed = db.changes() > 0;
    // A new password signs every browser out: whoever knew the old one is out too.
    auto sessions = db.cached("DELETE FROM sessions WHERE editor_id = "
                              "(SELECT id FROM editors WHERE email = :email)");
    sessions.bind(":email", address).run();
  });
  return changed;
}

void Store::start_session(std::string_view secret_hash, int64_t editor_id,
                          std::string_view csrf_token, int64_t expires_at) {
  const std::string hash(secret_hash), csrf(csrf_token);
  write([&](sql::Db &db) {
    auto expired = db.cached("DELETE FROM sessions WHERE editor_id = :editor AND "
                             "expires_at <= strftime('%s', 'now')");
    expired.bind(":editor", editor_id).run();
    auto stmt = db.cached("INSERT INTO sessions (secret_hash, editor_id, csrf_token, expires_at) "
                          "VALUES (:hash, :editor, :csrf, :expires)");
    stmt.bind(":hash", hash).bind(":editor", editor_id).bind(":csrf", csrf);
    stmt.bind(":expires", expires_at).run();
  });
}

std::optional<EditorSession> Store::session(std::string_view secret_hash, int64_t now) {
  return read([&](sql::Db &db) -> std::optional<EditorSession> {
    auto stmt = db.cached("SELECT s.editor_id, e.email, s.csrf_token, s.expires_at "
                          "FROM sessions s JOIN editors e ON e.id = s.editor_id "
                          "WHERE s.secret_hash = :hash AND s.expires_at > :now");
    stmt.bind(":hash", secret_hash).bind(":now", now);
    if (!stmt.step()) return std::nullopt;
    return EditorSession{stmt.int64(0), stmt.text(1), stmt.text(2), stmt.int64(3)};
  });
}

void Store::end_session(std::string_view secret_hash) {
  const std::string hash(secret_hash);
  write([&](sql::Db &db) {
    auto stmt = db.cached("DELETE FROM sessions WHERE secret_hash = :hash");
    stmt.bind(":hash", hash).run();
  });
}

} // namespace verdict
