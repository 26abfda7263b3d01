// The store: every read and write of Verdict's data, and the only way to the database.
// Reads run on a pool of read-only connections; every write goes through one writer thread
// that commits waiting writes together (group commit) in WAL mode with synchronous=FULL, so a
// write that returned has reached the disk. Over 500 lines because it is the store's one
// door: every aggregate's reads and writes are declared here, each group under its own
// comment, and defined in the aggregate's own file beside it (store/tools.cpp…).
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

#include "domain/content.h"
#include "domain/directory.h"
#include "domain/model.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"
#include "domain/writes.h"
#include "store/vote_log.h"

namespace verdict {

namespace sql {
class Db;
}
struct VoteEvent;  // domain/tallies.h
struct VoteTarget; // domain/tallies.h
struct DayTally;   // domain/tallies.h

// Thrown by a write that names something that does not exist (an unknown tool id, say).
struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a write refused because the database file cannot safely take it: the file was
// deleted, moved or replaced under the running server. Nothing of the write happened.
struct StoreUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a write changes: `votes_only` leaves the catalogue (Store::catalogue_generation) as it
// was.
enum class Changes { anything, votes_only };

// How a queued write ended (Store::write_then), heard once it is durable or not written.
using WriteDone = std::function<void(const WriteResult &)>;

// Thrown by a write that would take a name already taken (an editor's address, a slug).
struct AlreadyExists : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a write refused because of what it would break (deleting a category that still
// has tools); the message says what to do instead.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Store {
public:
  // Opens the database at `path`, creating it from the embedded schema or upgrading it as
  // needed. ":memory:" gives a private in-memory database (for tests). A file that cannot be
  // written (database_file::why_read_only) is opened read-only: every read as usual, every
  // write refused with StoreUnavailable saying why; one from an older verdict, which would
  // need an upgrade, is refused (std::runtime_error).
  explicit Store(const std::string &path);
  ~Store();
  Store(const Store &) = delete;
  Store &operator=(const Store &) = delete;

  // The site's date (YYYY-MM-DD) as the store reads it: a comparison published on a later
  // date is scheduled, and readers see it from that day on. UTC today unless set: a test sets
  // a fake one (the site runs on UTC).
  void set_today(std::function<std::string()> today);
  std::string today() const;
  // A write taken now, by this store's clock and date: the context a lone server's writes and
  // the short ways below apply with (store/apply_write.h).
  WriteContext context_now() const;

  // Increases after every committed write; caches of rendered pages key on it.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // Increases after every committed write but a vote's (tools, comparisons, the site's words…),
  // and any write by another process: what a vote reads of the catalogue is kept under it.
  uint64_t catalogue_generation() const {
    return catalogue_generation_.load(std::memory_order_acquire);
  }
  int schema_version();
  // Whether the database can take a write now: the file at the path is still the one opened,
  // and a small write reached the disk (checked at most once a second). "" when healthy,
  // otherwise what is wrong.
  std::string health_problem();

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
  // Throw AlreadyExists when the slug is another category's, NotFound when `slug` names none,
  // Refused when a category to delete still has tools.
  void create_category(const ContentCategory &category, std::string_view editor);
  void update_category(std::string_view slug, const ContentCategory &category,
                       std::string_view editor);
  void delete_category(std::string_view slug, std::string_view editor);

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
  void create_tool(const ContentTool &tool, std::string_view editor);
  void update_tool(std::string_view slug, const ContentTool &tool, std::string_view editor);
  void delete_tool(std::string_view slug, std::string_view editor);

  // Reviews (store/reviews.cpp)
  Paged<Review> reviews_by_reviewer(int64_t reviewer_id, PageSpan span); // by tool name
  // Reviews at the desk, named by their tool and reviewer; the desk lists the newest first.
  // Creating or moving a review onto a tool its reviewer already reviewed throws
  // AlreadyExists.
  std::optional<ContentReview> review_content(std::string_view tool, std::string_view reviewer);
  // Narrowed by `words` (queries::holding) in the tool's or reviewer's name, the verdict or
  // the quote.
  Paged<ContentReview> reviews_at_desk(PageSpan span, std::string_view words = {});
  void create_review(const ContentReview &review, std::string_view editor);
  void update_review(std::string_view tool, std::string_view reviewer, const ContentReview &review,
                     std::string_view editor);
  void delete_review(std::string_view tool, std::string_view reviewer, std::string_view editor);

  // Reviewers (store/reviewers.cpp)
  std::vector<Reviewer> reviewers(); // the whole panel, in panel order
  Paged<Reviewer> reviewers(PageSpan span);
  std::optional<Reviewer> reviewer_by_slug(std::string_view slug);
  // A new one joins the end of the panel; deleting one deletes their reviews.
  std::optional<ContentReviewer> reviewer_content(std::string_view slug);
  void create_reviewer(const ContentReviewer &reviewer, std::string_view editor);
  void update_reviewer(std::string_view slug, const ContentReviewer &reviewer,
                       std::string_view editor);
  void delete_reviewer(std::string_view slug, std::string_view editor);

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
  void create_comparison(const ContentComparison &comparison, std::string_view editor);
  void update_comparison(std::string_view pair, const ContentComparison &comparison,
                         std::string_view editor);
  void delete_comparison(std::string_view pair, std::string_view editor);

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
  // Full-text search (store/search.cpp) over tools' names, taglines and descriptions (a name
  // weighs most) and the panel's quotes, best match first. Any text is safe: it is read as
  // words to find, each word required and the last also as the start of a longer word; no
  // text is taken as FTS5 query syntax. No words, no results.
  SearchResults search(std::string_view text, PageSpan span);

  // Votes (store/votes.cpp)
  VoterChoices voter_choices(std::string_view voter, int64_t a_id, int64_t b_id);
  // A voter's vote on one tool and its standing, as on_a and on_a_standing.
  VoterChoices voter_choices_on_tool(std::string_view voter, int64_t tool_id);
  // The tool a vote sent to /tools/<slug>/vote is for: under `slug`, or, for an address it
  // had before a rename (the page was read before it), under its address now. Read in one
  // go and without the tool's text: every vote asks.
  std::optional<ToolKey> tool_to_vote_on(std::string_view slug);
  // Records, changes (same voter, same tool) or, with no verdict, withdraws a vote, judged
  // by the counting rule (domain/counting.h) as it is written; returns whether it is counted
  // (empty) or set aside and why. A withdrawal returns empty.
  VoteStanding cast_tool_vote(const Ballot &ballot, int64_t tool_id,
                              std::optional<Verdict> verdict);
  // The same for a head-to-head pick; `pick` is a or b.
  VoteStanding cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                              std::optional<int64_t> pick);
  // The same two, queued: the caller goes on at once and `done` is told once the vote is
  // durable, or why it was not stored (Store::write_then).
  void cast_tool_vote(const Ballot &ballot, int64_t tool_id, std::optional<Verdict> verdict,
                      WriteDone done);
  void cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id, std::optional<int64_t> pick,
                      WriteDone done);
  // A node of a cluster applies the cluster's writes in their stream's order
  // (store/apply_write.h apply_entry): the sequence of the last one applied to this file (0:
  // none).
  uint64_t applied_sequence();
  // The vote log (store/vote_log.h): its entries from leaf `from` on, at most `limit`, and its
  // size and root now.
  std::vector<VoteLogEntry> vote_log(uint64_t from, size_t limit);
  VoteLogHead vote_log_head(); // from every row: tests' check of the log the site keeps
  uint64_t vote_log_size();
  // Seals the log as it stands (hashes its new leaves and the subtrees they complete) and
  // keeps a checkpoint of it, signed with `signing_key` (auth/log_signing.h), made at `now`.
  Checkpoint make_checkpoint(std::string_view signing_key, int64_t now);
  // The site's key for signing checkpoints, made at the first call and kept in the database.
  std::string log_signing_key();
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

  // Loads votes in bulk through the same tables, keys and tally triggers as single votes,
  // a few large transactions at a time; a vote on a tool or pair already voted by the same
  // voter replaces it. Throws NotFound for a tool slug the site does not have.
  void load_votes(const VoteLoad &votes);

  // Subscribers (store/subscribers.cpp). Times are seconds since 1970.
  // Keeps a new address as pending, or a pending one as it is, and owes it a confirmation
  // mail, unless one went to it too recently (domain/subscription.h). A confirmed address is
  // left as it is; so is one that unsubscribed, which the form never mails again.
  SubscriptionRequest request_subscription(std::string_view email, int64_t now);
  // Confirmation mails owed whose time has come, the longest waiting first.
  std::vector<ConfirmationDue> confirmations_due(int64_t now, int64_t limit);
  // Before a confirmation mail goes out: its token's hash and expiry replace any earlier
  // link's. False (and the mail is owed no more) when the address is no longer pending.
  bool start_confirmation(int64_t subscriber_id, std::string_view token_hash, int64_t expires_at);
  // Before that, a mail due is claimed for `lease_seconds` from `now`: another server's mailer
  // (in a cluster), or this one's next look, leaves it alone meanwhile, and takes it again
  // after, should this one never say how the send went. False when it is not due any more
  // (claimed, sent, given up, or the address gone).
  bool claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds);
  void confirmation_mailed(int64_t subscriber_id);
  // A try that did not send the mail: the next is at `next_attempt_at`, or never when it is
  // empty (given up; the error stays for the desk's list).
  void confirmation_failed(int64_t subscriber_id, std::optional<int64_t> next_attempt_at,
                           std::string_view error);
  // What the confirmation link with this token's hash finds; confirming writes only when
  // it is confirmable, and returns what it found either way.
  ConfirmationCheck confirmation(std::string_view token_hash, int64_t now);
  ConfirmationCheck confirm_subscription(std::string_view token_hash, int64_t now);
  // Leaving (false when it had left already) and coming back (the unsubscribe page's undo),
  // which gives the address back the status it had before.
  bool unsubscribe(int64_t id);
  Resubscription resubscribe(int64_t id);
  // The secret kept under `name`, keeping `if_new` first when there is none yet.
  std::string site_secret(std::string_view name, std::string_view if_new);
  // The secret kept under `name`, if any; and `value` kept under it in place of any before (a
  // cluster node's, from the cluster's key: the same on every node, so never through the
  // stream).
  std::optional<std::string> kept_site_secret(std::string_view name);
  void keep_site_secret(std::string_view name, std::string_view value);
  SubscriberCounts subscriber_counts();
  // Newest first, with their mail problems; narrowed to addresses holding `words`.
  Paged<Subscriber> subscribers(PageSpan span, std::string_view words = {});
  std::vector<Subscriber> all_subscribers(); // in the order they subscribed
  std::optional<Subscriber> subscriber(int64_t id);
  // Removes the address for good; the edit log says one address went, not which. False when
  // there was none.
  bool erase_subscriber(int64_t id, std::string_view editor);

  // The weekly digest (store/digests.cpp, which says how digests are made and resumed).
  // The digest a run sends now: the latest one while confirmed subscribers are still owed it
  // (resumed as it was made), else a new one of the comparisons published in the `days` days
  // up to `today` (YYYY-MM-DD) that no digest held yet, owed to every confirmed subscriber.
  // Nothing new: no items. Nobody confirmed: no recipients, and nothing recorded. With
  // `record` false (a dry run) a new one is only looked at, never recorded.
  Digest digest_to_send(std::string_view today, int days, bool record);
  // Each send to a subscriber is claimed before it goes out (false when the address is no
  // longer confirmed or the send is not owed), marked sent once the SMTP server took it, and
  // after a failure that certainly sent nothing, owed again or given up (SendFailure). A send
  // whose outcome is unknown keeps its claim.
  bool claim_digest_send(int64_t digest_id, int64_t subscriber_id);
  void digest_sent(int64_t digest_id, int64_t subscriber_id);
  void digest_send_failed(int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                          std::string_view error);

  // Editors and their sessions (store/editors.cpp). Addresses are kept in lower case;
  // `email` arguments may be in any case.
  // Throws AlreadyExists when the address has an editor.
  void add_editor(std::string_view email, std::string_view password_hash);
  std::vector<Editor> editors(); // in the order they were added
  std::optional<Editor> editor_by_email(std::string_view email);
  // Both return false when there is no such editor. Either ends the editor's sessions.
  bool remove_editor(std::string_view email);
  bool set_editor_password(std::string_view email, std::string_view password_hash);
  // Keeps a new session (and forgets expired ones).
  void start_session(std::string_view secret_hash, int64_t editor_id, std::string_view csrf_token,
                     int64_t expires_at);
  // The session kept under `secret_hash`, unless it expired by `now` (seconds since 1970).
  std::optional<EditorSession> session(std::string_view secret_hash, int64_t now);
  void end_session(std::string_view secret_hash);

  // The edit log (store/edit_log.cpp), newest first; narrowed to the entries whose editor,
  // action, kind, subject or item before or after holds `words` (queries::holding).
  Paged<EditEntry> edit_log(PageSpan span, std::string_view words = {});

  // Content as a file (store/content.cpp)
  ImportSummary import_content(const Content &content);
  Content export_content();

  // One moment of the database for a whole answer. While a OneRead lives, every read this
  // thread makes through this store runs on one connection inside one read transaction, so
  // the parts of a page, its site copy included, never mix two moments and the page costs one
  // read. The connection is leased at the first read: an answer that reads nothing costs
  // nothing. One opened while another is open on the thread adds nothing to it. A write made
  // while it is open ends the moment; reads after the write begin a new one.
  class OneRead {
  public:
    explicit OneRead(Store &store);
    ~OneRead();
    OneRead(const OneRead &) = delete;
    OneRead &operator=(const OneRead &) = delete;

  private:
    friend class Store;
    sql::Db &connection(); // leased and its moment begun at the first read
    struct Moment;
    Store &store_;
    bool outermost_;
    std::unique_ptr<Moment> moment_;
  };
  // How many reads have taken a connection since the store opened: one per OneRead that read
  // anything, one per read outside any (/metrics; a test holds every page to one).
  uint64_t reads_taken() const { return reads_taken_.load(std::memory_order_relaxed); }

  // Runs `query` on a pooled read-only connection (store/ only): the thread's OneRead's, when
  // one is open.
  template <class F> auto read(F &&query) {
    for (int attempt = 1;; ++attempt) {
      try {
        if (auto *open = open_read_on_this_thread()) return query(open->connection());
        auto lease = lease_reader();
        return query(*lease);
      } catch (...) {
        if (!wait_out_table_lock(std::current_exception(), attempt))
          rethrow_read_failure(std::current_exception());
      }
    }
  }
  // An in-memory database's connections share one cache and lock its tables against each
  // other while they use them (SQLITE_LOCKED, which no busy timeout waits out; a file's, in
  // WAL, never do): true after a short pause when `failure` is that and `attempt` is not past
  // the bound, so the caller tries again.
  static bool wait_out_table_lock(std::exception_ptr failure, int attempt);
  // Rethrows what a read threw; as StoreUnavailable when the file cannot be read (gone,
  // replaced, unreadable or corrupt), which is the database's trouble, not the request's.
  [[noreturn]] static void rethrow_read_failure(std::exception_ptr failure);
  // Runs `change` inside the writer's next transaction; returns once it is durable and
  // rethrows whatever `change` threw (then nothing of it was written).
  void write(std::function<void(sql::Db &)> change);
  // The same without waiting: `done` is told on the writer's thread once it is durable, or
  // why it was not written (then nothing of it was), and must only hand that on.
  void write_then(std::function<void(sql::Db &)> change, WriteDone done,
                  Changes changes = Changes::anything);

