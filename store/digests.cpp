// The weekly digest: the comparisons a digest holds, who is still owed it, and the record of
// sends that makes a rerun skip whoever already got it.
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

std::vector<DigestItem> Store::digest_items(std::string_view today, int days) {
  const std::string until(today);
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the list and each pair's numbers from one moment
    auto stmt = db.cached("SELECT c.id, a.slug, b.slug, c.published_on, c.intro, c.bottom_line "
                          "FROM comparisons c JOIN tools a ON a.id = c.tool_a_id "
                          "JOIN tools b ON b.id = c.tool_b_id "
                          "WHERE c.published_on > date(:today, :back) "
                          "AND c.published_on <= :today "
                          "ORDER BY c.published_on DESC, c.id DESC");
    stmt.bind(":today", until).bind(":back", "-" + std::to_string(days) + " days");
    std::vector<DigestItem> items;
    while (stmt.step()) {
      DigestItem item;
      item.id = stmt.int64(0);
      auto &c = item.comparison;
      c.a.slug = stmt.text(1);
      c.b.slug = stmt.text(2);
      c.published = true;
      c.published_on = stmt.text(3);
      c.intro = stmt.text(4);
      c.bottom_line = stmt.text(5);
      items.push_back(std::move(item));
    }
    for (auto &item : items) { // the tools with their numbers, once the list is read
      item.comparison.a = queries::tool_by_slug(db, item.comparison.a.slug).value();
      item.comparison.b = queries::tool_by_slug(db, item.comparison.b.slug).value();
    }
    return items;
  });
}

std::vector<Subscriber> Store::digest_recipients(std::string_view digest) {
  const std::string identity(digest);
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT s.id, s.email, s.subscribed_at, s.status FROM subscribers s "
                          "WHERE s.status = 'confirmed' AND NOT EXISTS (SELECT 1 FROM "
                          "digest_sends d WHERE d.digest = :digest AND d.subscriber_id = s.id) "
                          "ORDER BY s.id");
    stmt.bind(":digest", identity);
    std::vector<Subscriber> owed;
    while (stmt.step())
      owed.push_back({stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3)});
    return owed;
  });
}

int64_t Store::digest_sends_interrupted(std::string_view digest) {
  const std::string identity(digest);
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT count(*) FROM digest_sends "
                          "WHERE digest = :digest AND state = 'sending'");
    stmt.bind(":digest", identity);
    stmt.step();
    return stmt.int64(0);
  });
}

bool Store::claim_digest_send(std::string_view digest, int64_t subscriber_id) {
  const std::string identity(digest);
  bool claimed = false;
  write([&](sql::Db &db) {
    // Still confirmed now (not unsubscribed since the list was read), and not claimed by
    // another run: the primary key lets only one claim stand.
    db.cached("INSERT INTO digest_sends (digest, subscriber_id, state) "
              "SELECT :digest, id, 'sending' FROM subscribers "
              "WHERE id = :id AND status = 'confirmed' "
              "ON CONFLICT (digest, subscriber_id) DO NOTHING")
        .bind(":digest", identity)
        .bind(":id", subscriber_id)
        .run();
    claimed = db.changes() > 0;
  });
  return claimed;
}

void Store::digest_sent(std::string_view digest, int64_t subscriber_id) {
  const std::string identity(digest);
  write([&](sql::Db &db) {
    db.cached("UPDATE digest_sends SET state = 'sent', at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') "
              "WHERE digest = :digest AND subscriber_id = :id")
        .bind(":digest", identity)
        .bind(":id", subscriber_id)
        .run();
  });
}

void Store::digest_send_failed(std::string_view digest, int64_t subscriber_id) {
  const std::string identity(digest);
  write([&](sql::Db &db) {
    db.cached("DELETE FROM digest_sends WHERE digest = :digest AND subscriber_id = :id "
              "AND state = 'sending'")
        .bind(":digest", identity)
        .bind(":id", subscriber_id)
        .run();
  });
}

} // namespace verdict
