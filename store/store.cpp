#include "store/store.h"

#include <sys/stat.h>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>

#include "assets/embedded.h"
#include "store/database_file.h"
#include "store/page_starts.h"
#include "store/sqlite.h"

namespace verdict {

namespace {

// Each entry upgrades the schema by one version; entry i brings user_version from i to i + 1.
// Append, never edit: databases in the field are at every version ever shipped.
std::vector<std::string> migrations() {
  return {
      std::string(embedded("schema.sql")),
      // 2: version 1's date CHECKs let a non-date through (date() of one is NULL, and a NULL
      // CHECK passes). SQLite cannot change a CHECK in place, so triggers refuse them instead.
      R"(CREATE TRIGGER tools_checked_on_is_a_date BEFORE INSERT ON tools
           WHEN NEW.pricing_checked_on IS NOT NULL
            AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
         BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER tools_checked_on_stays_a_date BEFORE UPDATE OF pricing_checked_on ON tools
           WHEN NEW.pricing_checked_on IS NOT NULL
            AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
         BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER comparisons_published_on_is_a_date BEFORE INSERT ON comparisons
           WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
         BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;
         CREATE TRIGGER comparisons_published_on_stays_a_date
           BEFORE UPDATE OF published_on ON comparisons
           WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
         BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;)",
      // 3: one row that /healthz rewrites to prove a write still reaches the disk.
      R"(CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at TEXT NOT NULL);)",
      // 4: lists are read a page at a time. The panel in panel order without reading and
      // sorting all of it; a tool's comparisons newest first from the indexes alone (these
      // replace the single-column ones, and still serve the foreign keys).
      R"(CREATE INDEX reviewers_in_panel_order ON reviewers (panel_order, id);
         CREATE INDEX comparisons_by_a_and_date ON comparisons (tool_a_id, published_on);
         CREATE INDEX comparisons_by_b_and_date ON comparisons (tool_b_id, published_on);
         DROP INDEX comparisons_by_a;
         DROP INDEX comparisons_by_b;)",
      // 5: a deep page of a long list is found from where it starts, learnt from earlier reads
      // (store/page_starts.h). Each such list has a version that every change to its rows or
      // their order changes. A random value, not a count: a version names one order even
      // across files, such as a backup restored under the running server.
      R"(CREATE TABLE list_versions (
           list    TEXT PRIMARY KEY,
           version INTEGER NOT NULL
         ) WITHOUT ROWID;
         INSERT INTO list_versions (list, version)
           VALUES ('tools_by_name', random()), ('published_comparisons', random());
         CREATE TRIGGER tools_by_name_gains AFTER INSERT ON tools
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
         CREATE TRIGGER tools_by_name_loses AFTER DELETE ON tools
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
         CREATE TRIGGER tools_by_name_reorders AFTER UPDATE OF name, slug ON tools
           WHEN OLD.name IS NOT NEW.name OR OLD.slug IS NOT NEW.slug
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
         CREATE TRIGGER published_comparisons_gain AFTER INSERT ON comparisons
           WHEN NEW.published_on IS NOT NULL
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
         END;
         CREATE TRIGGER published_comparisons_lose AFTER DELETE ON comparisons
           WHEN OLD.published_on IS NOT NULL
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
         END;
         CREATE TRIGGER published_comparisons_reorder AFTER UPDATE OF published_on ON comparisons
           WHEN OLD.published_on IS NOT NEW.published_on
         BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
         END;)",
      // 6: the editor's desk. Editors sign in with a password kept as an Argon2id hash; a
      // signed-in browser is a session, of which only a hash of the cookie's secret is kept,
      // so a copy of the database (a backup) signs nobody in. The edit log keeps the editor's
      // address as it was, so it outlives the editor.
      R"(CREATE TABLE editors (
           id            INTEGER PRIMARY KEY,
           email         TEXT NOT NULL UNIQUE CHECK (email <> '' AND email = lower(email)),
           password_hash TEXT NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
           created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
         );
         CREATE TABLE sessions (
           secret_hash TEXT PRIMARY KEY,
           editor_id   INTEGER NOT NULL REFERENCES editors (id) ON DELETE CASCADE,
           csrf_token  TEXT NOT NULL,
           expires_at  INTEGER NOT NULL -- seconds since 1970
         ) WITHOUT ROWID;
         CREATE INDEX sessions_by_editor ON sessions (editor_id);
         CREATE TABLE edit_log (
           id      INTEGER PRIMARY KEY,
           at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
           editor  TEXT NOT NULL,
           action  TEXT NOT NULL
             CHECK (action IN ('created', 'updated', 'deleted', 'published', 'unpublished')),
           kind    TEXT NOT NULL,
           subject TEXT NOT NULL,
           before  TEXT, -- JSON; null for a creation
           after   TEXT  -- JSON; null for a deletion
         );
         -- An address changed at the desk keeps answering: the old slug leads to the new.
         CREATE TABLE renamed_slugs (
           kind     TEXT NOT NULL CHECK (kind IN ('tool', 'reviewer', 'category')),
           old_slug TEXT NOT NULL,
           new_slug TEXT NOT NULL,
           PRIMARY KEY (kind, old_slug)
         ) WITHOUT ROWID;
         CREATE INDEX renamed_slugs_by_new ON renamed_slugs (kind, new_slug);
         -- The editor's bottom line, shown on the comparison's page.
         ALTER TABLE comparisons ADD COLUMN bottom_line TEXT NOT NULL DEFAULT '';)",
      // 7: full-text search (/search, store/search.cpp) over tools' names, taglines and
      // descriptions and the panel's quotes. External-content FTS5 tables: the index holds
      // only its terms and reads the text itself from the tables when it makes an excerpt, so
      // no text is stored twice. (A contentless index cannot make excerpts, and SQLite 3.40,
      // Debian 12's, cannot delete from one.) The index reads the text through a view that
      // takes out \x01 and \x02, the characters a search result marks its matches with, so no
      // stored text can pass for a mark. Triggers keep the index in step inside the writing
      // transaction: an old text leaves the index before its row changes (read through the
      // same view, so exactly what was indexed), a new one enters after. Only a change of the
      // indexed text touches the index: a tool's tallies move on every vote. The existing rows
      // are indexed at the end.
      R"(CREATE VIEW tool_search_text AS
           SELECT id, replace(replace(name, char(1), ''), char(2), '') AS name,
                  replace(replace(tagline, char(1), ''), char(2), '') AS tagline,
                  replace(replace(description, char(1), ''), char(2), '') AS description
             FROM tools;
         CREATE VIRTUAL TABLE tool_search USING fts5 (
           name, tagline, description, content = 'tool_search_text', content_rowid = 'id',
           tokenize = 'unicode61 remove_diacritics 2');
         CREATE VIEW review_search_text AS
           SELECT id, replace(replace(quote, char(1), ''), char(2), '') AS quote FROM reviews;
         CREATE VIRTUAL TABLE review_search USING fts5 (
           quote, content = 'review_search_text', content_rowid = 'id',
           tokenize = 'unicode61 remove_diacritics 2');

         CREATE TRIGGER tool_search_learns AFTER INSERT ON tools BEGIN
           INSERT INTO tool_search (rowid, name, tagline, description)
             SELECT id, name, tagline, description FROM tool_search_text WHERE id = NEW.id;
         END;
         CREATE TRIGGER tool_search_forgets BEFORE DELETE ON tools BEGIN
           INSERT INTO tool_search (tool_search, rowid, name, tagline, description)
             SELECT 'delete', id, name, tagline, description FROM tool_search_text
              WHERE id = OLD.id;
         END;
         CREATE TRIGGER tool_search_unlearns BEFORE UPDATE OF id, name, tagline, description
           ON tools
           WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name
             OR OLD.tagline IS NOT NEW.tagline OR OLD.description IS NOT NEW.description
         BEGIN
           INSERT INTO tool_search (tool_search, rowid, name, tagline, description)
             SELECT 'delete', id, name, tagline, description FROM tool_search_text
              WHERE id = OLD.id;
         END;
         CREATE TRIGGER tool_search_relearns AFTER UPDATE OF id, name, tagline, description
           ON tools
           WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name
             OR OLD.tagline IS NOT NEW.tagline OR OLD.description IS NOT NEW.description
         BEGIN
           INSERT INTO tool_search (rowid, name, tagline, description)
             SELECT id, name, tagline, description FROM tool_search_text WHERE id = NEW.id;
         END;

         CREATE TRIGGER review_search_learns AFTER INSERT ON reviews BEGIN
           INSERT INTO review_search (rowid, quote)
             SELECT id, quote FROM review_search_text WHERE id = NEW.id;
         END;
         CREATE TRIGGER review_search_forgets BEFORE DELETE ON reviews BEGIN
           INSERT INTO review_search (review_search, rowid, quote)
             SELECT 'delete', id, quote FROM review_search_text WHERE id = OLD.id;
         END;
         CREATE TRIGGER review_search_unlearns BEFORE UPDATE OF id, quote ON reviews
           WHEN OLD.id IS NOT NEW.id OR OLD.quote IS NOT NEW.quote
         BEGIN
           INSERT INTO review_search (review_search, rowid, quote)
             SELECT 'delete', id, quote FROM review_search_text WHERE id = OLD.id;
         END;
         CREATE TRIGGER review_search_relearns AFTER UPDATE OF id, quote ON reviews
           WHEN OLD.id IS NOT NEW.id OR OLD.quote IS NOT NEW.quote
         BEGIN
           INSERT INTO review_search (rowid, quote)
             SELECT id, quote FROM review_search_text WHERE id = NEW.id;
         END;

         INSERT INTO tool_search (tool_search) VALUES ('rebuild');
         INSERT INTO review_search (review_search) VALUES ('rebuild');)",
      // 8: the weekly digest by mail: double opt-in, one-click unsubscribe, sends recorded.
      // An address is pending until its owner follows the confirmation mail's link; only
      // confirmed addresses get the digest. Addresses kept before confirmation existed never
      // confirmed, so they start pending too. confirmed_at says an address was ever
      // confirmed, so undoing an unsubscription gives back what it was and no more. Only a
      // hash of a confirmation token is kept (as for sessions), and kept after use so a second
      // click can say it was used. Resends are rationed per address (domain/subscription.h) by
      // the count and time of the last one.
      R"(ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
           CHECK (status IN ('pending', 'confirmed', 'unsubscribed'));
         ALTER TABLE subscribers ADD COLUMN confirm_hash TEXT;
         ALTER TABLE subscribers ADD COLUMN confirm_expires_at INTEGER; -- seconds since 1970
         ALTER TABLE subscribers ADD COLUMN confirmations_sent INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE subscribers ADD COLUMN confirmation_asked_at INTEGER; -- seconds since 1970
         ALTER TABLE subscribers ADD COLUMN confirmed_at INTEGER; -- seconds since 1970; NULL: never
         CREATE UNIQUE INDEX subscribers_by_confirm_hash ON subscribers (confirm_hash)
           WHERE confirm_hash IS NOT NULL;
         CREATE INDEX subscribers_by_status ON subscribers (status, id);
         -- Keys the site makes once and keeps: the unsubscribe links' MAC key. Apart from
         -- settings, which is content and goes out with `verdict export`.
         CREATE TABLE site_secrets (
           name  TEXT PRIMARY KEY,
           value TEXT NOT NULL CHECK (length(value) >= 32)
         ) WITHOUT ROWID;
         -- Confirmation mails owed: kept with the subscription in one transaction, so an
         -- acknowledged sign-up never loses its mail while the SMTP server is down; the server
         -- sends them from a thread of its own and retries. A mail refused for good (5xx) or
         -- too many times is given up: no next attempt, its last error kept for the desk.
         CREATE TABLE confirmation_outbox (
           subscriber_id   INTEGER PRIMARY KEY REFERENCES subscribers (id) ON DELETE CASCADE,
           attempts        INTEGER NOT NULL DEFAULT 0,
           next_attempt_at INTEGER, -- seconds since 1970; NULL: given up
           last_error      TEXT NOT NULL DEFAULT ''
         );
         CREATE INDEX confirmation_outbox_by_due ON confirmation_outbox (next_attempt_at);
         -- Each digest as the run that first made it recorded it: the comparisons it holds and
         -- the confirmed subscribers owed it then. A rerun resumes it as it was made, whatever
         -- was published or confirmed since; a comparison is in one digest at most (UNIQUE), so
         -- nobody gets the same comparison in two digests. `days` is the --since it was made for.
         CREATE TABLE digests (
           id         INTEGER PRIMARY KEY,
           created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
           days       INTEGER NOT NULL CHECK (days BETWEEN 1 AND 366)
         );
         CREATE TABLE digest_items (
           digest_id     INTEGER NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
           comparison_id INTEGER NOT NULL UNIQUE REFERENCES comparisons (id) ON DELETE CASCADE,
           PRIMARY KEY (digest_id, comparison_id)
         ) WITHOUT ROWID;
         -- Who is owed which digest, and who got it. A send is owed when the digest is made,
         -- claimed ('sending') before the message goes out and marked 'sent' once the SMTP
         -- server took it. One the server certainly did not take is owed again, or 'failed'
         -- (given up) after a permanent refusal or too many. A claim whose outcome is unknown
         -- (a run that died, a server that never answered after the whole message) stays
         -- 'sending' and is never sent again: nobody gets the same digest twice.
         CREATE TABLE digest_sends (
           digest_id     INTEGER NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
           subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
           state         TEXT NOT NULL DEFAULT 'owed'
             CHECK (state IN ('owed', 'sending', 'sent', 'failed')),
           attempts      INTEGER NOT NULL DEFAULT 0, -- refusals so far
           last_error    TEXT NOT NULL DEFAULT '',
           at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
           PRIMARY KEY (digest_id, subscriber_id)
         ) WITHOUT ROWID;
         CREATE INDEX digest_sends_by_state ON digest_sends (digest_id, state, subscriber_id);
         CREATE INDEX digest_sends_by_subscriber ON digest_sends (subscriber_id);)",
      // 9: counted, not just cast (domain/counting.h). Every vote stays stored with the
      // network it came from (a keyed hash, never the address) and, when the counting rule
      // kept it out of the numbers, why: set_aside is NULL for a counted vote. The tallies
      // count counted votes only and keep the set-aside ones by reason beside them, still in
      // the writing transaction. Votes cast before the rule have no network and stay counted.
      // counted_voters holds, per UTC day, network and target, the voters whose votes were
      // counted: what the rule reads; days before today are dropped as votes come in.
      R"(ALTER TABLE tool_votes ADD COLUMN network TEXT;
         ALTER TABLE tool_votes ADD COLUMN set_aside TEXT
           CHECK (set_aside IS NULL OR set_aside IN ('network', 'too_fast'));
         ALTER TABLE pair_votes ADD COLUMN network TEXT;
         ALTER TABLE pair_votes ADD COLUMN set_aside TEXT
           CHECK (set_aside IS NULL OR set_aside IN ('network', 'too_fast'));
         ALTER TABLE tools ADD COLUMN community_set_aside_network INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE tools ADD COLUMN community_set_aside_too_fast INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE pair_tallies ADD COLUMN set_aside_network INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE pair_tallies ADD COLUMN set_aside_too_fast INTEGER NOT NULL DEFAULT 0;
         CREATE TABLE counted_voters (
           day     TEXT NOT NULL, -- YYYY-MM-DD, UTC
           network TEXT NOT NULL,
           target  TEXT NOT NULL, -- 'tool:12', 'pair:3-7' (auth/vote_tokens.h)
           voter   TEXT NOT NULL,
           PRIMARY KEY (day, network, target, voter)
         ) WITHOUT ROWID;

         DROP TRIGGER tool_vote_counted;
         DROP TRIGGER tool_vote_recounted;
         DROP TRIGGER tool_vote_uncounted;
         CREATE TRIGGER tool_vote_counted AFTER INSERT ON tool_votes BEGIN
           UPDATE tools
              SET community_votes = community_votes + (NEW.set_aside IS NULL),
                  community_ships = community_ships + (NEW.set_aside IS NULL AND NEW.verdict = 'ship'),
                  community_set_aside_network = community_set_aside_network + (NEW.set_aside IS 'network'),
                  community_set_aside_too_fast = community_set_aside_too_fast + (NEW.set_aside IS 'too_fast')
            WHERE id = NEW.tool_id;
         END;
         CREATE TRIGGER tool_vote_recounted AFTER UPDATE OF verdict, set_aside ON tool_votes BEGIN
           UPDATE tools
              SET community_votes = community_votes - (OLD.set_aside IS NULL) + (NEW.set_aside IS NULL),
                  community_ships = community_ships - (OLD.set_aside IS NULL AND OLD.verdict = 'ship')
                                                   + (NEW.set_aside IS NULL AND NEW.verdict = 'ship'),
                  community_set_aside_network = community_set_aside_network
                    - (OLD.set_aside IS 'network') + (NEW.set_aside IS 'network'),
                  community_set_aside_too_fast = community_set_aside_too_fast
                    - (OLD.set_aside IS 'too_fast') + (NEW.set_aside IS 'too_fast')
            WHERE id = NEW.tool_id;
         END;
         CREATE TRIGGER tool_vote_uncounted AFTER DELETE ON tool_votes BEGIN
           UPDATE tools
              SET community_votes = community_votes - (OLD.set_aside IS NULL),
                  community_ships = community_ships - (OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
                  community_set_aside_network = community_set_aside_network - (OLD.set_aside IS 'network'),
                  community_set_aside_too_fast = community_set_aside_too_fast - (OLD.set_aside IS 'too_fast')
            WHERE id = OLD.tool_id;
         END;

         DROP TRIGGER pair_vote_counted;
         DROP TRIGGER pair_vote_recounted;
         DROP TRIGGER pair_vote_uncounted;
         CREATE TRIGGER pair_vote_counted AFTER INSERT ON pair_votes BEGIN
           INSERT INTO pair_tallies (low_tool_id, high_tool_id, low_picks, high_picks,
                                     set_aside_network, set_aside_too_fast)
           VALUES (NEW.low_tool_id, NEW.high_tool_id,
                   NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id,
                   NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id,
                   NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast')
           ON CONFLICT (low_tool_id, high_tool_id) DO UPDATE
             SET low_picks = low_picks + excluded.low_picks,
                 high_picks = high_picks + excluded.high_picks,
                 set_aside_network = set_aside_network + excluded.set_aside_network,
                 set_aside_too_fast = set_aside_too_fast + excluded.set_aside_too_fast;
         END;
         CREATE TRIGGER pair_vote_recounted AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
         BEGIN
           UPDATE pair_tallies
              SET low_picks = low_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id)
                                        + (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id),
                  high_picks = high_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id)
                                          + (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id),
                  set_aside_network = set_aside_network
                    - (OLD.set_aside IS 'network') + (NEW.set_aside IS 'network'),
                  set_aside_too_fast = set_aside_too_fast
                    - (OLD.set_aside IS 'too_fast') + (NEW.set_aside IS 'too_fast')
            WHERE low_tool_id = NEW.low_tool_id AND high_tool_id = NEW.high_tool_id;
         END;
         CREATE TRIGGER pair_vote_uncounted AFTER DELETE ON pair_votes BEGIN
           UPDATE pair_tallies
              SET low_picks = low_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
                  high_picks = high_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
                  set_aside_network = set_aside_network - (OLD.set_aside IS 'network'),
                  set_aside_too_fast = set_aside_too_fast - (OLD.set_aside IS 'too_fast')
            WHERE low_tool_id = OLD.low_tool_id AND high_tool_id = OLD.high_tool_id;
         END;)",
  };
}

