#include "render/pages.h"

#include <cctype>
#include <ctime>

#include <nlohmann/json.hpp>

#include "domain/counting.h"
#include "domain/dates.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
#include "domain/slugs.h"
#include "render/cards.h"
#include "render/feeds.h"
#include "render/text_fit.h"

namespace verdict::pages {

namespace {

using kainjow::mustache::list;

// Sections in mustache render for any string, even an empty one, so optional values are
// only set when there is something to show.
void set_if(Data &data, const std::string &key, const std::string &value) {
  if (!value.empty()) data.set(key, value);
}

Data bool_data(bool value) {
  return value ? Data::type::bool_true : Data::type::bool_false;
}

const char *verdict_label(Verdict v) {
  return v == Verdict::ship ? "Ship" : "Skip";
}
const char *verdict_class(Verdict v) {
  return verdict_word(v);
}

std::string title_of(const std::string &a, const std::string &b) {
  return a + " vs " + b;
}

// The address of page `number` of the list at `path` (which may carry a query of its own):
// page 1 is the bare path.
std::string page_path(const std::string &path, int number) {
  if (number == 1) return path;
  return path + (path.find('?') == std::string::npos ? "?" : "&") +
         "page=" + std::to_string(number);
}

// What a page past the first adds to its title.
std::string page_suffix(int number) {
  return number == 1 ? std::string() : " · page " + std::to_string(number);
}

// Links to the previous and next pages of a list; nothing when it fits on one page.

Data comparison_items(const std::vector<ComparisonSummary> &comparisons) {
  Data items{list{}};
  for (const auto &c : comparisons) {
    Data item;
    item.set("slug", pair_slug(c.a_slug, c.b_slug));
    item.set("title", title_of(c.a_name, c.b_name));
    item.set("published_on", c.published_on);
    items.push_back(item);
  }
  return items;
}

std::string tool_table(const Views &views, const std::vector<Tool> &tools) {
  Data rows{list{}};
  for (const auto &t : tools) {
    Data row;
    row.set("slug", t.slug);
    row.set("name", t.name);
    row.set("tagline", t.tagline);
    row.set("category", t.category.name);
    row.set("category_slug", t.category.slug);
    row.set("entry", t.entry);
    row.set("panel", panel_summary(t.panel));
    row.set("community", community_summary(t.community, t.community_set_aside));
    rows.push_back(row);
  }
  Data data;
  data.set("tools", rows);
  return views.fragment("tool_table", data);
}

std::string ship_rate_text(const Reviewer &r) {
  return share_phrase(kReviewerShipRate, r.verdicts.ships, r.verdicts.total);
}

std::string reviewer_list(const Views &views, const std::vector<Reviewer> &reviewers) {
  Data items{list{}};
  for (const auto &r : reviewers) {
    Data item;
    item.set("slug", r.slug);
    item.set("name", r.name);
    item.set("lens", r.lens);
    item.set("ship_rate", ship_rate_text(r));
    items.push_back(item);
  }
  Data data;
  data.set("reviewers", items);
  return views.fragment("reviewer_list", data);
}

// The sign-up form; a refused address comes back with `problem` beside it, as typed.
std::string newsletter(const Views &views, const SiteCopy &site, const std::string &email = "",
                       const std::string &problem = "") {
  Data data;
  data.set("title", site.newsletter_title);
  data.set("lead", site.newsletter_lead);
  data.set("pitch", site.newsletter_pitch);
  if (!problem.empty()) {
    data.set("problem", problem);
    data.set("email", email);
  }
  return views.fragment("newsletter", data);
}

// Beside a reader's own vote ("Ship vote", "pick of Codestral 2.1"): why it is not counted,
// or nothing when it is.
std::string own_vote_note(const std::string &vote, const VoteStanding &standing) {
  if (!standing) return {};
  return "Your " + vote + " is stored but not counted: " + reason_text(*standing) + ".";
}

// The form with which a reader votes on a tool, showing their vote and, when the counting
// rule set it aside, why.
std::string tool_vote(const Views &views, const Tool &t, std::optional<Verdict> voter_verdict,
                      const VoteStanding &standing, const std::string &back,
                      const std::string &token) {
  Data form;
  form.set("slug", t.slug);
  form.set("name", t.name);
  form.set("back", back);
  form.set("token", token);
  form.set("ship_pressed", voter_verdict == Verdict::ship ? "true" : "false");
  form.set("skip_pressed", voter_verdict == Verdict::skip ? "true" : "false");
  if (voter_verdict) {
    form.set("voted_label", std::string("you voted ") + verdict_label(*voter_verdict));
    set_if(form, "set_aside",
           own_vote_note(verdict_label(*voter_verdict) + std::string(" vote"), standing));
  }
  return views.fragment("tool_vote", form);
}

// `is_page_heading`: the card is the page's own subject (a tool's page), so its name is the h1.
std::string tool_card(const Views &views, const Tool &t, const char *side,
                      const std::string &vote_form, bool is_page_heading = false) {
  Data card;
  card.set("page_heading", bool_data(is_page_heading));
  card.set("side", side);
  card.set("slug", t.slug);
  card.set("name", t.name);
  card.set("category", t.category.name);
  card.set("category_slug", t.category.slug);
  card.set("tagline", t.tagline);
  card.set("description", t.description);
  card.set("entry", t.entry);
  card.set("panel_percent", t.panel.total ? percent_phrase(t.panel.ships, t.panel.total) : "—");
  card.set("panel_basis", std::to_string(t.panel.ships) + " of " + std::to_string(t.panel.total));
  if (t.community.total == 0) {
    card.set("community_percent", "—");
    card.set("community_basis", "");
  } else {
    card.set("community_percent", percent_phrase(t.community.ships, t.community.total));
    card.set("community_basis", " · " + count_phrase(t.community.total, "vote", "votes"));
  }
  set_if(card, "panel_interval", with_interval(t.panel.ships, t.panel.total));
  set_if(card, "community_interval", with_interval(t.community.ships, t.community.total));
  set_if(card, "community_set_aside", set_aside_phrase(t.community_set_aside, t.community.total));
  card.set("vote_form", vote_form);
  return views.fragment("tool_card", card);
}

// The head-to-head form, showing the reader's pick and, when it was set aside, why.
std::string pair_pick(const Views &views, const std::string &path, const Tool &a, const Tool &b,
                      std::optional<int64_t> pick, const VoteStanding &standing,
                      const std::string &token) {
  Data form;
  form.set("vote_action", path + "/vote");
  form.set("token", token);
  form.set("a_name", a.name);
  form.set("b_name", b.name);
  form.set("a_picked", pick == a.id ? "true" : "false");
  form.set("b_picked", pick == b.id ? "true" : "false");
  form.set("has_pick", bool_data(pick.has_value()));
  if (pick)
    set_if(form, "set_aside",
           own_vote_note("pick of " + (pick == a.id ? a.name : b.name), standing));
  return views.fragment("pair_pick", form);
}

// Marks a voter's place in a page rendered for everyone. Every value a page shows is
// escaped, so no content can contain it.
constexpr std::string_view kVoterPlace = "<!--verdict:voter-->";

// The standings a reader's own vote can have, in the order of a voter place's renderings:
// counted, then each reason it can be set aside for.
constexpr std::array<VoteStanding, 3> kStandings = {std::nullopt, SetAsideReason::network,
                                                    SetAsideReason::too_fast};

// Which rendering of a voter place shows a choice (0: none; 1 and 2: the two choices) with its
// standing: 0, then the two choices for each standing in kStandings' order.
size_t rendering_index(size_t choice, const VoteStanding &standing) {
  if (choice == 0) return 0;
  size_t standing_index = 0;
  while (standing_index + 1 < kStandings.size() && kStandings[standing_index] != standing)
    ++standing_index;
  return choice + 2 * standing_index;
}

// Every rendering of a voter place, in rendering_index's order, from `render(choice, standing)`.
template <class Render> std::vector<std::string> every_rendering(const Render &render) {
  std::vector<std::string> renderings{render(0, std::nullopt)};
  for (const auto &standing : kStandings)
    for (size_t choice = 1; choice <= 2; ++choice)
      renderings.push_back(render(choice, standing));
  return renderings;
}

// Every rendering of a tool's vote form: no vote, then ship and skip for each standing.
std::vector<std::string> tool_votes(const Views &views, const Tool &t, const std::string &back,
                                    const std::string &token) {
  return every_rendering([&](size_t choice, const VoteStanding &standing) {
    const std::optional<Verdict> verdict =
        choice == 0 ? std::nullopt : std::optional(choice == 1 ? Verdict::ship : Verdict::skip);
    return tool_vote(views, t, verdict, standing, back, token);
  });
}

// Cuts `html` at each voter's place; there must be exactly `places` of them.
std::vector<std::string> cut_at_voter_places(const std::string &html, size_t places) {
  std::vector<std::string> pieces;
  size_t from = 0;
  for (auto at = html.find(kVoterPlace); at != std::string::npos;
       at = html.find(kVoterPlace, from)) {
    pieces.push_back(html.substr(from, at - from));
    from = at + kVoterPlace.size();
  }
  pieces.push_back(html.substr(from));
  if (pieces.size() != places + 1)
    throw std::logic_error("a page has " + std::to_string(pieces.size() - 1) +
                           " voter places, not " + std::to_string(places));
  return pieces;
}

Data pricing_item(const Tool &t, const char *side, const std::string &today) {
  Data item;
  item.set("side", side);
  item.set("name", t.name);
  item.set("entry", t.entry);
  item.set("notes", t.pricing_notes);
  set_if(item, "checked_on", t.pricing_checked_on);
  set_if(item, "source", t.pricing_source);
  if (is_stale(t.pricing_checked_on, today)) item.set("stale", bool_data(true));
  return item;
}

Data review_item(const Review &r, const char *side) {
  Data item;
  item.set("side", side);
  item.set("quote", r.quote);
  item.set("tool_slug", r.tool_slug);
  item.set("tool_name", r.tool_name);
  item.set("reviewer_slug", r.reviewer_slug);
  item.set("reviewer_name", r.reviewer_name);
  item.set("reviewer_lens", r.reviewer_lens);
  item.set("verdict", verdict_class(r.verdict));
  item.set("verdict_label", verdict_label(r.verdict));
  return item;
}

Data tally_item(const Tool &t) {
  Data item;
  item.set("name", t.name);
  const auto &c = t.community;
  // With no votes there is no bar: an empty track would read as 0% ship.
  item.set("has_votes", bool_data(c.total > 0));
  if (c.total > 0) item.set("ship_percent", std::to_string(whole_percent(c.ships, c.total)));
  std::string summary;
  if (c.total == 0 && t.community_set_aside.total() == 0) {
    summary = "No votes yet — be the first.";
  } else if (c.total == 0) {
    summary = "No votes counted yet — " + set_aside_phrase(t.community_set_aside, 0) + ".";
  } else {
    summary = "Ship " + std::to_string(c.ships) + " · Skip " + std::to_string(c.total - c.ships) +
              " — " + community_summary(c, t.community_set_aside);
  }
  item.set("summary", summary);
  return item;
}

nlohmann::ordered_json software(const Tool &t) {
  nlohmann::ordered_json app = {{"@type", "SoftwareApplication"},
                                {"name", t.name},
                                {"applicationCategory", t.category.name},
                                {"description", t.tagline}};
  if (!t.url.empty()) app["url"] = t.url;
  return app;
}

// A comparison as schema.org sees it: an article about two applications.
std::string comparison_structured_data(const ComparisonDetail &detail, const std::string &title) {
  nlohmann::ordered_json article = {
      {"@context", "https://schema.org"},
      {"@type", "Article"},
      {"headline", title},
      {"about", {software(detail.comparison.a), software(detail.comparison.b)}}};
  if (detail.comparison.published) article["datePublished"] = detail.comparison.published_on;
  return article.dump();
}

// The verdict at a glance (domain/glance.h), for the first page of a comparison.
Data glance_data(const ComparisonDetail &detail) {
  const auto glance = glance_of(detail.comparison, detail.reviews_a, detail.reviews_b);
  auto data = glance_numbers(detail.comparison, glance);
  Data lenses{list{}};
  for (const auto &lens : glance.lenses) {
    Data item;
    item.set("reviewer", lens.reviewer);
    item.set("lens", lens.lens);
    item.set("said", lens.said);
    lenses.push_back(item);
  }
  data.set("lenses", lenses);
  data.set("has_lenses", bool_data(!glance.lenses.empty()));
  return data;
}

} // namespace

std::string sitemap(const Views &views, const std::string &base,
                    const std::vector<SitemapEntry> &entries) {
  Data urls{list{}};
  for (const auto &entry : entries) {
    Data url;
    url.set("loc", base + entry.path);
    set_if(url, "lastmod", entry.last_modified);
    urls.push_back(url);
  }
  Data data;
  data.set("urls", urls);
  return views.fragment("sitemap", data);
}

std::string pagination(const Views &views, const std::string &path, int number, bool has_next) {
  if (number == 1 && !has_next) return {};
  Data data;
  data.set("page", "Page " + std::to_string(number));
  if (number > 1) data.set("prev", page_path(path, number - 1));
  if (has_next) data.set("next", page_path(path, number + 1));
  return views.fragment("pagination", data);
}

std::string panel_summary(const ShipTally &panel) {
  return share_phrase(kPanelTally, panel.ships, panel.total);
}

std::string community_summary(const ShipTally &votes, const SetAside &set_aside) {
  return share_phrase(kCommunityTally, votes.ships, votes.total, set_aside);
}

Data glance_numbers(const Comparison &comparison, const Glance &glance) {
  Data data;
  set_if(data, "bottom_line", comparison.bottom_line);
  data.set("statement", glance.statement);
  data.set("a_name", comparison.a.name);
  data.set("b_name", comparison.b.name);
  data.set("panel_a", glance.panel_a);
  data.set("panel_b", glance.panel_b);
  data.set("community_a", glance.community_a);
  data.set("community_b", glance.community_b);
  return data;
}

std::string home(const Views &views, const HomeData &data) {
  Data page;
  page.set("eyebrow", data.site.comparison_eyebrow);
  page.set("site_name", data.site.site_name);
  page.set("site_tagline", data.site.site_tagline);
  page.set("comparisons", comparison_items(data.comparisons.items));
  page.set("more_comparisons", bool_data(data.comparisons.has_next));
  page.set("tool_table", tool_table(views, data.tools.items));
  page.set("more_tools", bool_data(data.tools.has_next));
  page.set("reviewer_list", reviewer_list(views, data.reviewers.items));
  page.set("more_reviewers", bool_data(data.reviewers.has_next));
  page.set("newsletter", newsletter(views, data.site));
  return views.page("home", page,
                    {data.site.site_name + " — AI tool comparisons", data.site.site_tagline, "/",
                     false, "", std::string(feeds::kSitePath), feeds::site_title(data.site)},
                    data.site);
}

namespace {

// The comparison page with the given vote forms in their places.
std::string comparison_with(const Views &views, const ComparisonDetail &detail,
                            const SiteCopy &site, const std::string &today,
                            const std::string &vote_a, const std::string &vote_b,
                            const std::string &pick_form) {
  const auto &a = detail.comparison.a;
  const auto &b = detail.comparison.b;
  const auto path = "/compare/" + pair_slug(a.slug, b.slug);
  const auto title = title_of(a.name, b.name);

  Data page;
  page.set("eyebrow", site.comparison_eyebrow);
  page.set("title", title);
  page.set("dek", site.comparison_dek);
  set_if(page, "published_on", detail.comparison.published_on);
  set_if(page, "intro", detail.comparison.intro);
  if (detail.page == 1) page.set("glance", glance_data(detail));
  page.set("card_a", tool_card(views, a, "a", vote_a));
  page.set("card_b", tool_card(views, b, "b", vote_b));

  // The scorecard alternates the two tools' reviews, in panel order: A, B, A, B…
  Data quotes{list{}};
  for (size_t i = 0; i < std::max(detail.reviews_a.size(), detail.reviews_b.size()); ++i) {
    if (i < detail.reviews_a.size()) quotes.push_back(review_item(detail.reviews_a[i], "a"));
    if (i < detail.reviews_b.size()) quotes.push_back(review_item(detail.reviews_b[i], "b"));
  }
  page.set("quotes", quotes);
  page.set("pagination", pagination(views, path, detail.page, detail.has_next));

  Data pricing{list{}};
  pricing.push_back(pricing_item(a, "a", today));
  pricing.push_back(pricing_item(b, "b", today));
  page.set("pricing", pricing);

  const auto &picks = detail.picks;
  const auto total = picks.a + picks.b;
  page.set("pick_form", pick_form);
  page.set("a_name", a.name);
  page.set("b_name", b.name);
  page.set("a_share", share_phrase(kPickShare, picks.a, total));
  page.set("b_share", share_phrase(kPickShare, picks.b, total));
  // With no picks there is no split: no bar at all, rather than one that reads as 50/50.
  page.set("has_picks", bool_data(total > 0));
  if (total > 0) page.set("a_percent", std::to_string(whole_percent(picks.a, total)));
  const auto &set_aside = picks.set_aside;
  std::string picks_total = total ? count_phrase(total, "reader has", "readers have") + " picked" +
                                        with_set_aside(set_aside, total)
                            : set_aside.total()
                                ? "No picks counted yet — " + set_aside_phrase(set_aside, 0)
                                : "No picks yet — yours will be the first.";
  page.set("picks_total", picks_total);
  Data tallies{list{}};
  tallies.push_back(tally_item(a));
  tallies.push_back(tally_item(b));
  page.set("tallies", tallies);
  page.set("newsletter", newsletter(views, site));

  const auto canonical = detail.canonical_order ? path : "/compare/" + pair_slug(b.slug, a.slug);
  PageMeta meta{title + " — which one should you ship with?" + page_suffix(detail.page) + " · " +
                    site.site_name,
                title + ": " + site.comparison_dek, page_path(canonical, detail.page),
                !detail.comparison.published, comparison_structured_data(detail, title)};
  // Only a published comparison has a share card (handlers/cards.cpp says why).
  if (detail.comparison.published) {
    meta.image_path = canonical + "/card.png";
    meta.image_width = cards::kCardWidth;
    meta.image_height = cards::kCardHeight;
    meta.image_alt = cards::card_description(detail.comparison);
  }
  return views.page("compare", page, meta, site);
}

std::string comparison_path(const ComparisonDetail &detail) {
  return "/compare/" + pair_slug(detail.comparison.a.slug, detail.comparison.b.slug);
}

} // namespace

std::string comparison(const Views &views, const ComparisonDetail &detail, const SiteCopy &site,
                       const std::string &today, const VoteTokens &tokens) {
  const auto &c = detail.comparison;
  const auto &voter = detail.voter;
  const auto path = comparison_path(detail);
  return comparison_with(
      views, detail, site, today,
      tool_vote(views, c.a, voter.on_a, voter.on_a_standing, path, tokens.tool_a),
      tool_vote(views, c.b, voter.on_b, voter.on_b_standing, path, tokens.tool_b),
      pair_pick(views, path, c.a, c.b, voter.pick, voter.pick_standing, tokens.pair));
}

PersonalPage comparison_page(const Views &views, const ComparisonDetail &detail,
                             const SiteCopy &site, const std::string &today,
                             const VoteTokens &tokens) {
  const auto &c = detail.comparison;
  const auto path = comparison_path(detail);
  const std::string place(kVoterPlace);
  PersonalPage page;
  page.a_id = c.a.id;
  page.b_id = c.b.id;
  page.pieces =
      cut_at_voter_places(comparison_with(views, detail, site, today, place, place, place), 3);
  page.slots = {PersonalPage::Slot::vote_a, PersonalPage::Slot::vote_b, PersonalPage::Slot::pick};
  page.renderings = {
      tool_votes(views, c.a, path, tokens.tool_a), tool_votes(views, c.b, path, tokens.tool_b),
      every_rendering([&](size_t choice, const VoteStanding &standing) {
        const std::optional<int64_t> pick =
            choice == 0 ? std::nullopt : std::optional(choice == 1 ? c.a.id : c.b.id);
        return pair_pick(views, path, c.a, c.b, pick, standing, tokens.pair);
      })};
  return page;
}

namespace {

// Markdown's own characters in `text` escaped with a backslash, so a name reads as itself.
std::string markdown_text(const std::string &text) {
  std::string out;
  for (const char c : text) {
    if (std::string_view("\\`*_[]<>&!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The tool's badge as the page shows it, and the snippets that embed it elsewhere: HTML and
// Markdown with absolute addresses (Views::public_url), the name escaped for each.
Data badge_embed(const Views &views, const Tool &t, const SiteCopy &site) {
  const auto badge = cards::tool_badge(t, site);
  const auto page_url = views.public_url("/tools/" + t.slug);
  const auto badge_url = page_url + "/badge.svg";
  const auto alt = plain_text(t.name + " on " + site.site_name);
  const auto attribute = [](const std::string &text) {
    return kainjow::mustache::html_escape<std::string>(text);
  };
  Data embed;
  embed.set("path", "/tools/" + t.slug + "/badge.svg");
  embed.set("alt", plain_text(badge.title));
  embed.set("width", std::to_string(cards::badge_width(badge)));
  embed.set("html", "<a href=\"" + attribute(page_url) + "\"><img src=\"" + attribute(badge_url) +
                        "\" alt=\"" + attribute(alt) + "\"></a>");
  embed.set("markdown", "[![" + markdown_text(alt) + "](" + badge_url + ")](" + page_url + ")");
  return embed;
}

// The tool page with the given vote form in its card.
std::string tool_with(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                      const std::string &today, const std::string &vote_form) {
  const auto &t = detail.tool;
  Data page;
  page.set("card", tool_card(views, t, "a", vote_form, true));
  page.set("slug", t.slug);
  page.set("name", t.name);
  page.set("entry", t.entry);
  page.set("pricing_notes", t.pricing_notes);
  set_if(page, "checked_on", t.pricing_checked_on);
  set_if(page, "source", t.pricing_source);
  if (is_stale(t.pricing_checked_on, today)) page.set("stale", bool_data(true));
  set_if(page, "vendor", t.vendor);
  set_if(page, "url", t.url);
  Data reviews{list{}};
  for (const auto &r : detail.reviews.items)
    reviews.push_back(review_item(r, "a"));
  page.set("reviews", reviews);
  const auto path = "/tools/" + t.slug;
  const auto number = detail.reviews.number;
  page.set("pagination",
           pagination(views, path, number, detail.reviews.has_next || detail.comparisons.has_next));
  page.set("has_comparisons", bool_data(!detail.comparisons.items.empty()));
  page.set("no_comparisons", bool_data(number == 1 && detail.comparisons.items.empty()));
  page.set("comparisons", comparison_items(detail.comparisons.items));
  // A picker of every other tool while they are few; past that, the other tool's slug.
  page.set("others_listed", bool_data(detail.others_complete));
  Data others{list{}};
  for (const auto &o : detail.others) {
    Data option;
    option.set("slug", o.slug);
    option.set("name", o.name);
    others.push_back(option);
  }
  page.set("others", others);
  page.set("badge", badge_embed(views, t, site));
  auto about = software(t);
  about["@context"] = "https://schema.org";
  return views.page("tool", page,
                    {t.name + " — " + t.tagline + page_suffix(number) + " · " + site.site_name,
                     t.description, page_path(path, number), false, about.dump(),
                     feeds::tool_path(t.slug), feeds::tool_title(t, site)},
                    site);
}

} // namespace

std::string tool(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                 const std::string &today, const std::string &token) {
  const auto &t = detail.tool;
  return tool_with(views, detail, site, today,
                   tool_vote(views, t, detail.voter.on_a, detail.voter.on_a_standing,
                             "/tools/" + t.slug, token));
}

PersonalPage tool_page(const Views &views, const ToolDetail &detail, const SiteCopy &site,
                       const std::string &today, const std::string &token) {
  const auto &t = detail.tool;
  PersonalPage page;
  page.a_id = t.id;
  page.pieces =
      cut_at_voter_places(tool_with(views, detail, site, today, std::string(kVoterPlace)), 1);
  page.slots = {PersonalPage::Slot::vote_a};
  page.renderings = {tool_votes(views, t, "/tools/" + t.slug, token)};
  return page;
}

std::vector<size_t> renderings_for(const PersonalPage &page, const VoterChoices &choices) {
  const auto vote = [](std::optional<Verdict> v) -> size_t {
    return !v ? 0 : v == Verdict::ship ? 1 : 2;
  };
  std::vector<size_t> shown;
  for (const auto slot : page.slots) {
    switch (slot) {
    case PersonalPage::Slot::vote_a:
      shown.push_back(rendering_index(vote(choices.on_a), choices.on_a_standing));
      break;
    case PersonalPage::Slot::vote_b:
      shown.push_back(rendering_index(vote(choices.on_b), choices.on_b_standing));
      break;
    case PersonalPage::Slot::pick:
      shown.push_back(rendering_index(choices.pick == page.a_id   ? 1
                                      : choices.pick == page.b_id ? 2
                                                                  : 0,
                                      choices.pick_standing));
      break;
    }
  }
  return shown;
}

std::string page_for(const PersonalPage &page, const std::vector<size_t> &shown) {
  std::string html;
  html.reserve(page_length(page, shown));
  append_page_for(page, shown, html);
  return html;
}

void append_page_for(const PersonalPage &page, const std::vector<size_t> &shown, std::string &out) {
  out += page.pieces.front();
  for (size_t i = 0; i < page.slots.size(); ++i) {
    out += page.renderings[i][shown[i]];
    out += page.pieces[i + 1];
  }
}

size_t page_length(const PersonalPage &page, const std::vector<size_t> &shown) {
  size_t length = page.pieces.front().size();
  for (size_t i = 0; i < page.slots.size(); ++i)
    length += page.renderings[i][shown[i]].size() + page.pieces[i + 1].size();
  return length;
}

std::string page_for(const PersonalPage &page, const VoterChoices &choices) {
  return page_for(page, renderings_for(page, choices));
}

std::string tools(const Views &views, const Paged<Tool> &tools, const SiteCopy &site) {
  Data page;
  page.set("tool_table", tool_table(views, tools.items));
  page.set("pagination", pagination(views, "/tools", tools.number, tools.has_next));
  return views.page("tools", page,
                    {"Tools" + page_suffix(tools.number) + " · " + site.site_name,
                     "Every AI tool the panel has reviewed.", page_path("/tools", tools.number)},
                    site);
}

std::string comparisons(const Views &views, const Paged<ComparisonSummary> &comparisons,
                        const SiteCopy &site) {
  Data page;
  page.set("comparisons", comparison_items(comparisons.items));
  page.set("pagination",
           pagination(views, "/comparisons", comparisons.number, comparisons.has_next));
  return views.page("comparisons", page,
                    {"Comparisons" + page_suffix(comparisons.number) + " · " + site.site_name,
                     "Every published AI tool comparison, newest first.",
                     page_path("/comparisons", comparisons.number)},
                    site);
}

std::string reviewer(const Views &views, const Reviewer &r, const Paged<Review> &reviews,
                     const SiteCopy &site) {
  Data page;
  page.set("name", r.name);
  page.set("lens", r.lens);
  page.set("bio", r.bio);
  page.set("ship_rate", ship_rate_text(r));
  Data items{list{}};
  for (const auto &review : reviews.items)
    items.push_back(review_item(review, "a"));
  page.set("reviews", items);
  const auto path = "/reviewers/" + r.slug;
  page.set("pagination", pagination(views, path, reviews.number, reviews.has_next));
  return views.page("reviewer", page,
                    {r.name + ", " + r.lens + page_suffix(reviews.number) + " · " + site.site_name,
                     r.bio, page_path(path, reviews.number), false, "",
                     feeds::reviewer_path(r.slug), feeds::reviewer_title(r, site)},
                    site);
}

std::string reviewers(const Views &views, const Paged<Reviewer> &reviewers, const SiteCopy &site) {
  Data page;
  page.set("reviewer_list", reviewer_list(views, reviewers.items));
  page.set("pagination", pagination(views, "/reviewers", reviewers.number, reviewers.has_next));
  return views.page("reviewers", page,
                    {"The reviewer panel" + page_suffix(reviewers.number) + " · " + site.site_name,
                     "The editorial personas behind every panel verdict.",
                     page_path("/reviewers", reviewers.number)},
                    site);
}

std::string methodology(const Views &views, const std::vector<Reviewer> &panel,
                        const SiteCopy &site) {
  Data page;
  Data reviewers{list{}};
  for (const auto &reviewer : panel) {
    Data item;
    item.set("slug", reviewer.slug);
    item.set("name", reviewer.name);
    item.set("lens", reviewer.lens);
    item.set("rate", reviewer.verdicts.total == 0 ? std::string("— · no reviews yet")
                                                  : panel_summary(reviewer.verdicts));
    reviewers.push_back(item);
  }
  page.set("reviewers", reviewers);
  page.set("has_reviewers", bool_data(!panel.empty()));
  page.set("min_votes", std::to_string(kMinVotesForInterval));
  page.set("per_network", std::to_string(kCountedVotersPerNetworkPerDay));
  page.set("networks", "an IPv4 /" + std::to_string(kIpv4NetworkBits) + " or an IPv6 /" +
                           std::to_string(kIpv6NetworkBits));
  page.set("page_lifetime", count_phrase(kVotePageLifetimeSeconds / 3600, "hour", "hours"));
  page.set("reading_time", count_phrase(kSecondsToReadAPage, "second", "seconds"));
  page.set("set_aside_example", community_summary({24, 37}, {12, 0}));
  return views.page("methodology", page,
                    {"Methodology · " + site.site_name,
                     "How every percentage on the site is made, and what the site never does.",
                     "/methodology"},
                    site);
}

std::string categories(const Views &views, const std::vector<CategoryListing> &categories,
                       const SiteCopy &site) {
  Data page;
  Data items{list{}};
  for (const auto &listing : categories) {
    Data item;
    item.set("slug", listing.category.slug);
    item.set("name", listing.category.name);
    item.set("count", std::to_string(listing.tools) + (listing.tools == 1 ? " tool" : " tools"));
    items.push_back(item);
  }
  page.set("categories", items);
  page.set("has_categories", bool_data(!categories.empty()));
  return views.page(
      "categories", page,
      {"Categories · " + site.site_name, "Every kind of AI tool the panel reviews.", "/categories"},
      site);
}

std::string category(const Views &views, const CategoryListing &listing, const Paged<Tool> &tools,
                     const SiteCopy &site) {
  const auto &category = listing.category;
  const auto path = "/categories/" + category.slug;
  Data page;
  page.set("name", category.name);
  page.set("count", std::to_string(listing.tools) + (listing.tools == 1 ? " tool" : " tools"));
  page.set("has_tools", bool_data(!tools.items.empty()));
  page.set("tool_table", tool_table(views, tools.items));
  page.set("pagination", pagination(views, path, tools.number, tools.has_next));
  return views.page("category", page,
                    {category.name + page_suffix(tools.number) + " · " + site.site_name,
                     category.name + ": every tool in it, with the panel's and the community's "
                                     "numbers.",
                     page_path(path, tools.number)},
                    site);
}

namespace {

// `text` as one value of an address's query: every byte but letters, digits and -._~
// percent-encoded.
std::string query_value(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out;
}

// The address of a search hit's page: a tool's, or the page of its tool showing the quote,
// at the quote (tool.mustache gives each quote an id).
std::string hit_link(const SearchHit &hit, int reviews_per_page) {
  const auto tool = "/tools/" + hit.tool_slug;
  if (hit.kind == SearchHit::Kind::tool) return tool;
  const auto page = static_cast<int>(hit.review_position / reviews_per_page) + 1;
  return page_path(tool, page) + "#review-" + hit.reviewer_slug;
}

Data search_item(const SearchHit &hit, int reviews_per_page) {
  const bool is_tool = hit.kind == SearchHit::Kind::tool;
  // A quote's result names its reviewer, lens and verdict as the quote does on a page.
  Data item = is_tool ? Data{}
                      : review_item({hit.tool_slug,
                                     hit.tool_name,
                                     hit.reviewer_slug,
                                     hit.reviewer_name,
                                     hit.reviewer_lens,
                                     hit.verdict,
                                     {}},
                                    "a");
  item.set("is_tool", bool_data(is_tool));
  item.set("is_review", bool_data(!is_tool));
  item.set("link", hit_link(hit, reviews_per_page));
  item.set("marked_excerpt", marked_html(hit.excerpt));
  if (is_tool) {
    item.set("marked_title", marked_html(hit.tool_name));
    item.set("marked_tagline", marked_html(hit.tagline));
  }
  return item;
}

} // namespace

std::string marked_html(std::string_view marked) {
  std::string html;
  html.reserve(marked.size());
  bool in_mark = false;
  for (const char c : marked) {
    switch (c) {
    case kMatchStart:
      if (!in_mark) html += "<mark>";
      in_mark = true;
      break;
    case kMatchEnd:
      if (in_mark) html += "</mark>";
      in_mark = false;
      break;
    case '&':
      html += "&amp;";
      break;
    case '<':
      html += "&lt;";
      break;
    case '>':
      html += "&gt;";
      break;
    case '"':
      html += "&quot;";
      break;
    case '\'':
      html += "&apos;";
      break;
    default:
      html += c;
    }
  }
  if (in_mark) html += "</mark>";
  return html;
}

std::string search(const Views &views, const std::string &query, const SearchResults &results,
                   const SiteCopy &site, int reviews_per_page) {
  const auto &hits = results.hits;
  const auto path = query.empty() ? std::string("/search") : "/search?q=" + query_value(query);
  Data page;
  page.set("query", query);
  page.set("no_query", bool_data(query.empty()));
  page.set("no_results", bool_data(!query.empty() && results.total == 0));
  if (results.total > 0)
    page.set("count", count_phrase(results.total, "result", "results") + " for “" + query + "”");
  Data items{list{}};
  for (const auto &hit : hits.items)
    items.push_back(search_item(hit, reviews_per_page));
  page.set("results", items);
  page.set("has_results", bool_data(!hits.items.empty()));
  page.set("pagination", pagination(views, path, hits.number, hits.has_next));
  const auto title = query.empty() ? std::string("Search") : "Search: " + query;
  PageMeta meta{title + page_suffix(hits.number) + " · " + site.site_name,
                "Search the tools and the panel's reviews.", page_path(path, hits.number)};
  // Not noindex: result pages are reached only through the search form, which crawlers do not
  // submit, so no crawler meets them unless someone links one, and then it is worth listing.
  return views.page("search", page, meta, site);
}

std::string message(const Views &views, const SiteCopy &site, const std::string &eyebrow,
                    const std::string &heading, const std::string &text, const std::string &link,
                    const std::string &link_label) {
  Data page;
  page.set("eyebrow", eyebrow);
  page.set("heading", heading);
  page.set("message", text);
  page.set("link", link);
  page.set("link_label", link_label);
  return views.page("message", page, {heading + " · " + site.site_name, text, link}, site);
}

std::string subscribe(const Views &views, const SiteCopy &site, const std::string &email,
                      const std::string &problem) {
  Data page;
  page.set("heading", problem.empty() ? site.newsletter_title : "Check the address");
  page.set("dek", problem.empty() ? site.newsletter_pitch
                                  : "The address could not be used; it is below as you typed it.");
  page.set("newsletter", newsletter(views, site, email, problem));
  return views.page(
      "subscribe", page,
      {site.newsletter_title + " · " + site.site_name, site.newsletter_lead, "/subscribe"}, site);
}

std::string confirm(const Views &views, const SiteCopy &site, const std::string &token) {
  Data page;
  page.set("title", site.newsletter_title);
  page.set("token", token);
  return views.page(
      "confirm", page,
      {"Confirm your subscription · " + site.site_name, site.newsletter_lead, "/subscribe", true},
      site);
}

std::string unsubscribed(const Views &views, const SiteCopy &site, const std::string &heading,
                         const std::string &text, const std::string &undo_token) {
  Data page;
  page.set("title", site.newsletter_title);
  page.set("heading", heading);
  page.set("message", text);
  if (!undo_token.empty()) {
    page.set("undo", true);
    page.set("token", undo_token);
  }
  return views.page("unsubscribed", page,
                    {heading + " · " + site.site_name, text, "/subscribe", true}, site);
}

} // namespace verdict::pages
