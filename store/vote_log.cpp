#include "store/vote_log.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "auth/log_signing.h"
#include "auth/secrets.h"
#include "domain/counting.h"
#include "domain/dates.h"
#include "domain/slugs.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

std::string_view text_argument(sqlite3_value *value) {
  const auto *bytes = reinterpret_cast<const char *>(sqlite3_value_text(value));
  return bytes ? std::string_view(bytes, static_cast<size_t>(sqlite3_value_bytes(value)))
               : std::string_view();
}

// The log's pseudonyms on one connection: its key, read from site_secrets at the first call.
struct Pseudonyms {
  std::optional<auth::KeyedHasher> hasher;
};

// vote_log_pseudonym(message, target): the keyed hash of a voter or network under the site
// secret 'vote_log', with the vote's target in the message, so one reader's or one network's
// pseudonyms on two targets differ and link nothing (docs/NUMBERS.md); hex text, NULL for NULL.
// With no target (the log's first format, migrations/0010-vote-log.sql): one pseudonym across
// targets, kept only to re-key the votes cast before. vote_log_pseudonym(message, target,
// what): the log's format from migrations/0021-standing-places.sql on, the same key over a
// message that also says what is hashed ('voter', or 'place' for a network's place), so its
// pseudonyms share nothing with the second format's. The key is read once per connection: a
// vote costs the writer a hash, not a lookup and a hex decoding as well.
void pseudonym_function(sqlite3_context *context, int count, sqlite3_value **arguments) {
  if (sqlite3_value_type(arguments[0]) == SQLITE_NULL) return sqlite3_result_null(context);
  auto &pseudonyms = *static_cast<Pseudonyms *>(sqlite3_user_data(context));
  try {
    if (!pseudonyms.hasher) {
      auto *db = sqlite3_context_db_handle(context);
      sqlite3_stmt *prepared = nullptr;
      sqlite3_prepare_v2(db, "SELECT value FROM site_secrets WHERE name = 'vote_log'", -1,
                         &prepared, nullptr);
      sql::Stmt key(db, prepared, true);
      if (!prepared || !key.step()) throw std::runtime_error("the vote log has no key");
      pseudonyms.hasher.emplace(key.text(0));
    }
    // A target code holds no newline: the message names the target, then what is hashed; with
    // a third argument it names that first (what the value is: 'voter', 'place').
    std::string message;
    if (count == 3) message = std::string(text_argument(arguments[2])) + "\n";
    if (count >= 2) message += std::string(text_argument(arguments[1])) + "\n";
    message += text_argument(arguments[0]);
    const auto hash = (*pseudonyms.hasher)(message);
    sqlite3_result_text(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
  } catch (const std::exception &e) {
    sqlite3_result_error(context, e.what(), -1);
  }
}

} // namespace

void vote_log::add_functions(sql::Db &db) {
  for (const int arguments : {1, 2, 3})
    sqlite3_create_function_v2(
        db.handle(), "vote_log_pseudonym", arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
        new Pseudonyms, pseudonym_function, nullptr, nullptr,
        [](void *pseudonyms) { delete static_cast<Pseudonyms *>(pseudonyms); });
}

std::vector<VoteLogEntry> StoreReads::vote_log(uint64_t from, size_t limit) {
  return read([&](sql::Db &db) {
    auto stmt = db.cached("SELECT leaf, entry FROM vote_log WHERE leaf >= :from "
                          "ORDER BY leaf LIMIT :limit");
    stmt.bind(":from", static_cast<int64_t>(from)).bind(":limit", static_cast<int64_t>(limit));
    std::vector<VoteLogEntry> entries;
    while (stmt.step())
      entries.push_back(
          {static_cast<uint64_t>(stmt.int64(0)), stmt.text(1), merkle::leaf_hash(stmt.text(1))});
    return entries;
  });
}

VoteLogHead StoreReads::vote_log_head() {
  return read([&](sql::Db &db) {
    auto stmt = db.cached(
        "SELECT entry /* every row: a root is made of every leaf */ FROM vote_log ORDER BY leaf");
    std::vector<merkle::Hash> leaves;
    while (stmt.step())
      leaves.push_back(merkle::leaf_hash(stmt.text(0)));
    const auto size = leaves.size();
    return VoteLogHead{size, merkle::root(size, merkle::over(std::move(leaves)))};
  });
}