// ":memory:" would give every connection its own empty database; a named shared-cache memory
// database lets the readers and the writer see the same one.
std::string connection_path(const std::string &path) {
  if (path != ":memory:") return path;
  static std::atomic<int> counter{0};
  return "file:verdict-memory-" + std::to_string(++counter) + "?mode=memory&cache=shared";
}

void configure_writer(sql::Db &db, bool in_memory) {
  if (!in_memory) {
    db.exec("PRAGMA journal_mode = WAL");
    // FULL: the WAL is synced at every commit, so an acknowledged write survives power loss.
    db.exec("PRAGMA synchronous = FULL");
  }
  db.exec("PRAGMA foreign_keys = ON");
}

void upgrade_schema(sql::Db &db) {
  const auto steps = migrations();
  // Read and finished before any step runs: a statement still open on the connection
  // would make a DROP in a step fail with "database table is locked".
  const auto version = [&db] {
    auto stmt = db.prepare("PRAGMA user_version");
    stmt.step();
    return static_cast<size_t>(stmt.int64(0));
  }();
  if (version == 0) {
    // A new file is empty; a file with tables but no schema version is someone else's.
    auto tables = db.prepare("SELECT count(*) FROM sqlite_schema");
    tables.step();
    if (tables.int64(0) != 0)
      throw std::runtime_error("the database file holds tables but not Verdict's: it is not a "
                               "Verdict database");
  }
  if (version > steps.size())
    throw std::runtime_error("database schema version " + std::to_string(version) +
                             " is newer than this verdict (" + std::to_string(steps.size()) + ")");
  for (auto step = version; step < steps.size(); ++step) {
    sql::Transaction tx(db);
    db.exec(steps[step]);
    db.exec("PRAGMA user_version = " + std::to_string(step + 1));
    tx.commit();
  }
}

} // namespace

