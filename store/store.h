// The store: the site's data over its engine (store/engine.h). StoreReads is every read of
// it, each aggregate's defined in the aggregate's own file (store/tools.cpp…) beside its
// writes (store/aggregate_writes.h): the read-only view a handler is given, which cannot write
// (a handler writes by submitting a Write: store/site_writes.h). A page reads through a
// StoreMoment, one read transaction for the whole answer. Store owns the engine and the
// caches the reads keep, and has a short way to apply each write now, for the commands that
// run on the file and the tests. Long because every read is declared here, each group under
// its own comment.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/clock.h"
#include "domain/content.h"
#include "domain/directory.h"
#include "domain/model.h"
#include "domain/name_index.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"
#include "domain/writes.h"
#include "store/engine.h"
#include "store/kept_by_version.h"
#include "store/vote_log.h"

namespace verdict {

namespace sql {
class Db;
}
struct VoteEvent;  // domain/tallies.h
struct VoteTarget; // domain/tallies.h
struct DayTally;   // domain/tallies.h

class Store;

// Every read of the site's data. Read through a Store, each read takes a connection of its
// own; through a StoreMoment, all of them run in its one read transaction.
class StoreReads {
public:
  // The site's date (YYYY-MM-DD) as the store reads it: a comparison published on a later
  // date is scheduled, and readers see it from that day on. UTC today unless set
  // (Store::set_today: a test's fake one; the site runs on UTC).
  std::string today() const;
  // Increases after every committed write; caches of rendered pages key on it.
  uint64_t generation() const;
  // Increases after every committed write but a vote's (tools, comparisons, the site's words…),
  // and any write by another process: what a vote reads of the catalogue is kept under it.
  uint64_t catalogue_generation() const;
  int schema_version();
  // Whether the database can take a write now (Engine::health_problem): "" when healthy.
  std::string health_problem();
  // How many reads have taken a connection since the store opened (Engine::reads_taken).
  uint64_t reads_taken() const;

  // The site as a whole (store/site.cpp): its copy, every address a search engine should
  // know (the lists, each published comparison with its date, each tool and each reviewer),
  // votes and picks standing now (summed from the tallies) with the database's size on disk,
  // and the desk's counts of everything.
  SiteCopy site_copy();
  std::vector<SitemapEntry> sitemap_entries();
  StoreFigures figures();
  DeskCounts desk_counts();

  // The editor's changes below are each written with its edit log entry, in `editor`'s name;
  // a change that changes nothing is not logged.

  // Categories (store/categories.cpp).
  std::optional<CategoryListing> category_by_slug(std::string_view slug); // with its tool count
  std::vector<CategoryListing> categories_with_tool_counts();             // by name
  std::optional<ContentCategory> category(std::string_view slug);

  // Tools (store/tools.cpp)
  std::optional<Tool> tool_by_slug(std::string_view slug);
  std::vector<Tool> tools_by_name(); // every tool (tests' check; pages read a page at a time)
  // Every tool's slug, by id: read again only when the tools' list has changed (a tool added,
  // removed or renamed), so a large site's open data does not read ten thousand rows for it.
  std::shared_ptr<const ToolSlugs> tool_slugs();
  Paged<Tool> tools_by_name(PageSpan span);
  // The desk's list narrowed: the tools whose name, address, tagline or vendor holds `words`
  // (queries::holding), by name.
  Paged<Tool> tools_holding(std::string_view words, PageSpan span);
  Paged<Tool> tools_in_category(std::string_view category_slug, PageSpan span); // by name
  // The directory in the order and with the filters a reader asked for (domain/directory.h).
  Paged<Tool> tool_directory(const DirectoryQuery &query, PageSpan span);
  // What a tool's alternatives are weighed on (domain/alternatives.h): at most `most` candidates.
  std::optional<AlternativesData> alternatives(std::string_view slug, size_t most);
  // The newest published comparisons with a tool of the category on either side.
  std::vector<ComparisonSummary> comparisons_in_category(std::string_view category_slug,
                                                         int64_t limit);
  // A tool page: `span` pages both its reviews and its comparisons; the other tools are listed
  // for the compare-with picker only while there are at most `picker_limit` of them. The page
  // is everyone's: a voter's own vote is read apart (voter_choices_on_tool).
  std::optional<ToolDetail> tool_detail(std::string_view slug, PageSpan span, int picker_limit);
  // A tool in the content file's terms. Deleting one deletes its reviews, votes and
  // comparisons with it; a changed slug leaves the old address leading to the new.
  std::optional<ContentTool> tool_content(std::string_view slug);
  // The tools whose name is exactly `name`: the desk warns before a second one is saved.
  std::vector<ContentTool> tools_named(std::string_view name);

