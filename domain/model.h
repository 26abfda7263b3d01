// The content model as plain structs: what the store returns and the presenters read.
// Nothing here knows about SQL or HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/content.h"

namespace verdict {

enum class Verdict { ship, skip };

// How a verdict is written wherever it is a word: the database, forms, content files, the API,
// feeds and class names.
constexpr const char *verdict_word(Verdict verdict) {
  return verdict == Verdict::ship ? "ship" : "skip";
}
// The verdict a word names; none for any other word.
inline std::optional<Verdict> verdict_from_word(std::string_view word) {
  if (word == "ship") return Verdict::ship;
  if (word == "skip") return Verdict::skip;
  return std::nullopt;
}

struct Category {
  std::string slug;
  std::string name;
};

// Ships out of all opinions counted, for the panel (reviews) or the community (votes).
struct ShipTally {
  int64_t ships = 0;
  int64_t total = 0;
};

// Why a reader's vote is stored but not counted (domain/counting.h states the rule).
enum class SetAsideReason {
  network,  // more voters of its network on its target that day than the rule counts
  too_fast, // sent sooner after its page was made than a person reads it
};

// The votes on one target that are stored but not counted, by reason.
struct SetAside {
  int64_t network = 0;
  int64_t too_fast = 0;
  int64_t total() const { return network + too_fast; }
};

// One reader's vote as the counting rule sees it.
struct Ballot {
  std::string voter;       // the random id from their cookie
  std::string network;     // a keyed hash of their network (domain/counting.h network_of)
  std::string day;         // the UTC day it is cast, YYYY-MM-DD
  int64_t seconds_on_page; // since the page it was sent from was made
  // The vote form's token (auth/vote_tokens.h): a cluster's node applying the vote judges the
  // time on page from it itself, never from a figure the stream carries.
  std::string token = {};
  // A keyed hash of the wider network their network is in (domain/counting.h
  // wider_network_of); empty for a vote taken before it was kept (its quota is not applied).
  std::string wider = {};
};

// What became of a vote: counted, or set aside and why.
using VoteStanding = std::optional<SetAsideReason>;

struct Tool {
  int64_t id = 0;
  std::string slug; // identity: two tools may share a name, never a slug
  std::string name;
  Category category;
  std::string tagline;
  std::string description;
  std::string entry; // Free, Paid, Freemium, Open weights
  std::string vendor;
  std::string url;
  std::string pricing_notes;      // the "pricing read"
  std::string pricing_checked_on; // YYYY-MM-DD, empty when never checked
  std::string pricing_source;     // where the pricing was read
  ShipTally panel;                // from reviews
  ShipTally community;            // from reader votes, counted ones only
  SetAside community_set_aside;   // reader votes stored but not counted
};

// A tool as a vote names it: its id, which the vote log's target carries, and its address now.
struct ToolKey {
  int64_t id = 0;
  std::string slug;
};

struct Reviewer {
  int64_t id = 0;
  std::string slug;
  std::string name;
  std::string lens; // the angle this persona reviews from, e.g. "Skeptic"
  std::string bio;
  ShipTally verdicts; // this reviewer's ships across every tool reviewed
};

struct Review {
  std::string tool_slug;
  std::string tool_name;
  std::string reviewer_slug;
  std::string reviewer_name;
  std::string reviewer_lens;
  Verdict verdict = Verdict::ship;
  std::string quote;
};

// Head-to-head picks on a pair, in the order the page shows the pair.
struct PairTally {
  int64_t a = 0; // counted picks
  int64_t b = 0;
  SetAside set_aside; // picks stored but not counted, either side
};

// An ordered pair of tools as the editor published it (or as first viewed, if never published).
struct Comparison {
  Tool a;
  Tool b;
  bool published = false;
  std::string published_on; // YYYY-MM-DD when published
  std::string intro;        // optional editor's intro
  std::string bottom_line;  // optional: the editor's answer to "which one should you ship?"
  PairTally picks;          // readers' head-to-head picks, a's and b's
};

// Whether a comparison's editorial text is read while readers do not see it yet (a draft, or
// a date still to come): only for the desk's preview.
enum class Drafts { hidden, shown };

// What says who leads a pair (domain/glance.h): each tool's panel verdicts and counted reader
// verdicts, and the counted head-to-head picks, a's then b's. Set-aside votes play no part.
struct PairNumbers {
  ShipTally panel_a, panel_b;
  ShipTally readers_a, readers_b;
  PairTally picks;
};

struct ComparisonSummary {
  std::string a_slug, a_name;
  std::string b_slug, b_name;
  std::string published_on;
  int64_t id = 0;      // the comparison's row: after the date, the archive's order
  PairNumbers numbers; // who leads, said beside the title
};

// What one visitor has already said, so a page can show their own vote.
struct VoterChoices {
  std::optional<Verdict> on_a;
  std::optional<Verdict> on_b;
  std::optional<int64_t> pick; // tool id picked head-to-head
  // Each of the three set aside, and why; empty when counted (or not cast).
  VoteStanding on_a_standing, on_b_standing, pick_standing;
};

// Which page of a list to read: its number (from 1) and how many items a page holds.
struct PageSpan {
  int number = 1;
  int size = 20;
  int64_t offset() const { return int64_t{number - 1} * size; }
};

// One page of a list, and whether a later page holds more.
template <class T> struct Paged {
  std::vector<T> items;
  int number = 1;
  bool has_next = false;
};

// Site copy that belongs to the publication, not the code (eyebrow, dek, newsletter pitch).
struct SiteCopy {
  std::string site_name;
  std::string site_tagline;
  std::string comparison_eyebrow;
  std::string comparison_dek;
  std::string newsletter_title;
  std::string newsletter_lead;
  std::string newsletter_pitch;
};

// Someone who may sign in at /admin and change the content.
struct Editor {
  int64_t id = 0;
  std::string email;
  std::string password_hash; // Argon2id (auth/secrets.h)
  std::string created_at;    // YYYY-MM-DDTHH:MM:SSZ
};

// A signed-in browser, found by the hash of its cookie's secret.
struct EditorSession {
  int64_t editor_id = 0;
  std::string email;
  std::string csrf_token; // every form of the desk carries it
  int64_t expires_at = 0; // seconds since 1970
};

// One address of the sitemap: a path, and the day it last changed when known.
struct SitemapEntry {
  std::string path;
  std::string last_modified; // YYYY-MM-DD or empty
};

// What /metrics reports about the database.
struct StoreFigures {
  int64_t tool_votes = 0, pair_picks = 0; // votes and picks standing now, from the tallies
  int64_t tool_votes_set_aside = 0, pair_picks_set_aside = 0; // stored, not counted
  int64_t database_bytes = 0;                                 // the file and its write-ahead log
};

// How much the site holds, for the desk's front page.
struct DeskCounts {
  int64_t categories = 0, tools = 0, reviewers = 0, reviews = 0, comparisons = 0, published = 0,
          subscribers = 0;
};

// A category as the desk lists it (in the content file's terms), with how many tools it holds.
struct CategoryListing {
  ContentCategory category;
  int64_t tools = 0;
};

// An address on the weekly digest's list.
struct Subscriber {
  int64_t id = 0;
  std::string email;
  std::string subscribed_at; // YYYY-MM-DDTHH:MM:SSZ
  std::string status;        // pending (not confirmed yet), confirmed, unsubscribed
  std::string mail_problem;  // why its confirmation mail was given up (the desk shows it)
};

// How many addresses the list holds, by status.
struct SubscriberCounts {
  int64_t pending = 0, confirmed = 0, unsubscribed = 0;
  int64_t total() const { return pending + confirmed + unsubscribed; }
};

// What asking to subscribe did. The reader is told the same in every case, so the form never
// says who is on the list.
enum class SubscriptionRequest {
  mail_queued,       // a confirmation mail is on its way (or kept until mail can be sent)
  mail_held_back,    // one went to this address too recently: no more for now
  mail_rationed,     // its mailbox, domain or the client's network had mail enough: none kept
  already_confirmed, // nothing to do
  left_the_list,     // it unsubscribed: the form mails it nothing more (it comes back by undo)
};

// What undoing an unsubscription did: the address is given back the status it had.
enum class Resubscription {
  unchanged, // it was not unsubscribed: nothing to undo
  confirmed, // it had confirmed: it gets the digest again
  pending,   // it had never confirmed: it waits for confirmation again
};

// What a confirmation link's token finds.
enum class ConfirmationCheck {
  confirmable, // pending, and the link has not expired
  expired,     // pending, but the link is older than its lifetime
  used,        // the address is confirmed already
  unknown,     // no such link (never made, replaced by a newer one, or the address left)
};

// A confirmation mail owed to a pending address.
struct ConfirmationDue {
  int64_t subscriber_id = 0;
  std::string email;
  int64_t attempts = 0; // failed sends so far
};

// A comparison in a digest: its row and the pair.
struct DigestItem {
  int64_t id = 0;
  Comparison comparison;
};

// How a digest's send certainly failed, which decides whether a later run tries it again
// (domain/subscription.h kDigestSendAttempts).
enum class SendFailure {
  unreached,        // no mail server answered: owed again, not counted
  refused,          // refused for now (4xx), or the mail could not be composed: counted
  refused_for_good, // refused for good (5xx): given up
};

// A digest as a run sends it: the comparisons it was made with and who is still owed it
// (store/digests.cpp says how digests are made and resumed).
struct Digest {
  int64_t id = 0;                     // 0: not recorded (a dry run's look at a new one)
  int days = 0;                       // the --since window it was made for
  bool resumed = false;               // an earlier run made it and left some owed
  std::vector<DigestItem> items;      // its comparisons still published, newest first
  std::vector<Subscriber> recipients; // confirmed and still owed it, in the order they came
  int64_t interrupted = 0;            // sends begun whose outcome no run learnt: never resent
};

// One change made at the desk or the command line: who, what and when, before and after.
struct EditEntry {
  int64_t id = 0;
  std::string at, editor, action, kind, subject;
  std::string before, after; // JSON; empty for a creation (before) or deletion (after)
};

} // namespace verdict