struct Store::ReaderPool {
  std::string path;
  std::mutex mutex;
  std::vector<std::unique_ptr<sql::Db>> idle;
};

Store::ReaderLease::~ReaderLease() {
  if (!db) return;
  std::lock_guard lock(pool->mutex);
  pool->idle.push_back(std::move(db));
}

Store::ReaderLease Store::lease_reader() {
  {
    std::lock_guard lock(readers_->mutex);
    if (!readers_->idle.empty()) {
      auto db = std::move(readers_->idle.back());
      readers_->idle.pop_back();
      return {readers_.get(), std::move(db)};
    }
  }
  // A reader opens the file the site opened and no other: never one made anew where it was
  // deleted, nor a replacement beside the old file's log (store/database_file.h).
  if (auto problem = file_problem(); !problem.empty()) throw StoreUnavailable(problem);
  auto db = std::make_unique<sql::Db>(readers_->path, sql::Db::Open::existing);
  if (auto problem = file_problem(); !problem.empty()) throw StoreUnavailable(problem);
  db->exec("PRAGMA query_only = ON"); // every write goes through the writer
  // The writer alone copies the log into the file, so the record of whose log it is stays
  // true (store/database_file.h).
  sqlite3_db_config(db->handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  return {readers_.get(), std::move(db)};
}

// The one writer. Writes queue up while a commit is in flight; the next transaction takes all
// of them, each in its own savepoint, and one fsync makes the whole batch durable before any
// of its callers hears back.
struct Store::Writer {
  // How a write ended, told back as a value: the caller's thread raises the matching
  // exception itself, so no exception object is ever shared between threads.
  struct Outcome {
    enum class Kind { written, not_found, already_exists, refused, unavailable, failed };
    Kind kind = Kind::written;
    std::string message;
  };
  struct Job {
    std::function<void(sql::Db &)> change;
    std::promise<Outcome> done;
  };

  static Outcome outcome_of(std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const NotFound &e) {
      return {Outcome::Kind::not_found, e.what()};
    } catch (const AlreadyExists &e) {
      return {Outcome::Kind::already_exists, e.what()};
    } catch (const Refused &e) {
      return {Outcome::Kind::refused, e.what()};
    } catch (const std::exception &e) {
      return {Outcome::Kind::failed, e.what()};
    } catch (...) {
      return {Outcome::Kind::failed, "unknown error"};
    }
  }

  explicit Writer(const std::string &path, std::atomic<uint64_t> &generation, bool in_memory,
                  std::function<std::string()> file_problem)
      : db(path), path_(path), generation_(generation), file_problem_(std::move(file_problem)) {
    configure_writer(db, in_memory);
    upgrade_schema(db);
    // The writer copies the log into the file itself, recording that it does
    // (store/database_file.h), instead of SQLite doing it unannounced inside a commit.
    sqlite3_wal_hook(db.handle(), &Writer::count_log_frames, this);
    database_file::note_settled(path_);
    seen_version_ = data_version(); // before the thread starts, so no change is missed
    thread = std::thread([this] { run(); });
  }

  ~Writer() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
    // Everything into the file before it closes, so no log is left beside it. The last
    // connection's close would do the same, unrecorded.
    if (file_problem_().empty()) checkpoint("TRUNCATE");
  }

  static int count_log_frames(void *writer, sqlite3 *, const char *, int frames) {
    static_cast<Writer *>(writer)->log_frames_ = frames;
    return SQLITE_OK;
  }

  // Copies what the log holds into the file, recorded before and after; PASSIVE copies
  // what no reader still needs, TRUNCATE all of it and empties the log.
  void checkpoint(const char *mode) {
    try {
      database_file::note_checkpoint_starting(path_);
      db.exec(std::string("PRAGMA wal_checkpoint(") + mode + ")");
      database_file::note_settled(path_);
      log_frames_ = 0;
    } catch (const std::exception &e) {
      std::cerr << "verdict: copying the log into " << path_ << ": " << e.what() << "\n";
    }
  }

  // When the file was deleted, moved or replaced: every write acknowledged so far is copied
  // into the file that was served (still open here), once, and the log tells where it is.
  void keep_acknowledged_writes_in_the_served_file(const std::string &problem) {
    if (served_file_closed_) return;
    served_file_closed_ = true;
    try {
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      std::cerr << "verdict: " << problem << "; every write acknowledged before is in the file "
                << "that was served: " << served_file_name() << "\n";
    } catch (const std::exception &e) {
      std::cerr << "verdict: " << problem << "; the writes acknowledged before are in the log "
                << path_ << "-wal (" << e.what() << ")\n";
    }
  }

  // Where the file this connection has open is now: its new name when it was moved, or its
  // old name followed by "(deleted)".
  std::string served_file_name() {
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
      struct stat open_file {};
      if (stat(entry.path().c_str(), &open_file) != 0 || open_file.st_dev != served_.device ||
          open_file.st_ino != served_.inode)
        continue;
      const auto name = std::filesystem::read_symlink(entry.path(), error);
      if (!error) return name.string();
    }
    return path_ + " (deleted)";
  }

  void submit(std::function<void(sql::Db &)> change) {
    Job job{std::move(change), {}};
    auto done = job.done.get_future();
    {
      std::lock_guard lock(mutex);
      queue.push_back(std::move(job));
    }
    wake.notify_one();
    const auto outcome = done.get();
    switch (outcome.kind) {
    case Outcome::Kind::written:
      return;
    case Outcome::Kind::not_found:
      throw NotFound(outcome.message);
    case Outcome::Kind::already_exists:
      throw AlreadyExists(outcome.message);
    case Outcome::Kind::refused:
      throw Refused(outcome.message);
    case Outcome::Kind::unavailable:
      throw StoreUnavailable(outcome.message);
    case Outcome::Kind::failed:
      throw std::runtime_error(outcome.message);
    }
  }

  void run() {
    for (;;) {
      std::deque<Job> batch;
      {
        std::unique_lock lock(mutex);
        wake.wait_for(lock, kForeignWriteCheck, [&] { return stopping || !queue.empty(); });
        if (stopping && queue.empty()) return; // nothing left to write
        batch.swap(queue);
      }
      if (!batch.empty()) commit(batch);
      notice_foreign_writes();
    }
  }

  // Writes by other processes (`verdict import`) move the write generation too, so cached
  // pages are rendered anew. Asked on the writer's own connection, whose data_version moves
  // only for commits by other connections: the writer's own commits, already counted, would
  // otherwise move it a second time a moment later and throw away pages rendered since.
  void notice_foreign_writes() {
    try {
      const auto now = data_version();
      if (now != seen_version_) generation_.fetch_add(1, std::memory_order_release);
      seen_version_ = now;
    } catch (const std::exception &) {
      // An unreadable file shows as a file problem in /healthz and refuses the next write.
    }
  }
  int64_t data_version() {
    auto version = db.cached("PRAGMA data_version");
    version.step();
    return version.int64(0);
  }
  static constexpr auto kForeignWriteCheck = std::chrono::milliseconds(250);

  void commit(std::deque<Job> &batch) {
    // A file deleted, moved or replaced under us would take the write and lose it, or
    // corrupt what is there now: refuse before anything is acknowledged.
    if (auto problem = file_problem_(); !problem.empty()) {
      keep_acknowledged_writes_in_the_served_file(problem);
      for (auto &job : batch)
        job.done.set_value({Outcome::Kind::unavailable, problem});
      return;
    }
    std::vector<std::exception_ptr> failures(batch.size());
    try {
      sql::Transaction tx(db);
      for (size_t i = 0; i < batch.size(); ++i) {
        sql::Savepoint savepoint(db);
        try {
          batch[i].change(db);
          savepoint.release();
        } catch (...) {
          failures[i] = std::current_exception();
        }
      }
      tx.commit();
    } catch (...) {
      const auto failed = outcome_of(std::current_exception());
      for (auto &job : batch)
        job.done.set_value(failed);
      return;
    }
    generation_.fetch_add(1, std::memory_order_release);
    if (log_frames_ >= kCheckpointFrames) checkpoint("PASSIVE");
    for (size_t i = 0; i < batch.size(); ++i)
      batch[i].done.set_value(failures[i] ? outcome_of(failures[i]) : Outcome{});
  }

  // SQLite's own default for copying the log into the file (about 4 MiB of pages).
  static constexpr int kCheckpointFrames = 1000;

  sql::Db db;
  std::string path_;
  database_file::Identity served_ =
      database_file::identity_of(path_).value_or(database_file::Identity{});
  int log_frames_ = 0; // pages in the log since it was last copied into the file
  bool served_file_closed_ = false;
  std::atomic<uint64_t> &generation_;
  int64_t seen_version_ = 0;                  // PRAGMA data_version when last asked
  std::function<std::string()> file_problem_; // "" while the file is the one opened
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> queue;
  bool stopping = false;
  std::thread thread;
};

