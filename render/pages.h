// Pages as HTML: turns what the store returned into display-ready strings and booleans for
// the templates (percentages, "3 votes", which button is pressed), then renders them. The
// templates hold no logic; every decision about what to show is made here. Made in one file per
// page family: pages_comparison.cpp, pages_tool.cpp, pages_lists.cpp, pages_search.cpp and
// pages_site.cpp, from page_parts.h's shared pieces and voter_places.h's vote forms.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "domain/alternatives.h"
#include "domain/directory.h"
#include "domain/glance.h"
#include "domain/model.h"
#include "domain/vote_log.h"
#include "render/views.h"

namespace verdict::pages {

// The front page shows the first page of each list and links to the rest.
struct HomeData {
  SiteCopy site;
  Paged<ComparisonSummary> comparisons;
  Paged<Tool> tools;
  Paged<Reviewer> reviewers;
};

// A page every reader sees alike except for the forms that show a reader's own votes, kept
// with those places cut out and each of their three renderings, so a voter's page is the
// shared page with their pieces put back (no render per voter). `pieces` and `slots`
// alternate: pieces[0], slot 0, pieces[1], …, the last piece. Slots show the vote on tool a,
// on tool b (comparisons only) and the head-to-head pick (comparisons only).
struct PersonalPage {
  enum class Slot { vote_a, vote_b, pick };
  int64_t a_id = 0, b_id = 0; // the tools the slots are about (b_id only on comparisons)
  std::vector<std::string> pieces;
  std::vector<Slot> slots;
  // Per slot: no vote, then ship and skip (votes) or picked a and picked b (the pick) as
  // counted, as set aside for a network's share, as set aside for being too fast.
  std::vector<std::vector<std::string>> renderings;
};

// The tokens a page's vote forms carry (auth/vote_tokens.h), one per target: the same for
// every reader of the page, so the page stays one set of bytes for all.
struct VoteTokens {
  std::string tool_a; // the comparison's first tool, or the tool page's tool
  std::string tool_b;
  std::string pair;
};

// The page as this voter sees it (a voter with no votes sees the shared page).
std::string page_for(const PersonalPage &page, const VoterChoices &choices);
// Which rendering each voter place shows for these choices (0: no vote), and the page so.
std::vector<size_t> renderings_for(const PersonalPage &page, const VoterChoices &choices);
std::string page_for(const PersonalPage &page, const std::vector<size_t> &shown);
// The same, appended to `out`, and its length, for writing it straight into an answer.
void append_page_for(const PersonalPage &page, const std::vector<size_t> &shown, std::string &out);
size_t page_length(const PersonalPage &page, const std::vector<size_t> &shown);

std::string home(const Views &views, const HomeData &data);
// A comparison or tool page as `detail.voter` sees it, rendered whole. `today` is YYYY-MM-DD;
// pricing checked too long before it is marked as possibly stale (is_stale, domain/dates.h).
// With a `preview` banner it is the desk's preview: under the banner, kept out of search
// engines, a draft said to be one.
std::string comparison(const Views &views, const ComparisonDetail &detail, const SiteCopy &site,
                       const std::string &today, const VoteTokens &tokens,
                       const DeskPreview &preview = {});
std::string tool(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                 const std::string &today, const std::string &token);
// The same pages with their voter's places cut out (the detail's voter is not read).
PersonalPage comparison_page(const Views &views, const ComparisonDetail &detail,
                             const SiteCopy &site, const std::string &today,
                             const VoteTokens &tokens);
PersonalPage tool_page(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                       const std::string &today, const std::string &token);
// The tools directory in the order and with the filters asked for, with links to the others.
std::string tools(const Views &views, const Paged<Tool> &tools, const DirectoryQuery &query,
                  const std::vector<CategoryListing> &categories, const SiteCopy &site);
// A tool's alternatives, ranked by readers' head-to-head picks (domain/alternatives.h).
std::string alternatives(const Views &views, const RankedAlternatives &ranked,
                         const SiteCopy &site);
// Three or four tools side by side: their numbers and pricing, each pair's picks and who leads
// it, with links to the pairs' pages. Never indexed: no editor publishes it.
std::string side_by_side(const Views &views, const SideBySide &side, const SiteCopy &site);
std::string comparisons(const Views &views, const Paged<ComparisonSummary> &comparisons,
                        const SiteCopy &site);
std::string reviewer(const Views &views, const Reviewer &reviewer, const Paged<Review> &reviews,
                     const SiteCopy &site);
std::string reviewers(const Views &views, const Paged<Reviewer> &reviewers, const SiteCopy &site);
// How the numbers are made, with each persona's ship rate.
std::string methodology(const Views &views, const std::vector<Reviewer> &panel,
                        const SiteCopy &site);
// The vote log's latest checkpoint, its public key and how to check both (/transparency).
// A voter's receipts: each current vote's leaf and hash, and its inclusion proof in the latest
// checkpoint when it is in one.
std::string receipts(const Views &views, const std::vector<VoteReceipt> &receipts,
                     const std::optional<Checkpoint> &checkpoint, const SiteCopy &site);
std::string transparency(const Views &views, const std::optional<Checkpoint> &checkpoint,
                         uint64_t log_size, const std::string &public_key, const SiteCopy &site);
std::string categories(const Views &views, const std::vector<CategoryListing> &categories,
                       const SiteCopy &site);
std::string category(const Views &views, const CategoryListing &category, const Paged<Tool> &tools,
                     const std::vector<ComparisonSummary> &comparisons, const SiteCopy &site);
// The search page: its form holding `query`, and the results of searching it `as` the reader
// asked (an empty query asked for nothing). A quote links to the page of its tool that shows
// it, a tool's page showing `reviews_per_page` reviews; matches are marked (marked_html).
std::string search(const Views &views, const std::string &query, SearchAs as,
                   const SearchResults &results, const SiteCopy &site, int reviews_per_page);
// Text a search returned as HTML: all of it escaped first, then each match it marks
// (kMatchStart … kMatchEnd) made a <mark> element, every one closed, so whatever the text
// holds, only <mark> can come out of it as markup.
std::string marked_html(std::string_view marked);

// A short page with a heading, a sentence and one link: errors, thank-yous.
std::string message(const Views &views, const SiteCopy &site, const std::string &eyebrow,
                    const std::string &heading, const std::string &message,
                    const std::string &link = "/",
                    const std::string &link_label = "Back to the front page");

// The weekly digest's sign-up on a page of its own; a refused address comes back in the form,
// as typed, with `problem` beside it.
std::string subscribe(const Views &views, const SiteCopy &site, const std::string &email = "",
                      const std::string &problem = "");
// The confirmation link's page: one button that confirms (a link alone would be confirmed by
// any mail scanner that opens it).
std::string confirm(const Views &views, const SiteCopy &site, const std::string &token);
// After unsubscribing (and after undoing it): what happened, and an undo button when
// `undo_token` is given.
std::string unsubscribed(const Views &views, const SiteCopy &site, const std::string &heading,
                         const std::string &message, const std::string &undo_token = "");

// The sitemap (sitemaps.org 0.9) of these addresses, absolute under `base`.
std::string sitemap(const Views &views, const std::string &base,
                    const std::vector<SitemapEntry> &entries);

// Links to the pages before and after page `number` of the list at `path`; empty when the list
// has one page.
std::string pagination(const Views &views, const std::string &path, int number, bool has_next);

// Display strings shared with tests and other renderers.
std::string panel_summary(const ShipTally &panel); // "75% · 3 of 4" or "—"
// "67% · 3 votes" or "—", then what was set aside ("· 5 cast, 2 set aside: …") if anything.
std::string community_summary(const ShipTally &votes, const SetAside &set_aside = {});

// The verdict at a glance's bottom line, statement and both sides' numbers, under the names
// the comparison page and the digest's templates share; the lens-by-lens lines are the page's.
Data glance_numbers(const Comparison &comparison, const Glance &glance);

} // namespace verdict::pages
