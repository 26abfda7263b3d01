// The weekly digest: which digest a run sends, who is still owed it, and the record of sends
// that makes a rerun skip whoever already got it.
//
// A digest is recorded when a run first makes it: the comparisons it holds and the confirmed
// subscribers owed it, both frozen then. The rule a run follows:
//   1. The latest digest, while a confirmed subscriber is still owed it, is resumed exactly as
//      it was made: the same comparisons for those still owed it, whatever was published (or
//      whatever day it became) since. So a run that failed midway and its rerun make one
//      digest, and nobody who got it gets it again.
//   2. Only when nobody confirmed is owed the latest one is a new digest made, of the
//      comparisons in the --since window that no digest held yet (digest_items' UNIQUE
//      comparison_id), owed to everyone confirmed then. So nobody gets the same comparison
//      in two digests, and one run sends one digest.
// An address that confirms after a digest was made gets the next one, not that one.
#include <algorithm>

#include "domain/dates.h"
#include "domain/subscription.h"
#include "store/aggregate_writes.h"
#include "store/apply_write.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// The latest digest while a confirmed subscriber is still owed it and something in it is still
// published (one whose comparisons were all withdrawn has nothing left to send): its id and
// the days it was made for.
std::optional<std::pair<int64_t, int>> digest_to_resume(sql::Db &db, const std::string &today) {
  auto stmt = db.cached(
      "SELECT d.id, d.days FROM digests d WHERE d.id = (SELECT max(id) FROM digests) "
      "AND EXISTS (SELECT 1 FROM digest_sends s JOIN subscribers u ON u.id = s.subscriber_id "
      "WHERE s.digest_id = d.id AND s.state = 'owed' AND u.status = 'confirmed') "
      "AND EXISTS (SELECT 1 FROM digest_items i JOIN comparisons c ON c.id = i.comparison_id "
      "WHERE i.digest_id = d.id AND c.published_on IS NOT NULL AND c.published_on <= :today)");
  stmt.bind(":today", today);
  if (!stmt.step()) return std::nullopt;
  return std::pair{stmt.int64(0), static_cast<int>(stmt.int64(1))};
}

// Comparisons published in the `days` days up to `today` that no digest held yet.
std::vector<int64_t> unsent_in_window(sql::Db &db, const std::string &today, int days) {
  auto stmt =
      db.cached("SELECT c.id FROM comparisons c "
                "WHERE c.published_on > date(:today, :back) AND c.published_on <= :today "
                "AND NOT EXISTS (SELECT 1 FROM digest_items i WHERE i.comparison_id = c.id)");
  stmt.bind(":today", today).bind(":back", "-" + std::to_string(days) + " days");
  std::vector<int64_t> ids;
  while (stmt.step())
    ids.push_back(stmt.int64(0));
  return ids;
}

std::vector<int64_t> comparisons_of_digest(sql::Db &db, int64_t digest_id) {
  auto stmt = db.cached("SELECT comparison_id FROM digest_items WHERE digest_id = :digest");
  stmt.bind(":digest", digest_id);
  std::vector<int64_t> ids;
  while (stmt.step())
    ids.push_back(stmt.int64(0));
  return ids;
}

// The comparisons with these ids that are still published, with both tools' numbers, newest
// first.
std::vector<DigestItem> digest_items(sql::Db &db, const std::vector<int64_t> &ids) {
  std::vector<DigestItem> items;
  for (const auto id : ids) {
    auto stmt = db.cached("SELECT a.slug, b.slug, c.published_on, c.intro, c.bottom_line "
                          "FROM comparisons c JOIN tools a ON a.id = c.tool_a_id "
                          "JOIN tools b ON b.id = c.tool_b_id "
                          "WHERE c.id = :id AND " PUBLISHED_BY_TODAY);
    stmt.bind(":id", id);
    if (!stmt.step()) continue;
    DigestItem item;
    item.id = id;
    auto &c = item.comparison;
    c.a.slug = stmt.text(0);
    c.b.slug = stmt.text(1);
    c.published = true;
    c.published_on = stmt.text(2);
    c.intro = stmt.text(3);
    c.bottom_line = stmt.text(4);
    items.push_back(std::move(item));
  }
  for (auto &item : items) { // the tools with their numbers, once the list is read
    item.comparison.a = queries::tool_by_slug(db, item.comparison.a.slug).value();
    item.comparison.b = queries::tool_by_slug(db, item.comparison.b.slug).value();
    item.comparison.picks = queries::pair_tally(db, item.comparison.a.id, item.comparison.b.id);
  }
  std::sort(items.begin(), items.end(), [](const DigestItem &x, const DigestItem &y) {
    const auto &a = x.comparison.published_on, &b = y.comparison.published_on;
    return a != b ? a > b : x.id > y.id;
  });
  return items;
}

