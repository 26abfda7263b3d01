// Newsletter subscribers: the list, its statuses (pending until confirmed, confirmed,
// unsubscribed), the confirmation mails owed to pending addresses, and the site's kept secrets.
#include "domain/dates.h"
#include "domain/subscription.h"
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

Subscriber subscriber_from_row(const sql::Stmt &row) {
  return {row.int64(0), row.text(1), row.text(2), row.text(3), ""};
}

// The confirmation mail owed to the subscriber, if any, is owed no more.
void drop_owed_mail(sql::Db &db, int64_t subscriber_id) {
  db.cached("DELETE FROM confirmation_outbox WHERE subscriber_id = :id")
      .bind(":id", subscriber_id)
      .run();
}

} // namespace

std::vector<ConfirmationDue> StoreReads::confirmations_due(int64_t now, int64_t limit) {
  return read([&](sql::Db &db) {
    auto stmt =
        db.cached("SELECT o.subscriber_id, s.email, o.attempts FROM confirmation_outbox o "
                  "JOIN subscribers s ON s.id = o.subscriber_id "
                  "WHERE o.next_attempt_at <= :now ORDER BY o.next_attempt_at LIMIT :limit");
    stmt.bind(":now", now).bind(":limit", limit);
    std::vector<ConfirmationDue> due;
    while (stmt.step())
      due.push_back({stmt.int64(0), stmt.text(1), stmt.int64(2)});
    return due;
  });
}

namespace {

ConfirmationCheck check_confirmation(sql::Db &db, const std::string &token_hash, int64_t now,
                                     int64_t *subscriber_id) {
  auto stmt = db.cached("SELECT id, status, confirm_expires_at FROM subscribers "
                        "WHERE confirm_hash = :hash");
  stmt.bind(":hash", token_hash);
  if (!stmt.step()) return ConfirmationCheck::unknown;
  if (subscriber_id) *subscriber_id = stmt.int64(0);
  const auto status = stmt.text(1);
  if (status == "confirmed") return ConfirmationCheck::used;
  if (status != "pending") return ConfirmationCheck::unknown;
  return stmt.is_null(2) || now > stmt.int64(2) ? ConfirmationCheck::expired
                                                : ConfirmationCheck::confirmable;
}

} // namespace

ConfirmationCheck StoreReads::confirmation(std::string_view token_hash, int64_t now) {
  const std::string hash(token_hash);
  return read([&](sql::Db &db) { return check_confirmation(db, hash, now, nullptr); });
}

std::string Store::site_secret(std::string_view name, std::string_view if_new) {
  // Kept already on every start but the first: read, so a start writes nothing (and a
  // read-only file starts).
  if (auto found = kept_site_secret(name)) return *found;
  std::string kept;
  const std::string key(name), fresh(if_new);
  write([&](sql::Db &db) {
    db.cached("INSERT INTO site_secrets (name, value) VALUES (:name, :value) "
              "ON CONFLICT (name) DO NOTHING")
        .bind(":name", key)
        .bind(":value", fresh)
        .run();
    auto stmt = db.cached("SELECT value FROM site_secrets WHERE name = :name");
    stmt.bind(":name", key);
    if (stmt.step()) kept = stmt.text(0);
  });
  return kept;
}

std::optional<std::string> StoreReads::kept_site_secret(std::string_view name) {
  return read([&](sql::Db &db) -> std::optional<std::string> {
    auto stmt = db.cached("SELECT value FROM site_secrets WHERE name = :name");
    stmt.bind(":name", std::string(name));
    if (!stmt.step()) return std::nullopt;
    return stmt.text(0);
  });
}

void Store::keep_site_secret(std::string_view name, std::string_view value) {
  const std::string key(name), kept(value);
  write([&](sql::Db &db) {
    db.cached("INSERT INTO site_secrets (name, value) VALUES (:name, :value) "
              "ON CONFLICT (name) DO UPDATE SET value = excluded.value")
        .bind(":name", key)
        .bind(":value", kept)
        .run();
  });
}