  // Reviews (store/reviews.cpp)
  Paged<Review> reviews_by_reviewer(int64_t reviewer_id, PageSpan span); // by tool name
  // Reviews at the desk, named by their tool and reviewer; the desk lists the newest first.
  // Creating or moving a review onto a tool its reviewer already reviewed is refused
  // (already_exists).
  std::optional<ContentReview> review_content(std::string_view tool, std::string_view reviewer);
  // Narrowed by `words` (queries::holding) in the tool's or reviewer's name, the verdict or
  // the quote.
  Paged<ContentReview> reviews_at_desk(PageSpan span, std::string_view words = {});

  // Reviewers (store/reviewers.cpp)
  std::vector<Reviewer> reviewers(); // the whole panel, in panel order
  Paged<Reviewer> reviewers(PageSpan span);
  std::optional<Reviewer> reviewer_by_slug(std::string_view slug);
  // A new one joins the end of the panel; deleting one deletes their reviews.
  std::optional<ContentReviewer> reviewer_content(std::string_view slug);

  // Comparisons (store/comparisons.cpp)
  Paged<ComparisonSummary> published_comparisons(PageSpan span); // newest first
  // Just the pair an address names: its tools (in the address's order) and the editor's
  // record; sets `canonical_order` to false when the address is the pair's other order.
  // The three or four tools an address names side by side (domain/model.h SideBySide).
  SideBySideLookup side_by_side(std::string_view address);
  std::optional<Comparison> resolve_pair(std::string_view pair_slug, bool &canonical_order);
  // Reads a pair page for `pair_slug` ("<a>-vs-<b>", where either slug may contain "-vs-");
  // empty when the slug names no two distinct tools. `span` pages both tools' reviews. The
  // page is everyone's: a voter's own votes are read apart (voter_choices).
  std::optional<ComparisonDetail> comparison_detail(std::string_view pair_slug, PageSpan span = {},
                                                    Drafts drafts = Drafts::hidden);
  // The editor's comparisons, named by their desk address "a-vs-b" in the editor's order.
  // Publishing sets the date; a comparison without one is a draft. The log says "published"
  // or "unpublished" beside the change itself.
  std::optional<ContentComparison> comparison_content(std::string_view pair);
  // Drafts first, then the newest; narrowed by `words` (queries::holding) in either tool's
  // name, the intro or the bottom line.
  Paged<ContentComparison> comparisons_at_desk(PageSpan span, std::string_view words = {});

  // Old addresses of renamed items (store/renames.cpp).
  // Where an item's old address leads since it was renamed ("tool", "reviewer", "category").
  std::optional<std::string> renamed_slug(std::string_view kind, std::string_view slug);
  // A comparison's address with renamed tools' old slugs in it, as it reads now; empty when
  // no renamed tool is in it.
  std::optional<std::string> pair_after_renames(std::string_view pair);

  // Feeds (store/feeds.cpp), each of at most `limit` published comparisons, newest first.
  std::vector<FeedEntry> latest_comparisons_feed(int limit);
  // The comparisons the tool is in; empty when no tool has the slug.
  std::optional<ToolFeed> tool_feed(std::string_view slug, int limit);
  // The comparisons of a tool the reviewer reviewed, with their reviews of both tools; empty
  // when no reviewer has the slug.
  std::optional<ReviewerFeed> reviewer_feed(std::string_view slug, int limit);
  // Full-text search (store/search.cpp) over tools' names, taglines and descriptions and the
  // panel's quotes: tools named by the words first, then the tools whose other texts hold
  // them, then quotes (docs/PAGES.md, "Search", says the rules). Any text is safe: it is read
  // as words to find, each word required and the last also as the start of a longer word; no
  // text is taken as FTS5 query syntax. A word no text holds is read as the name's word it is
  // a typo of, unless `as` says typed. No words, no results.
  SearchResults search(std::string_view text, PageSpan span, SearchAs as = SearchAs::meant);
  // Every tool's name as search reads it, kept until a tool is added, removed or renamed.
  std::shared_ptr<const NameIndex> tool_names();

