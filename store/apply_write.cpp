#include "store/apply_write.h"

#include <sqlite3.h>

#include <algorithm>
#include <future>
#include <memory>

#include "domain/clock.h"
#include "store/aggregate_writes.h"
#include "store/sqlite.h"

namespace verdict {

WriteResult apply_in(sql::Db &db, const Write &write, const WriteContext &at) {
  return std::visit([&](const auto &kind) { return aggregates::apply_in(db, at, kind); }, write);
}

WriteResult apply(Store &store, const Write &write, const WriteContext &at) {
  std::promise<WriteResult> told;
  auto ended = told.get_future();
  apply_queued(store, write, at, [&told](const WriteResult &result) { told.set_value(result); });
  return ended.get();
}

void apply_queued(Store &store, const Write &write, const WriteContext &at, WriteDone done) {
  // The writer runs each job in a savepoint of its own and undoes one not done: nothing of a
  // refused write stays. A kind that leaves the catalogue as it was keeps the pages kept for
  // it (Store::catalogue_generation).
  store.write_then([write, at](sql::Db &db) { return apply_in(db, write, at); }, std::move(done),
                   leaves_catalogue(write) ? Changes::votes_only : Changes::anything);
}

namespace {

// Takes `sequence` as the file's place inside the open transaction: false when it was applied
// before; throws for one past the next (the stream is applied in order).
bool take_place(sql::Db &db, uint64_t sequence) {
  auto place = db.cached("SELECT sequence FROM cluster_applied WHERE only_row = 1");
  const uint64_t applied = place.step() ? static_cast<uint64_t>(place.int64(0)) : 0;
  if (sequence <= applied) return false; // applied before: once is all
  if (sequence != applied + 1)
    throw std::runtime_error("the cluster's write " + std::to_string(sequence) + " came before " +
                             std::to_string(applied + 1) +
                             " was applied: the stream is applied in order");
  db.cached("INSERT INTO cluster_applied (only_row, sequence) VALUES (1, :sequence) "
            "ON CONFLICT (only_row) DO UPDATE SET sequence = excluded.sequence")
      .bind(":sequence", static_cast<int64_t>(sequence))
      .run();
  return true;
}

void count_skipped(sql::Db &db, uint64_t sequence) {
  db.cached("UPDATE cluster_applied SET skipped = skipped + 1, last_skipped = :sequence "
            "WHERE only_row = 1")
      .bind(":sequence", static_cast<int64_t>(sequence))
      .run();
}

// Keeps `place`'s id, and forgets those no entry published again could pass for new under any
// more: false when the id was kept already (the entry was published again).
bool id_is_new(sql::Db &db, const StreamPlace &place) {
  db.cached("DELETE FROM cluster_entry_ids WHERE forget_at_ms < :now")
      .bind(":now", place.stored_at_ms)
      .run();
  db.cached("INSERT INTO cluster_entry_ids (id, forget_at_ms) VALUES (:id, :forget) "
            "ON CONFLICT (id) DO NOTHING")
      .bind(":id", place.id)
      .bind(":forget", place.forget_at_ms)
      .run();
  return db.changes() == 1;
}

} // namespace

void apply_entry(Store &store, const StreamPlace &place, std::vector<EntryWrite> writes,
                 WriteDone entry_done) {
  struct Entry {
    std::vector<EntryWrite> writes;
    std::vector<WriteResult> applied;
    bool repeated = false;
    WriteDone done;
  };
  auto entry = std::make_shared<Entry>();
  entry->applied.resize(writes.size());
  const bool votes_only = std::all_of(writes.begin(), writes.end(), [](const EntryWrite &each) {
    return leaves_catalogue(each.write);
  });
  entry->writes = std::move(writes);
  entry->done = std::move(entry_done);
  store.write_then(
      [entry, place](sql::Db &db) {
        if (!take_place(db, place.sequence)) return WriteResult::written();
        if (!id_is_new(db, place)) {
          count_skipped(db, place.sequence);
          entry->repeated = true;
          return WriteResult::written();
        }
        for (size_t i = 0; i < entry->writes.size(); ++i) {
          const auto &each = entry->writes[i];
          // Each in a savepoint of its own: a refused write leaves nothing, and the entry's
          // other writes stand.
          try {
            sql::Savepoint own(db);
            entry->applied[i] = apply_in(db, each.write, each.at);
            if (entry->applied[i].done()) own.release();
          } catch (const sql::Error &e) {
            // A key the write names that is gone by the time it is applied (an editor removed
            // on another node before their session began here): refused alike on every node.
            // Trouble with the file itself is not the write's, and none of the entry is
            // written: the node reads it again.
            if ((e.code & 0xff) != SQLITE_CONSTRAINT) throw;
            entry->applied[i] =
                WriteResult::refused("the write no longer fits the site: " + std::string(e.what()));
          }
        }
        return WriteResult::written();
      },
      [entry](const WriteResult &transaction) {
        const auto repeated = WriteResult::refused("an entry applied before, published again");
        for (size_t i = 0; i < entry->writes.size(); ++i)
          entry->writes[i].done(!transaction.done() ? transaction
                                : entry->repeated   ? repeated
                                                    : entry->applied[i]);
        entry->done(transaction.done() && entry->repeated ? repeated : transaction);
      },
      votes_only ? Changes::votes_only : Changes::anything);
}

void skip_entry(Store &store, uint64_t sequence, WriteDone done) {
  store.write_then(
      [sequence](sql::Db &db) {
        if (take_place(db, sequence)) count_skipped(db, sequence);
        return WriteResult::written();
      },
      std::move(done), Changes::votes_only);
}

} // namespace verdict

namespace verdict {

WriteContext Store::context_at(int64_t at_ms) const {
  std::lock_guard lock(today_mutex_);
  return {at_ms, today_ ? today_() : utc_date_at(at_ms)};
}

} // namespace verdict