SubscriberCounts queries::subscriber_counts(sql::Db &db) {
  auto stmt = db.cached("SELECT status, count(*) FROM subscribers GROUP BY status");
  SubscriberCounts counts;
  while (stmt.step()) {
    const auto status = stmt.text(0);
    auto &count = status == "confirmed" ? counts.confirmed
                  : status == "pending" ? counts.pending
                                        : counts.unsubscribed;
    count = stmt.int64(1);
  }
  return counts;
}

SubscriberCounts StoreReads::subscriber_counts() {
  return read([](sql::Db &db) { return queries::subscriber_counts(db); });
}

Paged<Subscriber> StoreReads::subscribers(PageSpan span, std::string_view words) {
  return read([&](sql::Db &db) {
    // A confirmation mail given up (no next attempt) is shown with its last error.
    auto stmt = db.cached("SELECT s.id, s.email, s.subscribed_at, s.status, o.last_error "
                          "/* every row: newest first, up to the desk's page */ FROM subscribers s "
                          "LEFT JOIN confirmation_outbox o ON o.subscriber_id = s.id "
                          "AND o.next_attempt_at IS NULL "
                          "WHERE :words = '%%' OR s.email LIKE :words ESCAPE '\\' "
                          "ORDER BY s.id DESC LIMIT :limit OFFSET :offset");
    stmt.bind(":words", queries::holding(words));
    return queries::paged(stmt, span, [](const sql::Stmt &row) {
      auto subscriber = subscriber_from_row(row);
      if (!row.is_null(4)) subscriber.mail_problem = row.text(4);
      return subscriber;
    });
  });
}

std::vector<Subscriber> StoreReads::all_subscribers() {
  return read([](sql::Db &db) {
    std::vector<Subscriber> all;
    auto stmt = db.cached("SELECT id, email, subscribed_at, status /* every row: the export */ "
                          "FROM subscribers ORDER BY id");
    while (stmt.step())
      all.push_back(subscriber_from_row(stmt));
    return all;
  });
}

std::optional<Subscriber> StoreReads::subscriber(int64_t id) {
  return read([&](sql::Db &db) -> std::optional<Subscriber> {
    auto stmt =
        db.cached("SELECT id, email, subscribed_at, status FROM subscribers WHERE id = :id");
    stmt.bind(":id", id);
    if (!stmt.step()) return std::nullopt;
    return subscriber_from_row(stmt);
  });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const RequestSubscription &write) {
  const auto &[address, may_mail] = write;
  const auto now = at.seconds();
  const auto kept = [](SubscriptionRequest outcome) { return WriteResult::written(outcome); };
  auto found = db.cached("SELECT id, status, confirmations_sent, confirmation_asked_at "
                         "FROM subscribers WHERE email = :email");
  found.bind(":email", address);
  const bool known = found.step();
  const auto status = known ? found.text(1) : std::string("pending");
  const auto sent = known ? found.int64(2) : 0;
  const auto asked_at = !known || found.is_null(3) ? std::optional<int64_t>() : found.int64(3);
  if (status == "confirmed") return kept(SubscriptionRequest::already_confirmed);
  // "Never mail this address again" holds: anyone can type an address into the form, so
  // the form must not be a way to mail someone who left. Whoever holds the mailbox comes
  // back through the undo button of any mail's unsubscribe link instead.
  if (status == "unsubscribed") return kept(SubscriptionRequest::left_the_list);
  if (asked_at && now < *asked_at + confirmation_resend_wait(sent))
    return kept(SubscriptionRequest::mail_held_back);
  // Past a ration nothing is kept: a flood of made-up addresses must not fill the list, and
  // a kept address no mail went to is no nearer confirmation than none.
  if (!may_mail) return kept(SubscriptionRequest::mail_rationed);
  int64_t id = known ? found.int64(0) : 0;
  if (!known) {
    db.cached("INSERT INTO subscribers (email, status, subscribed_at) "
              "VALUES (:email, 'pending', :at)")
        .bind(":email", address)
        .bind(":at", rfc3339_utc(at.seconds()))
        .run();
    id = db.last_insert_rowid();
  }
  db.cached("UPDATE subscribers SET confirmations_sent = :sent, "
            "confirmation_asked_at = :now WHERE id = :id")
      .bind(":sent", sent + 1)
      .bind(":now", now)
      .bind(":id", id)
      .run();
  db.cached("INSERT INTO confirmation_outbox (subscriber_id, next_attempt_at) "
            "VALUES (:id, :now) ON CONFLICT (subscriber_id) DO UPDATE "
            "SET attempts = 0, next_attempt_at = excluded.next_attempt_at, last_error = ''")
      .bind(":id", id)
      .bind(":now", now)
      .run();
  return kept(SubscriptionRequest::mail_queued);
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const ConfirmSubscription &write) {
  int64_t id = 0;
  const auto outcome = check_confirmation(db, write.token_hash, at.seconds(), &id);
  if (outcome != ConfirmationCheck::confirmable) return WriteResult::written(outcome);
  db.cached("UPDATE subscribers SET status = 'confirmed', confirmations_sent = 0, "
            "confirmed_at = :now WHERE id = :id")
      .bind(":now", at.seconds())
      .bind(":id", id)
      .run();
  drop_owed_mail(db, id);
  return WriteResult::written(outcome);
}