namespace verdict {

// Everything a comparison page shows, read in one go.
struct ComparisonDetail {
  Comparison comparison;         // a and b in the order the URL named them
  bool canonical_order = true;   // false when the page's address is the other order
  std::vector<Review> reviews_a; // this page of each tool's reviews
  std::vector<Review> reviews_b;
  int page = 1;
  bool has_next = false; // either tool has reviews past this page
  VoterChoices voter;
  uint64_t vote_log_size = 0; // the vote log's entries when the numbers were read
  // Up to five other published comparisons: of either tool first, then of their categories.
  std::vector<ComparisonSummary> related;
};

// Everything a tool page shows.
struct ToolDetail {
  Tool tool;
  Paged<Review> reviews;                // this page of the panel's reviews
  Paged<ComparisonSummary> comparisons; // this page of the published comparisons it is in
  VoterChoices voter;                   // the reader's vote on the tool, as on_a and on_a_standing
  std::vector<Tool> others;    // every other tool, for the compare-with picker, when few enough
  bool others_complete = true; // false: too many tools to offer as a list
  uint64_t vote_log_size = 0;  // the vote log's entries when the numbers were read
};

// What the alternatives to a tool are weighed on (domain/alternatives.h): the tools it has been
// compared with (published, or picked between by readers) and those of its category, each with
// its tallies, and every counted head-to-head between any two of them and the tool.
struct AlternativesData {
  Tool tool;
  struct Candidate {
    Tool tool;
    bool compared = false;     // a published comparison of the page's tool and this one
    bool tool_is_first = true; // the page's tool comes first in the pair's address
  };
  std::vector<Candidate> candidates;
  struct Picks {
    int64_t low_id = 0, high_id = 0;       // the two tools, lower id first
    int64_t low_picks = 0, high_picks = 0; // counted picks of each
  };
  std::vector<Picks> picks;
};

// Three or four tools side by side (/compare/a-vs-b-vs-c[-vs-d]): each with its tallies, and
// each pair of them with its counted picks and, when an editor wrote it up, its page.
struct SideBySide {
  std::vector<Tool> tools; // in the address's order
  struct Pair {
    size_t a = 0, b = 0;    // indexes into tools
    PairTally picks;        // a's, then b's
    bool published = false; // an editor's comparison readers see
    bool a_is_first = true; // a comes first in the pair's address
  };
  std::vector<Pair> pairs;
};

// What an address of three or four slugs names: the tools, or the slugs that name none (or
// one named twice).
struct SideBySideLookup {
  std::optional<SideBySide> found;
  std::vector<std::string> unknown, repeated;
};

// One published comparison as a feed tells it.
struct FeedEntry {
  Comparison comparison; // both tools with their tallies, the editor's intro and bottom line
  // In a reviewer's feed, that reviewer's review of each tool (none when they did not review
  // it); in the others, empty.
  std::vector<Review> reviews_a = {};
  std::vector<Review> reviews_b = {};
};

// What's new about one tool: the newest published comparisons it is in. Reviews carry no
// date, so they are not news of their own.
struct ToolFeed {
  Tool tool;
  std::vector<FeedEntry> entries;
};

// What's new about one reviewer: the newest published comparisons of a tool they reviewed,
// each with their reviews of its two tools.
struct ReviewerFeed {
  Reviewer reviewer;
  std::vector<FeedEntry> entries;
};

// Around each match in the text a search returns. No indexed text holds them (the index
// reads text with them taken out), so a stored text cannot pass for a match, and the page
// turns them into <mark> only after escaping the text around them.
constexpr char kMatchStart = '\x01';
constexpr char kMatchEnd = '\x02';

// One search result: a tool, or one reviewer's quote on a tool. The texts marked with
// kMatchStart and kMatchEnd are excerpts as the index chose them.
struct SearchHit {
  enum class Kind { tool, review };
  Kind kind = Kind::tool;
  std::string tool_slug;
  std::string tool_name;     // marked for a tool; plain for a review
  std::string tagline;       // a tool's, marked
  std::string excerpt;       // marked: of a tool's description, or of the quote
  std::string reviewer_slug; // a review's
  std::string reviewer_name;
  std::string reviewer_lens;
  Verdict verdict = Verdict::ship;
  int64_t review_position = 0; // the review's place among the tool's reviews in panel order, from 0
  // A tool's figures, as its page says them: the panel's verdicts, and readers' counted votes
  // with those set aside.
  ShipTally panel, community;
  SetAside community_set_aside;
};

// A comparison a search offers: of the two tools its words name, written up or not, or a
// published one of a tool it names. `a` and `b` in the address's order.
struct ComparisonHit {
  ToolKey a, b;
  std::string a_name, b_name;
  bool published = false; // an editor's pick readers see
  PairNumbers numbers;    // who leads, said beside the title
};

// One page of a search's results, best match first.
struct SearchResults {
  std::vector<ComparisonHit> comparisons; // on the first page, before the hits
  Paged<SearchHit> hits;
  int64_t total = 0;        // results on every page, at most kMostSearchResults
  bool more_found = false;  // more matched than are listed
  std::string searched_for; // the words searched for, when a typo in them was forgiven
};
// How many results a search lists at most: past that many, a reader refines the words.
constexpr int64_t kMostSearchResults = 1000;
// Whether a search forgives typos (the search box's) or looks for the words as typed (the
// link under "Showing results for …").
enum class SearchAs { meant, typed };

} // namespace verdict