namespace {

// Every entry of the log in leaf order, as the replay reads them (domain/tallies.h).
uint64_t each_vote_event(sql::Db &db, const std::function<void(const VoteEvent &)> &each) {
  auto stmt = db.cached(
      "SELECT substr(json_extract(entry, '$.at'), 1, 10), json_extract(entry, '$.target'), "
      "json_extract(entry, '$.event') = 'withdrawn', json_extract(entry, '$.choice'), "
      "json_extract(entry, '$.set_aside'), json_extract(entry, '$.voter'), "
      "json_extract(entry, '$.was') "
      "/* every row: the tallies are the whole log replayed */ FROM vote_log ORDER BY leaf");
  uint64_t entries = 0;
  VoteEvent event;
  while (stmt.step()) {
    const auto code = stmt.text(1);
    const auto target = vote_target_from_code(code);
    if (!target) throw std::runtime_error("the vote log names no target: " + code);
    event.day = stmt.text(0);
    event.target = *target;
    event.voter = stmt.text(5);
    event.was = stmt.is_null(6) ? std::string() : stmt.text(6);
    // A tool's choice is its verdict's word; a pair's, the picked tool's id.
    event.first.reset();
    if (!stmt.int64(2))
      event.first = target->pair ? stmt.int64(3) == target->low
                                 : verdict_from_word(stmt.text(3)) == Verdict::ship;
    event.set_aside.reset();
    if (!stmt.is_null(4)) event.set_aside = reason_from_code(stmt.text(4));
    each(event);
    ++entries;
  }
  return entries;
}

} // namespace

uint64_t StoreReads::vote_events(const std::function<void(const VoteEvent &)> &each) {
  return read([&](sql::Db &db) { return each_vote_event(db, each); });
}

void vote_log::build_tally_changes(sql::Db &db) {
  TallyReplay replay;
  each_vote_event(db, [&replay](const VoteEvent &event) { replay.add(event); });
  for (const auto &target : std::move(replay).finish()) {
    DayTally before; // each day's row is what changed since the day before
    for (const auto &day : target.days) {
      auto insert = db.cached(
          "INSERT INTO tally_changes (pair, low, high, day, first, second, set_aside_network, "
          "set_aside_too_fast) VALUES (:pair, :low, :high, :day, :first, :second, :network, "
          ":too_fast)");
      insert.bind(":pair", int64_t{target.target.pair}).bind(":low", target.target.low);
      insert.bind(":high", target.target.high).bind(":day", day.day);
      insert.bind(":first", day.first - before.first).bind(":second", day.second - before.second);
      insert.bind(":network", day.set_aside.network - before.set_aside.network);
      insert.bind(":too_fast", day.set_aside.too_fast - before.set_aside.too_fast).run();
      before = day;
    }
  }
}