// Done whether it left now or had left before: either way the address is off the list.
WriteResult apply_in(sql::Db &db, const WriteContext &, const Unsubscribe &write) {
  // The confirmation link dies with the subscription: following it later finds nothing.
  db.cached("UPDATE subscribers SET status = 'unsubscribed', confirm_hash = NULL "
            "WHERE id = :id AND status <> 'unsubscribed'")
      .bind(":id", write.id)
      .run();
  drop_owed_mail(db, write.id);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const Resubscribe &write) {
  // Back to what it was: an address that never confirmed is pending again, never confirmed
  // by the undo (its old link died with the unsubscription; the form sends a new one).
  db.cached("UPDATE subscribers SET status = CASE WHEN confirmed_at IS NULL THEN 'pending' "
            "ELSE 'confirmed' END WHERE id = :id AND status = 'unsubscribed'")
      .bind(":id", write.id)
      .run();
  if (db.changes() == 0) return WriteResult::written(Resubscription::unchanged);
  auto status = db.cached("SELECT status FROM subscribers WHERE id = :id");
  status.bind(":id", write.id).step();
  return WriteResult::written(status.text(0) == "confirmed" ? Resubscription::confirmed
                                                            : Resubscription::pending);
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const ClaimConfirmation &write) {
  db.cached("UPDATE confirmation_outbox SET next_attempt_at = :until "
            "WHERE subscriber_id = :id AND next_attempt_at <= :now")
      .bind(":until", at.seconds() + write.lease_seconds)
      .bind(":id", write.subscriber)
      .bind(":now", at.seconds())
      .run();
  return WriteResult::written(db.changes() > 0);
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const StartConfirmation &write) {
  db.cached("UPDATE subscribers SET confirm_hash = :hash, confirm_expires_at = :expires "
            "WHERE id = :id AND status = 'pending'")
      .bind(":hash", write.token_hash)
      .bind(":expires", write.expires_at)
      .bind(":id", write.subscriber)
      .run();
  const bool pending = db.changes() > 0;
  // Confirmed or gone since the mail was queued: it is owed no more.
  if (!pending) drop_owed_mail(db, write.subscriber);
  return WriteResult::written(pending);
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const ConfirmationMailed &write) {
  drop_owed_mail(db, write.subscriber);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &, const ConfirmationFailed &write) {
  auto stmt = db.cached("UPDATE confirmation_outbox SET attempts = attempts + 1, "
                        "next_attempt_at = :next, last_error = :error WHERE subscriber_id = :id");
  if (write.next_attempt_at)
    stmt.bind(":next", *write.next_attempt_at);
  else
    stmt.bind_null(":next"); // given up
  stmt.bind(":error", write.error).bind(":id", write.subscriber).run();
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const EraseSubscriber &write) {
  auto stmt = db.cached("DELETE FROM subscribers WHERE id = :id");
  stmt.bind(":id", write.id).run();
  if (db.changes() == 0) return WriteResult::not_found("that subscriber is not on the list");
  // Erasure: the log says that one address went, never which.
  queries::log_edit(
      db, at,
      {0, "", write.editor, "deleted", "subscriber", "#" + std::to_string(write.id), "", ""});
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
