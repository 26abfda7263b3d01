// The pieces several pages are made of, for the page files (render/pages_*.cpp and the desk's
// render/desk.cpp) only: mustache values, page addresses and titles, and the fragments more
// than one page shows (a tool's card, a quote, the tool table, the sign-up form). Every page
// function itself is in pages.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/model.h"
#include "domain/tallies.h"
#include "render/views.h"

namespace verdict::pages::parts {

// Sections in mustache render for any string, even an empty one, so optional values are
// only set when there is something to show.
void set_if(Data &data, const std::string &key, const std::string &value);
Data bool_data(bool value);

const char *verdict_label(Verdict v); // "Ship", "Skip"
const char *verdict_class(Verdict v); // "ship", "skip"

// A comparison's title: "Codestral 2.1 vs Cursor Background Agent".
std::string title_of(const std::string &a, const std::string &b);
// The address of page `number` of the list at `path` (which may carry a query of its own):
// page 1 is the bare path.
std::string page_path(const std::string &path, int number);
// `text` as one value of an address's query: every byte but letters, digits and -._~
// percent-encoded.
std::string query_value(std::string_view text);
// What a page past the first adds to its title.
std::string page_suffix(int number);

// Links to comparisons, as the front page, the archive, a category and a tool's page list
// them: newest first, each with who leads it (domain/glance.h's lead lines).
std::string comparison_list(const Views &views, const std::vector<ComparisonSummary> &comparisons);
// What the intervals a part of a page shows mean, in plain words, one tap away: a fold listing
// each reading (interval_reading, domain/numbers.h); "" when the part shows no interval.
std::string interval_readings(const Views &views, const std::vector<std::string> &readings);
// The share of the panel's reviews, of readers' votes and of readers' head-to-head picks that
// an interval is about, as interval_reading names it.
std::string panel_share_of(const Tool &t);
std::string community_share_of(const Tool &t);
std::string picks_share_of(const Tool &picked, const Tool &other);
std::string ship_rate_share_of(const Reviewer &r);
// One tool as a list shows it: slug, name, tagline, category, pricing model, and the panel's and
// the community's numbers.
Data tool_row(const Tool &t);
// Tools with the panel's and the community's numbers.
std::string tool_table(const Views &views, const std::vector<Tool> &tools);
// The sign-up form; a refused address comes back with `problem` beside it, as typed.
std::string newsletter(const Views &views, const SiteCopy &site, const std::string &email = "",
                       const std::string &problem = "");
// A tool's card holding `vote_form`. `is_page_heading`: the card is the page's own subject (a
// tool's page), so its name is the h1.
std::string tool_card(const Views &views, const Tool &t, const char *side,
                      const std::string &vote_form, bool is_page_heading = false);
// When a tool's pricing was checked and where, marked stale when that was too long before
// `today` (is_stale, domain/dates.h).
void set_pricing_check(Data &data, const Tool &t, const std::string &today);
// One of the panel's quotes, on side "a" or "b" of a page.
Data review_item(const Review &r, const char *side);
// A community number in the vote log's terms (domain/tallies.h), for the data-* attributes of
// the element that shows it: what `verdict verify` checks a page against.
Data log_tally(const VoteTarget &target, const DayTally &standing);
// A tool as schema.org's SoftwareApplication.
nlohmann::ordered_json software(const Tool &t);

} // namespace verdict::pages::parts