// For a file database: the identity of the file opened, checked before every write and four
// times a second, so an operator who deleted or replaced it is told once, in the log.
struct Store::Watcher {
  explicit Watcher(const std::string &file) : path(file) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) throw std::runtime_error("cannot stat " + path);
    device = info.st_dev;
    inode = info.st_ino;
    thread = std::thread([this] { run(); });
  }

  ~Watcher() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
  }

  std::string file_problem() const {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0)
      return "the database file " + path + " is gone (deleted or moved)";
    if (info.st_dev != device || info.st_ino != inode)
      return "the database file " + path + " was replaced by another file";
    return {};
  }

  void run() {
    bool reported = false;
    std::unique_lock lock(mutex);
    while (!wake.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping; })) {
      const auto problem = file_problem();
      if (!problem.empty() && !reported)
        std::cerr << "verdict: " << problem << "; writes are refused until it is restarted\n";
      reported = !problem.empty();
    }
  }

  std::string path;
  dev_t device;
  ino_t inode;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
};

Store::Store(const std::string &path)
    : path_(connection_path(path)), page_starts_(std::make_unique<PageStartMemos>()) {
  readers_ = std::make_unique<ReaderPool>();
  readers_->path = path_;
  const bool in_memory = path == ":memory:";
  if (!in_memory) {
    database_file::refuse_what_is_not_a_database(path_);
    if (auto set_aside = database_file::set_aside_a_foreign_log(path_); !set_aside.empty())
      std::cerr << "verdict: " << set_aside << "\n";
  }
  writer_ =
      std::make_unique<Writer>(path_, generation_, in_memory, [this] { return file_problem(); });
  if (!in_memory) watcher_ = std::make_unique<Watcher>(path_);
}