  // Votes (store/votes.cpp)
  VoterChoices voter_choices(std::string_view voter, int64_t a_id, int64_t b_id);
  // A voter's vote on one tool and its standing, as on_a and on_a_standing.
  VoterChoices voter_choices_on_tool(std::string_view voter, int64_t tool_id);
  // The tool a vote sent to /tools/<slug>/vote is for: under `slug`, or, for an address it
  // had before a rename (the page was read before it), under its address now. Read in one
  // go and without the tool's text: every vote asks.
  std::optional<ToolKey> tool_to_vote_on(std::string_view slug);
  // A node of a cluster applies the cluster's writes in their stream's order
  // (store/apply_write.h apply_entry): the sequence of the last one applied to this file (0:
  // none).
  uint64_t applied_sequence();
  // The entries of the stream this file skipped as not the cluster's (app/stream_follower.h),
  // and the sequence of the last.
  struct SkippedEntries {
    uint64_t count = 0, last = 0;
  };
  SkippedEntries skipped_entries();
  // The vote log (store/vote_log.h): its entries from leaf `from` on, at most `limit`, and its
  // size and root now.
  std::vector<VoteLogEntry> vote_log(uint64_t from, size_t limit);
  VoteLogHead vote_log_head(); // from every row: tests' check of the log the site keeps
  uint64_t vote_log_size();
  bool votes_waiting(); // for the next batch of the log (migrations/0022-vote-batches.sql)
  std::optional<Checkpoint> latest_checkpoint();
  std::vector<Checkpoint> latest_checkpoints(int limit); // newest first
  // RFC 6962 proofs in the tree of the first `size` leaves, for sizes up to the last seal;
  // NotFound past it, or for a leaf or an older size the tree does not have.
  std::vector<merkle::Hash> inclusion_proof(uint64_t leaf, uint64_t size);
  std::vector<merkle::Hash> consistency_proof(uint64_t old_size, uint64_t size);
  // The voter's receipts: their current vote on each tool and pair, latest first.
  std::vector<VoteReceipt> vote_receipts(std::string_view voter);
  // Every entry of the log in leaf order, read as the tallies' replay needs it
  // (domain/tallies.h), one at a time: the log is never held whole. Returns how many.
  uint64_t vote_events(const std::function<void(const VoteEvent &)> &each);
  // The same figures as that replay, as the file keeps them with each vote
  // (migrations/0016-tally-changes.sql): a read of a row per target per day, not of the log.
  TalliesByDay tallies_by_day();
  // Its rows one at a time, in that order, for an answer that need not hold them all.
  void each_tally_day(const std::function<void(const VoteTarget &, const DayTally &)> &each);

  // Subscribers (store/subscribers.cpp). Times are seconds since 1970.
  // Confirmation mails owed whose time has come, the longest waiting first.
  std::vector<ConfirmationDue> confirmations_due(int64_t now, int64_t limit);
  // What the confirmation link with this token's hash finds; confirming writes only when
  // it is confirmable, and returns what it found either way.
  ConfirmationCheck confirmation(std::string_view token_hash, int64_t now);
  // The secret kept under `name`, if any; and `value` kept under it in place of any before (a
  // cluster node's, from the cluster's key: the same on every node, so never through the
  // stream).
  std::optional<std::string> kept_site_secret(std::string_view name);
  SubscriberCounts subscriber_counts();
  // Newest first, with their mail problems; narrowed to addresses holding `words`.
  Paged<Subscriber> subscribers(PageSpan span, std::string_view words = {});
  std::vector<Subscriber> all_subscribers(); // in the order they subscribed
  std::optional<Subscriber> subscriber(int64_t id);

  // Editors and their sessions (store/editors.cpp). Addresses are kept in lower case;
  // `email` arguments may be in any case.
  std::vector<Editor> editors(); // in the order they were added
  std::optional<Editor> editor_by_email(std::string_view email);
  // The session kept under `secret_hash`, unless it expired by `now` (seconds since 1970).
  std::optional<EditorSession> session(std::string_view secret_hash, int64_t now);

  // The edit log (store/edit_log.cpp), newest first; narrowed to the entries whose editor,
  // action, kind, subject or item before or after holds `words` (queries::holding).
  Paged<EditEntry> edit_log(PageSpan span, std::string_view words = {});