private:
  // A file that cannot be written: readers only, each write refused with read_only_refusal().
  void open_read_only();
  std::string read_only_refusal() const;
  struct ReaderPool;
  struct Writer;
  mutable std::mutex today_mutex_;
  std::function<std::string()> today_;
  struct ReaderLease {
    ReaderPool *pool;
    std::unique_ptr<sql::Db> db;
    ~ReaderLease();
    sql::Db &operator*() { return *db; }
  };
  ReaderLease lease_reader();
  // The OneRead open on this thread for this store, if any.
  OneRead *open_read_on_this_thread();
  std::atomic<uint64_t> reads_taken_{0};
  // Why the file opened can no longer be used (deleted, moved, replaced); empty while it can.
  std::string file_problem() const;
  SiteCopy read_site_copy();
  std::mutex last_site_copy_mutex_;
  std::optional<SiteCopy> last_site_copy_;
  std::mutex tool_slugs_mutex_;
  std::shared_ptr<const ToolSlugs> tool_slugs_; // as of tools_by_name's version below
  int64_t tool_slugs_version_ = 0;

  struct Watcher;
  struct PageStartMemos; // store/page_starts.h

  std::string path_;
  std::string read_only_; // why the file cannot be written; empty when it can
  std::atomic<uint64_t> generation_{0};
  std::atomic<uint64_t> catalogue_generation_{0};
  struct VoteTargets; // store/vote_targets.h
  std::unique_ptr<VoteTargets> vote_targets_;
  std::unique_ptr<Watcher> watcher_; // file databases only
  std::mutex health_mutex_;
  std::chrono::steady_clock::time_point health_checked_;
  std::string health_; // the last probe's answer
  std::unique_ptr<ReaderPool> readers_;
  std::unique_ptr<Writer> writer_;
  std::unique_ptr<PageStartMemos> page_starts_;
};

} // namespace verdict
