#include "store/vote_log.h"

#include <sqlite3.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "auth/log_signing.h"
#include "auth/secrets.h"
#include "domain/counting.h"
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
    // Each current vote's row names the leaf of its latest entry (migrations/0012-receipts.sql).
    auto stmt = db.cached(
        "SELECT v.log_leaf, l.entry, 'tool:' || v.tool_id, json_extract(l.entry, '$.choice') "
        "  FROM tool_votes v JOIN vote_log l ON l.leaf = v.log_leaf WHERE v.voter = :voter "
        "UNION ALL "
        "SELECT v.log_leaf, l.entry, 'pair:' || v.low_tool_id || '-' || v.high_tool_id, "
        "       json_extract(l.entry, '$.choice') "
        "  FROM pair_votes v JOIN vote_log l ON l.leaf = v.log_leaf WHERE v.voter = :voter "
        " ORDER BY 1 DESC LIMIT :most");
    stmt.bind(":voter", std::string(voter)).bind(":most", kMostReceipts);
    std::vector<VoteReceipt> receipts;
    while (stmt.step()) {
      const auto target = vote_target_from_code(stmt.text(2));
      if (!target) continue;
      VoteReceipt receipt;
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
// one younger than half a day, add none.
WriteResult aggregates::apply_in(sql::Db &db, const WriteContext &, const MakeCheckpoint &write) {
  auto latest = db.cached("SELECT made_at FROM checkpoints ORDER BY id DESC LIMIT 1");
  if (!latest.step() || write.now - latest.int64(0) >= kCheckpointEverySeconds / 2)
    (void)checkpoint_in(db, signing_key_in(db), write.now);
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