void Store::rethrow_read_failure(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const sql::Error &e) {
    switch (e.code & 0xff) { // the primary result code
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_BUSY:
      throw StoreUnavailable(std::string("the database cannot be read: ") + e.what());
    default:
      throw;
    }
  }
}

std::string Store::file_problem() const {
  return watcher_ ? watcher_->file_problem() : std::string();
}

std::string Store::health_problem() {
  if (watcher_)
    if (auto problem = watcher_->file_problem(); !problem.empty()) return problem;
  std::lock_guard lock(health_mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - health_checked_ < std::chrono::seconds(1)) return health_;
  health_checked_ = now;
  try {
    write([](sql::Db &db) {
      db.cached("INSERT INTO health (id, checked_at) VALUES (1, datetime('now')) "
                "ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at")
          .run();
    });
    health_.clear();
  } catch (const std::exception &e) {
    health_ = std::string("the database cannot take a write: ") + e.what();
  }
  return health_;
}

Store::~Store() {
  watcher_.reset();
  readers_.reset();
  writer_.reset();
  database_file::forget_when_no_log(path_); // the last connection closed
}

void Store::write(std::function<void(sql::Db &)> change) {
  writer_->submit(std::move(change));
}

bool Store::has_content() {
  return read([](sql::Db &db) { return db.cached("SELECT 1 FROM tools LIMIT 1").step(); });
}

Durability Store::durability() {
  Durability settings;
  write([&](sql::Db &db) {
    auto journal = db.prepare("PRAGMA journal_mode");
    if (journal.step()) settings.journal_mode = journal.text(0);
    auto synchronous = db.prepare("PRAGMA synchronous");
    if (synchronous.step()) settings.synchronous = static_cast<int>(synchronous.int64(0));
  });
  return settings;
}

int64_t list_version(sql::Db &db, const char *list) {
  auto stmt = db.cached("SELECT version FROM list_versions WHERE list = :list");
  stmt.bind(":list", list);
  if (!stmt.step()) throw std::runtime_error(std::string("no version for list ") + list);
  return stmt.int64(0);
}

int Store::latest_schema_version() {
  return static_cast<int>(migrations().size());
}

int Store::schema_version() {
  return read([](sql::Db &db) {
    auto stmt = db.cached("PRAGMA user_version");
    stmt.step();
    return static_cast<int>(stmt.int64(0));
  });
}

} // namespace verdict