std::vector<Subscriber> subscribers_from(sql::Stmt &stmt) {
  std::vector<Subscriber> all;
  while (stmt.step())
    all.push_back({stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3), ""});
  return all;
}

} // namespace

Digest Store::digest_to_send(std::string_view today, int days) {
  const std::string until(today);
  Digest digest;
  digest.days = days;
  return read([&](sql::Db &db) {
    sql::ReadSnapshot snapshot(db); // the list, its numbers and its recipients from one moment
    if (const auto latest = digest_to_resume(db, until)) {
      digest.id = latest->first;
      digest.days = latest->second;
      digest.resumed = true;
    }
    if (digest.id == 0) {
      // Not recorded: a dry run's look at a new digest, or nothing to record.
      digest.items = digest_items(db, unsent_in_window(db, until, days));
      auto stmt = db.cached("SELECT id, email, subscribed_at, status FROM subscribers "
                            "WHERE status = 'confirmed' ORDER BY id");
      digest.recipients = subscribers_from(stmt);
      return digest;
    }
    digest.items = digest_items(db, comparisons_of_digest(db, digest.id));
    auto owed = db.cached("SELECT u.id, u.email, u.subscribed_at, u.status FROM digest_sends s "
                          "JOIN subscribers u ON u.id = s.subscriber_id "
                          "WHERE s.digest_id = :digest AND s.state = 'owed' "
                          "AND u.status = 'confirmed' ORDER BY s.subscriber_id");
    owed.bind(":digest", digest.id);
    digest.recipients = subscribers_from(owed);
    auto interrupted = db.cached("SELECT count(*) FROM digest_sends "
                                 "WHERE digest_id = :digest AND state = 'sending'");
    interrupted.bind(":digest", digest.id);
    interrupted.step();
    digest.interrupted = interrupted.int64(0);
    return digest;
  });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const RecordDigest &write) {
  if (const auto latest = digest_to_resume(db, write.today))
    return WriteResult::written(RecordedDigest{latest->first, latest->second, true});
  const auto ids = unsent_in_window(db, write.today, write.days);
  if (ids.empty() || !db.cached("SELECT 1 FROM subscribers WHERE status = 'confirmed'").step())
    return WriteResult::written(RecordedDigest{}); // nothing new, or nobody to send it to
  db.cached("INSERT INTO digests (days, created_at) VALUES (:days, :at)")
      .bind(":days", write.days)
      .bind(":at", rfc3339_utc(at.seconds()))
      .run();
  const auto digest = db.last_insert_rowid();
  for (const auto id : ids)
    db.cached("INSERT INTO digest_items (digest_id, comparison_id) VALUES (:digest, :id)")
        .bind(":digest", digest)
        .bind(":id", id)
        .run();
  db.cached("INSERT INTO digest_sends (digest_id, subscriber_id, at) "
            "SELECT :digest, id, :at FROM subscribers WHERE status = 'confirmed'")
      .bind(":digest", digest)
      .bind(":at", rfc3339_utc(at.seconds()))
      .run();
  return WriteResult::written(RecordedDigest{digest, write.days, false});
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const ClaimDigestSend &write) {
  // Still owed (not claimed by another run) and still confirmed (not unsubscribed since the
  // list was read): only then does the mail go out.
  db.cached("UPDATE digest_sends SET state = 'sending', at = :at "
            "WHERE digest_id = :digest AND subscriber_id = :id AND state = 'owed' "
            "AND EXISTS (SELECT 1 FROM subscribers WHERE id = :id AND status = 'confirmed')")
      .bind(":at", rfc3339_utc(at.seconds()))
      .bind(":digest", write.digest)
      .bind(":id", write.subscriber)
      .run();
  return WriteResult::written(db.changes() > 0);
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DigestSent &write) {
  db.cached("UPDATE digest_sends SET state = 'sent', at = :at "
            "WHERE digest_id = :digest AND subscriber_id = :id")
      .bind(":at", rfc3339_utc(at.seconds()))
      .bind(":digest", write.digest)
      .bind(":id", write.subscriber)
      .run();
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DigestSendFailed &write) {
  const int64_t counted = write.failure == SendFailure::unreached ? 0 : 1;
  const bool for_good = write.failure == SendFailure::refused_for_good;
  db.cached("UPDATE digest_sends SET attempts = attempts + :counted, last_error = :error, "
            "state = CASE WHEN :for_good OR attempts + :counted >= :most THEN 'failed' "
            "ELSE 'owed' END, at = :at "
            "WHERE digest_id = :digest AND subscriber_id = :id AND state IN ('owed', 'sending')")
      .bind(":counted", counted)
      .bind(":error", write.error)
      .bind(":for_good", int64_t{for_good})
      .bind(":most", kDigestSendAttempts)
      .bind(":at", rfc3339_utc(at.seconds()))
      .bind(":digest", write.digest)
      .bind(":id", write.subscriber)
      .run();
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
