// Newsletter subscribers.
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

void Store::add_subscriber(std::string_view email) {
  std::string address(email);
  write([=](sql::Db &db) {
    auto stmt = db.cached("INSERT INTO subscribers (email) VALUES (:email) "
                          "ON CONFLICT (email) DO NOTHING");
    stmt.bind(":email", address).run();
  });
}

int64_t Store::subscriber_count() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("SELECT count(*) FROM subscribers");
    stmt.step();
    return stmt.int64(0);
  });
}

std::vector<std::string> Store::subscriber_emails() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("SELECT email /* every row: the whole list */ FROM subscribers "
                          "ORDER BY id");
    std::vector<std::string> emails;
    while (stmt.step())
      emails.push_back(stmt.text(0));
    return emails;
  });
}

Paged<Subscriber> Store::subscribers(PageSpan span) {
  return read([&](sql::Db &db) {
    std::vector<Subscriber> rows;
    auto stmt = db.cached("SELECT id, email, subscribed_at /* every row: newest first, up to "
                          "the desk's page */ FROM subscribers ORDER BY id DESC "
                          "LIMIT :limit OFFSET :offset");
    stmt.bind(":limit", int64_t{span.size} + 1).bind(":offset", span.offset());
    while (stmt.step())
      rows.push_back({stmt.int64(0), stmt.text(1), stmt.text(2)});
    return queries::paged(std::move(rows), span);
  });
}

std::vector<Subscriber> Store::all_subscribers() {
  return read([](sql::Db &db) {
    std::vector<Subscriber> all;
    auto stmt = db.cached("SELECT id, email, subscribed_at /* every row: the export */ "
                          "FROM subscribers ORDER BY id");
    while (stmt.step())
      all.push_back({stmt.int64(0), stmt.text(1), stmt.text(2)});
    return all;
  });
}

std::optional<Subscriber> Store::subscriber(int64_t id) {
  return read([&](sql::Db &db) -> std::optional<Subscriber> {
    auto stmt = db.cached("SELECT id, email, subscribed_at FROM subscribers WHERE id = :id");
    stmt.bind(":id", id);
    if (!stmt.step()) return std::nullopt;
    return Subscriber{stmt.int64(0), stmt.text(1), stmt.text(2)};
  });
}

bool Store::erase_subscriber(int64_t id, std::string_view editor) {
  bool erased = false;
  write([&](sql::Db &db) {
    auto stmt = db.cached("DELETE FROM subscribers WHERE id = :id");
    stmt.bind(":id", id).run();
    erased = db.changes() > 0;
    // Erasure: the log says that one address went, never which.
    if (erased)
      queries::log_edit(db, {0, "", std::string(editor), "deleted", "subscriber",
                             "#" + std::to_string(id), "", ""});
  });
  return erased;
}

} // namespace verdict