  // Content as a file (store/content.cpp)
  Content export_content();

protected:
  StoreReads(Store &store, Engine::Moment *moment) : store_(store), moment_(moment) {}
  ~StoreReads() = default;
  StoreReads(const StoreReads &) = delete;
  StoreReads &operator=(const StoreReads &) = delete;
  // Runs `query` on a read-only connection: this view's moment's, or one of its own.
  template <class F> auto read(F &&query);
  // tool_names() as read on `db`, inside its read transaction (store/search.cpp).
  std::shared_ptr<const NameIndex> tool_names_in(sql::Db &db);
  Store &store_;

private:
  friend class StoreMoment;
  Engine::Moment *moment_; // none: each read on a connection of its own
};

// One moment of the site's data for a whole answer: every read made through it runs on one
// connection inside one read transaction, so the parts of a page, its site copy included,
// never mix two moments and the page costs one read. The connection is leased at the first
// read: an answer that reads nothing costs nothing.
class StoreMoment : public StoreReads {
public:
  explicit StoreMoment(StoreReads &reads)
      : StoreReads(reads.store_, &moment_), moment_(engine_of(reads)) {}

private:
  static Engine &engine_of(StoreReads &reads);
  Engine::Moment moment_;
};

class Store : public StoreReads {
public:
  // Opens the database at `path` (Engine: its schema made or brought up to date, read-only
  // when it cannot be written). `clock`: the site's (domain/clock.h), whose date is the site's
  // date unless a test sets one.
  explicit Store(const std::string &path, Clock clock = {});
  ~Store();

  void set_today(std::function<std::string()> today);
  // A write taken at `at_ms` (the site's clock, domain/clock.h), with the site's date then (a
  // test's, when set_today gave one): the context a lone server's writes apply with
  // (store/apply_write.h).
  WriteContext context_at(int64_t at_ms) const;

  // The weekly digest (store/digests.cpp, which says how digests are made and resumed).
  // The digest a run sends now: the latest one while confirmed subscribers are still owed it
  // (resumed as it was made), else a new one of the comparisons published in the `days` days
  // up to `today` (YYYY-MM-DD) that no digest held yet, owed to every confirmed subscriber.
  // Nothing new: no items. Nobody confirmed: no recipients. A run records it first
  // (RecordDigest, through its writes); a dry run only looks.
  Digest digest_to_send(std::string_view today, int days);
  // Seals the vote log as it stands (hashes its new leaves and the subtrees they complete) and
  // keeps a checkpoint of it, signed with `signing_key` (auth/log_signing.h), made at `now`.
  Checkpoint make_checkpoint(std::string_view signing_key, int64_t now);
  // The site's key for signing checkpoints, made at the first call and kept in the database.
  std::string log_signing_key();
  // The secret kept under `name`, keeping `if_new` first when there is none yet; and `value`
  // kept under it in place of any before (a cluster node's, from the cluster's key: the same
  // on every node, so never through the stream).
  std::string site_secret(std::string_view name, std::string_view if_new);
  void keep_site_secret(std::string_view name, std::string_view value);
  // Loads votes in bulk through the same tables, keys and tally triggers as single votes,
  // a few large transactions at a time; a vote on a tool or pair already voted by the same
  // voter replaces it. Throws NotFound for a tool slug the site does not have.
  void load_votes(const VoteLoad &votes);

  // A read of SQL of the caller's own (the tests' checks); and the engine's writes
  // (store/apply_write.cpp applies every Write through them).
  using StoreReads::read;
  void write(std::function<void(sql::Db &)> change) { engine_.write(std::move(change)); }
  void write_then(std::function<WriteResult(sql::Db &)> change, WriteDone done,
                  Changes changes = Changes::anything) {
    engine_.write_then(std::move(change), std::move(done), changes);
  }

private:
  friend class StoreReads;
  friend class StoreMoment;
  const Clock clock_; // before the engine, whose statements may ask the date as it opens
  mutable std::mutex today_mutex_;
  std::function<std::string()> today_;
  Engine engine_;
  // What the reads keep between answers, each retired as its comment in store/ says.
  std::mutex last_site_copy_mutex_;
  std::optional<SiteCopy> last_site_copy_; // the last read, served when a read fails
  KeptByVersion<ToolSlugs> tool_slugs_;    // as of the tools_by_name list's version
  KeptByVersion<NameIndex> tool_names_;    // search's, as of the same
  struct VoteTargets;                      // store/vote_targets.h
  std::unique_ptr<VoteTargets> vote_targets_;
  struct PageStartMemos; // store/page_starts.h
  std::unique_ptr<PageStartMemos> page_starts_;
};

template <class F> auto StoreReads::read(F &&query) {
  return store_.engine_.read(std::forward<F>(query), moment_);
}

} // namespace verdict