namespace {

// One vote event waiting for its batch, as migrations/0022-vote-batches.sql keeps it.
struct WaitingEvent {
  std::string at, target, event, voter;
  std::optional<std::string> choice, set_aside, network;
  std::optional<int64_t> place;
  DayTally change; // what it changes in its target's numbers (its day left empty)
};

std::optional<std::string> optional_text(const sql::Stmt &row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return row.text(column);
}

std::vector<WaitingEvent> waiting_events(sql::Db &db) {
  auto rows = db.cached("SELECT at, target, event, choice, set_aside, voter, network, place, "
                        "first, second, set_aside_network, set_aside_too_fast "
                        "/* every row: a batch is all of them */ FROM vote_log_pending "
                        "ORDER BY seq");
  std::vector<WaitingEvent> events;
  while (rows.step()) {
    WaitingEvent event{rows.text(0),           rows.text(1),           rows.text(2),
                       rows.text(5),           optional_text(rows, 3), optional_text(rows, 4),
                       optional_text(rows, 6), std::nullopt,           DayTally{}};
    if (!rows.is_null(7)) event.place = rows.int64(7);
    event.change.first = rows.int64(8);
    event.change.second = rows.int64(9);
    event.change.set_aside = {rows.int64(10), rows.int64(11)};
    events.push_back(std::move(event));
  }
  return events;
}

// A batch's entries: each voter's events on a target netted to one entry saying their vote
// now (none when it came and went within the batch), or a withdrawal and a new cast when the
// vote was withdrawn and cast again, so the replay and the places read as they stood.
std::vector<WaitingEvent> netted(const std::vector<WaitingEvent> &events) {
  std::map<std::pair<std::string, std::string>, std::vector<const WaitingEvent *>> by_vote;
  for (const auto &event : events)
    by_vote[{event.target, event.voter}].push_back(&event);
  std::vector<WaitingEvent> entries;
  for (const auto &[vote, its] : by_vote) {
    const bool stood_before = its.front()->event != "cast";
    const auto &last = *its.back();
    const bool stands_after = last.event != "withdrawn";
    const bool withdrawn_within = std::any_of(its.begin(), its.end(), [](const WaitingEvent *each) {
      return each->event == "withdrawn";
    });
    if (stood_before && (!stands_after || withdrawn_within)) {
      // The withdrawal names the vote as it stood when withdrawn (its place is free from here).
      const auto withdrawal = std::find_if(its.begin(), its.end(), [](const WaitingEvent *each) {
        return each->event == "withdrawn";
      });
      entries.push_back(**withdrawal);
    }
    if (!stands_after) continue;
    entries.push_back(last);
    entries.back().event = stood_before && !withdrawn_within ? "changed" : "cast";
  }
  return entries;
}

// The keyed hash a batch is ordered by: nobody without the log's key can foresee it, and every
// node of a cluster orders a batch alike.
std::string order_key(sql::Db &db, const WaitingEvent &entry) {
  auto key = db.cached("SELECT vote_log_pseudonym(:voter || '#' || :event, :target, 'order')");
  key.bind(":voter", entry.voter).bind(":event", entry.event).bind(":target", entry.target);
  key.step();
  return key.text(0);
}

void append_entry(sql::Db &db, uint64_t leaf, const std::string &at, const WaitingEvent &entry) {
  auto append =
      db.cached("INSERT INTO vote_log (leaf, entry) VALUES (:leaf, json_object("
                "'at', strftime('%Y-%m-%dT%H:00:00Z', :at), 'target', :target, 'event', :event, "
                "'choice', :choice, 'set_aside', :set_aside, "
                "'voter', vote_log_pseudonym(:voter, :target, 'voter'), "
                "'place', vote_log_pseudonym(:network || '#' || :place, :target, 'place')))");
  append.bind(":leaf", static_cast<int64_t>(leaf)).bind(":at", at);
  append.bind(":target", entry.target).bind(":event", entry.event);
  // A pair's choice is the picked tool's id, a number in the entry; a tool's, a word.
  if (!entry.choice)
    append.bind_null(":choice");
  else if (entry.target.starts_with("pair:"))
    append.bind(":choice", static_cast<int64_t>(std::stoll(*entry.choice)));
  else
    append.bind(":choice", *entry.choice);
  if (entry.set_aside)
    append.bind(":set_aside", *entry.set_aside);
  else
    append.bind_null(":set_aside");
  append.bind(":voter", entry.voter);
  if (entry.network)
    append.bind(":network", *entry.network);
  else
    append.bind_null(":network");
  if (entry.place)
    append.bind(":place", *entry.place);
  else
    append.bind_null(":place");
  append.run();
}

// The vote's receipt: the leaf of its latest entry (migrations/0012-receipts.sql).
void give_receipt(sql::Db &db, const VoteTarget &target, const std::string &voter, uint64_t leaf) {
  auto receipt = target.pair
                     ? db.cached("UPDATE pair_votes SET log_leaf = :leaf WHERE voter = :voter "
                                 "AND low_tool_id = :low AND high_tool_id = :high")
                     : db.cached("UPDATE tool_votes SET log_leaf = :leaf WHERE voter = :voter "
                                 "AND tool_id = :low");
  receipt.bind(":leaf", static_cast<int64_t>(leaf)).bind(":voter", voter);
  receipt.bind(":low", target.low);
  if (target.pair) receipt.bind(":high", target.high);
  receipt.run();
}

// Binds a change to the statements below: :first, :second, :network, :too_fast.
sql::Stmt &with_change(sql::Stmt &stmt, const DayTally &change) {
  stmt.bind(":first", change.first).bind(":second", change.second);
  return stmt.bind(":network", change.set_aside.network)
      .bind(":too_fast", change.set_aside.too_fast);
}

// Moves a target's published numbers by `change`, on the day of `at`: the figures the pages
// read and the open data's changes per day (migrations/0016-tally-changes.sql).
void publish_change(sql::Db &db, const VoteTarget &target, const std::string &at,
                    const DayTally &change) {
  if (target.pair) {
    // A pair's row is made by its first batch: a change (which may take from a side) is added
    // to the row there, and only a pair with none yet is given one.
    auto picks = db.cached(
        "UPDATE pair_tallies SET low_picks = low_picks + :first, high_picks = high_picks + "
        ":second, set_aside_network = set_aside_network + :network, set_aside_too_fast = "
        "set_aside_too_fast + :too_fast WHERE low_tool_id = :low AND high_tool_id = :high");
    with_change(picks, change).bind(":low", target.low).bind(":high", target.high).run();
    if (db.changes() == 0) {
      auto first =
          db.cached("INSERT INTO pair_tallies (low_tool_id, high_tool_id, low_picks, high_picks, "
                    "set_aside_network, set_aside_too_fast) VALUES (:low, :high, :first, :second, "
                    ":network, :too_fast)");
      with_change(first, change).bind(":low", target.low).bind(":high", target.high).run();
    }
  } else {
    auto tool = db.cached(
        "UPDATE tools SET community_votes = community_votes + :first + :second, "
        "community_ships = community_ships + :first, "
        "community_set_aside_network = community_set_aside_network + :network, "
        "community_set_aside_too_fast = community_set_aside_too_fast + :too_fast WHERE id = :id");
    with_change(tool, change).bind(":id", target.low).run();
  }
  auto day = db.cached("INSERT INTO tally_events VALUES (:pair, :low, :high, :at, :first, "
                       ":second, :network, :too_fast)");
  with_change(day, change).bind(":pair", int64_t{target.pair}).bind(":low", target.low);
  day.bind(":high", target.high).bind(":at", at).run();
}

void add_change(DayTally &sum, const DayTally &change) {
  sum.first += change.first;
  sum.second += change.second;
  sum.set_aside.network += change.set_aside.network;
  sum.set_aside.too_fast += change.set_aside.too_fast;
}

} // namespace

