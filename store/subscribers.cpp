// Newsletter subscribers.
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

} // namespace verdict