void vote_log::publish_waiting(sql::Db &db, const std::string &at, Publishing how) {
  const auto events = waiting_events(db);
  if (events.empty()) return;
  auto leaf = queries::vote_log_size(db);
  const auto receipt_for = [&db](const WaitingEvent &entry, uint64_t its_leaf) {
    const auto target = vote_target_from_code(entry.target);
    if (!target) throw std::runtime_error("a waiting vote names no target: " + entry.target);
    if (entry.event != "withdrawn") give_receipt(db, *target, entry.voter, its_leaf);
    return *target;
  };
  if (how == Publishing::as_they_came) {
    for (const auto &event : events) {
      append_entry(db, leaf, event.at, event);
      publish_change(db, receipt_for(event, leaf++), event.at, event.change);
    }
  } else {
    auto entries = netted(events);
    std::vector<std::pair<std::string, const WaitingEvent *>> ordered;
    for (const auto &entry : entries)
      ordered.emplace_back((entry.event == "withdrawn" ? "0" : "1") + order_key(db, entry), &entry);
    std::sort(ordered.begin(), ordered.end());
    std::map<VoteTarget, DayTally> changes; // a target with no entry left changed nothing
    for (const auto &[key, entry] : ordered) {
      append_entry(db, leaf, at, *entry);
      changes.try_emplace(receipt_for(*entry, leaf++));
    }
    for (const auto &event : events)
      if (const auto target = vote_target_from_code(event.target); target && changes.count(*target))
        add_change(changes[*target], event.change);
    for (const auto &[target, change] : changes)
      publish_change(db, target, at, change);
  }
  db.cached("DELETE FROM vote_log_pending /* every row: all are in the log now */").run();
}

// Every node's clock asks at each period's end: the first asked publishes, and the others,
// finding a batch younger than half a period, add none (so no batch holds a few seconds').
WriteResult aggregates::apply_in(sql::Db &db, const WriteContext &at, const PublishVotes &write) {
  auto latest = db.cached("SELECT published_at FROM vote_batches WHERE only_row = 1");
  if (latest.step() && at.seconds() - latest.int64(0) < write.every_seconds / 2)
    return WriteResult::written();
  vote_log::publish_waiting(db, rfc3339_utc(at.seconds()));
  db.cached("INSERT INTO vote_batches (only_row, published_at) VALUES (1, :at) "
            "ON CONFLICT (only_row) DO UPDATE SET published_at = excluded.published_at")
      .bind(":at", at.seconds())
      .run();
  return WriteResult::written();
}

bool StoreReads::votes_waiting() {
  return read([](sql::Db &db) {
    auto any = db.cached("SELECT EXISTS (SELECT 1 FROM vote_log_pending)");
    any.step();
    return any.int64(0) != 0;
  });
}

namespace {

// Each target's standing at the end of each day it changed, in the log's order of targets:
// its days' changes summed as they are read.
void each_tally_day_in(sql::Db &db,
                       const std::function<void(const VoteTarget &, const DayTally &)> &each) {
  auto rows = db.cached("SELECT pair, low, high, day, first, second, set_aside_network, "
                        "set_aside_too_fast /* every row: the open data is all of them */ "
                        "FROM tally_changes ORDER BY pair, low, high, day");
  std::optional<VoteTarget> target;
  DayTally day;
  while (rows.step()) {
    const VoteTarget row_target{rows.int64(0) != 0, rows.int64(1), rows.int64(2)};
    if (target != row_target) {
      target = row_target;
      day = DayTally{};
    }
    day.day = rows.text(3);
    day.first += rows.int64(4);
    day.second += rows.int64(5);
    day.set_aside.network += rows.int64(6);
    day.set_aside.too_fast += rows.int64(7);
    each(*target, day);
  }
}

} // namespace

void StoreReads::each_tally_day(
    const std::function<void(const VoteTarget &, const DayTally &)> &each) {
  read([&](sql::Db &db) { each_tally_day_in(db, each); });
}

TalliesByDay StoreReads::tallies_by_day() {
  return read([](sql::Db &db) {
    TalliesByDay kept;
    each_tally_day_in(db, [&kept](const VoteTarget &target, const DayTally &day) {
      if (kept.targets.empty() || kept.targets.back().target != target)
        kept.targets.push_back({target, {}});
      kept.targets.back().days.push_back(day);
    });
    auto size = db.cached("SELECT coalesce(max(leaf) + 1, 0) FROM vote_log");
    size.step();
    kept.log_entries = static_cast<uint64_t>(size.int64(0));
    return kept;
  });
}

namespace {

// A voter's receipts shown at most, latest first.
constexpr int64_t kMostReceipts = 1000;

} // namespace

std::optional<queries::ToolNaming> queries::tool_naming(sql::Db &db, int64_t id) {
  auto stmt = db.cached("SELECT slug, name FROM tools WHERE id = :id");
  stmt.bind(":id", id);
  if (!stmt.step()) return std::nullopt;
  return ToolNaming{stmt.text(0), stmt.text(1)};
}

std::vector<VoteReceipt> StoreReads::vote_receipts(std::string_view voter) {
  return read([&](sql::Db &db) {
    // Each current vote's row names the leaf of its latest entry (migrations/0012-receipts.sql),
    // or none while it waits for the log's next batch (0022): those come first, the latest.
    auto stmt = db.cached(
        "SELECT v.log_leaf, l.entry, 'tool:' || v.tool_id, v.verdict, v.log_leaf IS NULL "
        "  FROM tool_votes v LEFT JOIN vote_log l ON l.leaf = v.log_leaf WHERE v.voter = :voter "
        "UNION ALL "
        "SELECT v.log_leaf, l.entry, 'pair:' || v.low_tool_id || '-' || v.high_tool_id, "
        "       v.pick_tool_id, v.log_leaf IS NULL "
        "  FROM pair_votes v LEFT JOIN vote_log l ON l.leaf = v.log_leaf WHERE v.voter = :voter "
        " ORDER BY 5 DESC, 1 DESC LIMIT :most");
    stmt.bind(":voter", std::string(voter)).bind(":most", kMostReceipts);
    std::vector<VoteReceipt> receipts;
    while (stmt.step()) {
      const auto target = vote_target_from_code(stmt.text(2));
      if (!target) continue;
      VoteReceipt receipt;
      receipt.waiting = stmt.int64(4) != 0;
      if (!receipt.waiting)
        receipt.logged = {static_cast<uint64_t>(stmt.int64(0)), stmt.text(1),
                          merkle::leaf_hash(stmt.text(1))};
      const auto low = queries::tool_naming(db, target->low);
      const auto high = target->pair ? queries::tool_naming(db, target->high) : low;
      if (!low || !high) continue;
      if (target->pair) {
        receipt.what = low->name + " vs " + high->name;
        receipt.address = "/compare/" + pair_slug(low->slug, high->slug);
        receipt.picked = stmt.int64(3) == target->low ? low->name : high->name;
      } else {
        receipt.what = low->name;
        receipt.address = "/tools/" + low->slug;
        receipt.verdict = verdict_from_word(stmt.text(3));
      }
      receipts.push_back(std::move(receipt));
    }
    return receipts;
  });
}

} // namespace verdict

namespace verdict {

namespace {

merkle::Hash node_at(sql::Db &db, int level, uint64_t index) {
  auto stmt = db.cached("SELECT hash FROM vote_log_nodes WHERE level = :level AND idx = :idx");
  stmt.bind(":level", int64_t{level}).bind(":idx", static_cast<int64_t>(index));
  if (!stmt.step()) throw std::logic_error("a node of the vote log's tree was never sealed");
  merkle::Hash hash{};
  const auto bytes = stmt.blob(0);
  std::copy_n(bytes.begin(), std::min(bytes.size(), hash.size()), hash.begin());
  return hash;
}

merkle::PerfectSubtree sealed_tree(sql::Db &db) {
  return [&db](int level, uint64_t index) { return node_at(db, level, index); };
}

void keep_node(sql::Db &db, int level, uint64_t index, const merkle::Hash &hash) {
  auto stmt = db.cached("INSERT INTO vote_log_nodes (level, idx, hash) VALUES (:level, :idx, "
                        ":hash)");
  stmt.bind(":level", int64_t{level}).bind(":idx", static_cast<int64_t>(index));
  stmt.bind_blob(":hash", hash.data(), hash.size()).run();
}

uint64_t count_of(sql::Db &db, const char *sql) {
  auto stmt = db.cached(sql);
  stmt.step();
  return static_cast<uint64_t>(stmt.int64(0));
}

// Leaves sealed so far: those whose hashes are in vote_log_nodes.
uint64_t sealed_size(sql::Db &db) {
  return count_of(db, "SELECT coalesce(max(idx) + 1, 0) FROM vote_log_nodes WHERE level = 0");
}

// Hashes the leaves appended since the last seal and every perfect subtree they complete.
uint64_t seal(sql::Db &db) {
  const auto sealed = sealed_size(db);
  const auto size = count_of(db, "SELECT coalesce(max(leaf) + 1, 0) FROM vote_log");
  auto entries = db.cached("SELECT leaf, entry FROM vote_log WHERE leaf >= :from ORDER BY leaf");
  entries.bind(":from", static_cast<int64_t>(sealed));
  std::vector<std::pair<uint64_t, merkle::Hash>> leaves;
  while (entries.step())
    leaves.emplace_back(static_cast<uint64_t>(entries.int64(0)),
                        merkle::leaf_hash(entries.text(1)));
  for (const auto &[leaf, hash] : leaves)
    keep_node(db, 0, leaf, hash);
  for (int level = 1; (size >> level) > 0; ++level)
    for (auto index = sealed >> level; index < (size >> level); ++index)
      keep_node(db, level, index,
                merkle::node_hash(node_at(db, level - 1, 2 * index),
                                  node_at(db, level - 1, 2 * index + 1)));
  return size;
}

Checkpoint checkpoint_of(const sql::Stmt &row) {
  Checkpoint checkpoint;
  checkpoint.size = static_cast<uint64_t>(row.int64(0));
  checkpoint.root = merkle::from_hex(row.text(1)).value_or(merkle::Hash{});
  checkpoint.made_at = row.int64(2);
  checkpoint.signature = row.text(3);
  return checkpoint;
}

} // namespace

namespace {

// Seals the log as it stands and keeps a checkpoint of it, signed with `signing_key`, made at
// `now`: inside the writer's transaction.
Checkpoint checkpoint_in(sql::Db &db, std::string_view signing_key, int64_t now) {
  Checkpoint checkpoint;
  checkpoint.size = seal(db);
  checkpoint.root = merkle::root(checkpoint.size, sealed_tree(db));
  checkpoint.made_at = now;
  checkpoint.signature = auth::signature_of(signing_key, checkpoint_text(checkpoint));
  auto stmt = db.cached("INSERT INTO checkpoints (size, root, made_at, signature) "
                        "VALUES (:size, :root, :made_at, :signature)");
  stmt.bind(":size", static_cast<int64_t>(checkpoint.size))
      .bind(":root", merkle::hex(checkpoint.root))
      .bind(":made_at", checkpoint.made_at)
      .bind(":signature", checkpoint.signature)
      .run();
  return checkpoint;
}

// The site's signing key as the file keeps it (a cluster node's is the cluster's, kept at
// its start), kept first when there is none yet.
std::string signing_key_in(sql::Db &db) {
  db.cached("INSERT INTO site_secrets (name, value) VALUES ('vote_log_signing', :value) "
            "ON CONFLICT (name) DO NOTHING")
      .bind(":value", auth::new_signing_key())
      .run();
  auto stmt = db.cached("SELECT value FROM site_secrets WHERE name = 'vote_log_signing'");
  stmt.step();
  return stmt.text(0);
}

} // namespace

Checkpoint Store::make_checkpoint(std::string_view signing_key, int64_t now) {
  Checkpoint checkpoint;
  write([&](sql::Db &db) { checkpoint = checkpoint_in(db, signing_key, now); });
  return checkpoint;
}

// Every node's checkpointer asks once a day: the first asked is made, and the others, finding
// one younger than half a day, add none. One asked for by hand is made whatever the last's age.
WriteResult aggregates::apply_in(sql::Db &db, const WriteContext &at, const MakeCheckpoint &write) {
  auto latest = db.cached("SELECT made_at FROM checkpoints ORDER BY id DESC LIMIT 1");
  if (write.by_hand || !latest.step() ||
      at.seconds() - latest.int64(0) >= kCheckpointEverySeconds / 2)
    (void)checkpoint_in(db, signing_key_in(db), at.seconds());
  return WriteResult::written();
}

uint64_t queries::vote_log_size(sql::Db &db) {
  return count_of(db, "SELECT coalesce(max(leaf) + 1, 0) FROM vote_log");
}

uint64_t StoreReads::vote_log_size() {
  return read([](sql::Db &db) { return queries::vote_log_size(db); });
}

std::string Store::log_signing_key() {
  return site_secret("vote_log_signing", auth::new_signing_key());
}

std::optional<Checkpoint> StoreReads::latest_checkpoint() {
  auto latest = latest_checkpoints(1);
  if (latest.empty()) return std::nullopt;
  return std::move(latest.front());
}

std::vector<Checkpoint> queries::latest_checkpoints(sql::Db &db, int limit) {
  auto stmt = db.cached("SELECT size, root, made_at, signature FROM checkpoints "
                        "ORDER BY id DESC LIMIT :limit");
  stmt.bind(":limit", int64_t{limit});
  std::vector<Checkpoint> checkpoints;
  while (stmt.step())
    checkpoints.push_back(checkpoint_of(stmt));
  return checkpoints;
}

std::vector<Checkpoint> StoreReads::latest_checkpoints(int limit) {
  return read([&](sql::Db &db) { return queries::latest_checkpoints(db, limit); });
}

std::vector<merkle::Hash> StoreReads::inclusion_proof(uint64_t leaf, uint64_t size) {
  return read([&](sql::Db &db) {
    if (size > sealed_size(db) || leaf >= size)
      throw NotFound("no checkpoint's tree holds that leaf at that size");
    return merkle::inclusion_proof(leaf, size, sealed_tree(db));
  });
}

std::vector<merkle::Hash> StoreReads::consistency_proof(uint64_t old_size, uint64_t size) {
  return read([&](sql::Db &db) {
    if (size > sealed_size(db) || old_size > size)
      throw NotFound("no checkpoint's tree has those sizes");
    return merkle::consistency_proof(old_size, size, sealed_tree(db));
  });
}

} // namespace verdict
