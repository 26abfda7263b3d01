// The comparison page: two tools side by side, the verdict at a glance, the panel's quotes
// alternating, pricing, the head-to-head pick and the community's tallies; and the glance's
// numbers as the digest shares them.
#include "render/pages.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "domain/counting.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
#include "domain/slugs.h"
#include "render/cards.h"
#include "render/page_parts.h"
#include "render/voter_places.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

namespace {

Data pricing_item(const Tool &t, const char *side, const std::string &today) {
  Data item;
  item.set("side", side);
  item.set("name", t.name);
  item.set("entry", t.entry);
  item.set("notes", t.pricing_notes);
  set_pricing_check(item, t, today);
  return item;
}

Data tally_item(const Views &views, const Tool &t) {
  Data item;
  item.set("name", t.name);
  const auto &c = t.community;
  // With no votes there is no bar: an empty track would read as 0% ship.
  item.set("has_votes", bool_data(c.total > 0));
  item.set("few", bool_data(c.total > 0 && c.total < kMinVotesForInterval));
  item.set("readings",
           interval_readings(views, {interval_reading(c.ships, c.total, community_share_of(t))}));
  if (c.total > 0) item.set("ship_percent", std::to_string(whole_percent(c.ships, c.total)));
  std::string summary;
  if (c.total == 0 && t.community_set_aside.total() == 0) {
    summary = "No votes yet — be the first.";
  } else if (c.total == 0) {
    summary = "No votes counted yet — " + set_aside_phrase(t.community_set_aside, 0) + ".";
  } else {
    // A sentence of its own: "Too few votes to be sure." may follow it.
    summary = "Ship " + std::to_string(c.ships) + " · Skip " + std::to_string(c.total - c.ships) +
              " — " + community_summary(c, t.community_set_aside) + ".";
  }
  item.set("summary", summary);
  return item;
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
Data glance_data(const Views &views, const ComparisonDetail &detail) {
  const auto glance = glance_of(detail.comparison, detail.reviews_a, detail.reviews_b);
  auto data = glance_numbers(detail.comparison, glance);
  const auto &[a, b, picks] =
      std::tie(detail.comparison.a, detail.comparison.b, detail.comparison.picks);
  const auto picked = picks.a + picks.b;
  data.set(
      "readings",
      interval_readings(
          views, {interval_reading(a.panel.ships, a.panel.total, panel_share_of(a)),
                  interval_reading(b.panel.ships, b.panel.total, panel_share_of(b)),
                  interval_reading(a.community.ships, a.community.total, community_share_of(a)),
                  interval_reading(b.community.ships, b.community.total, community_share_of(b)),
                  interval_reading(picks.a, picked, picks_share_of(a, b)),
                  interval_reading(picks.b, picked, picks_share_of(b, a))}));
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

// The comparison page with the given vote forms in their places; under `preview`'s banner when
// it is the desk's preview of its text (pages::comparison).
std::string comparison_with(const Views &views, const ComparisonDetail &detail,
                            const SiteCopy &site, const std::string &today,
                            const std::string &vote_a, const std::string &vote_b,
                            const std::string &pick_form, const DeskPreview &preview = {}) {
  const auto &a = detail.comparison.a;
  const auto &b = detail.comparison.b;
  const auto path = "/compare/" + pair_slug(a.slug, b.slug);
  const auto title = title_of(a.name, b.name);

  Data page;
  page.set("eyebrow", site.comparison_eyebrow);
  page.set("title", title);
  page.set("dek", site.comparison_dek);
  set_if(page, "published_on", detail.comparison.published_on);
  // Without a date a reader sees a pair nobody picked; the desk sees the draft it will be.
  const bool previewed = !preview.banner.empty();
  if (detail.comparison.published_on.empty()) page.set(previewed ? "draft" : "not_picked", true);
  set_if(page, "intro", detail.comparison.intro);
  if (detail.page == 1) page.set("glance", glance_data(views, detail));
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
  page.set("has_related", bool_data(!detail.related.empty()));
  page.set("related_list", comparison_list(views, detail.related));

  const auto &picks = detail.comparison.picks;
  const auto total = picks.a + picks.b;
  page.set("pick_form", pick_form);
  page.set("a_name", a.name);
  page.set("b_name", b.name);
  // With no picks there is no split: no shares, no bar at all (one that reads as 50/50), and
  // the line under it says there are none.
  if (total > 0) {
    page.set("a_share", share_phrase(kPickShare, picks.a, total));
    page.set("b_share", share_phrase(kPickShare, picks.b, total));
  }
  page.set("has_picks", bool_data(total > 0));
  page.set("few_picks", bool_data(total > 0 && total < kMinVotesForInterval));
  page.set("pick_readings",
           interval_readings(views, {interval_reading(picks.a, total, picks_share_of(a, b)),
                                     interval_reading(picks.b, total, picks_share_of(b, a))}));
  if (total > 0) page.set("a_percent", std::to_string(whole_percent(picks.a, total)));
  const auto &set_aside = picks.set_aside;
  // Each a sentence of its own: "Too few picks to be sure." may follow it.
  std::string picks_total = total ? count_phrase(total, "reader has", "readers have") + " picked" +
                                        with_set_aside(set_aside, total) + "."
                            : set_aside.total()
                                ? "No picks counted yet — " + set_aside_phrase(set_aside, 0) + "."
                                : "No picks yet — yours will be the first.";
  page.set("picks_total", picks_total);
  // The split in the vote log's terms, for `verdict verify`: the lower id's picks first.
  page.set("log_tally", log_tally(pair_target(a.id, b.id), pair_standing(a.id, b.id, picks)));
  Data tallies{list{}};
  tallies.push_back(tally_item(views, a));
  tallies.push_back(tally_item(views, b));
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
  meta.vote_log_size = std::to_string(detail.vote_log_size);
  if (previewed) {
    meta.noindex = true;
    meta.preview = preview;
  }
  return views.page("compare", page, meta, site);
}

std::string comparison_path(const ComparisonDetail &detail) {
  return "/compare/" + pair_slug(detail.comparison.a.slug, detail.comparison.b.slug);
}

} // namespace

Data glance_numbers(const Comparison &comparison, const Glance &glance) {
  Data data;
  set_if(data, "bottom_line", comparison.bottom_line);
  // One item per line the editor wrote: a "Ship with … if …" for each tool.
  Data lines{Data::type::list};
  std::istringstream written(comparison.bottom_line);
  for (std::string line; std::getline(written, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(Data(line));
  data.set("bottom_lines", lines);
  data.set("statement", glance.statement);
  data.set("a_name", comparison.a.name);
  data.set("b_name", comparison.b.name);
  data.set("panel_a", glance.panel_a);
  data.set("panel_b", glance.panel_b);
  data.set("community_a", glance.community_a);
  data.set("community_b", glance.community_b);
  data.set("picks_a", glance.picks_a);
  data.set("picks_b", glance.picks_b);
  return data;
}

std::string comparison(const Views &views, const ComparisonDetail &detail, const SiteCopy &site,
                       const std::string &today, const VoteTokens &tokens,
                       const DeskPreview &preview) {
  const auto &c = detail.comparison;
  const auto &voter = detail.voter;
  const auto path = comparison_path(detail);
  if (!preview.banner.empty()) {
    // The editor looks at the text; a vote from here would be a real one, in their name.
    const auto off = [&views](const std::string &what) {
      Data note;
      note.set("what", what);
      return views.fragment("preview_vote_off", note);
    };
    return comparison_with(views, detail, site, today, off("readers vote on " + c.a.name + " here"),
                           off("readers vote on " + c.b.name + " here"),
                           off("readers pick between the two here"), preview);
  }
  return comparison_with(
      views, detail, site, today,
      tool_vote(views, c.a, voter.on_a, voter.on_a_standing, path, tokens.tool_a),
      tool_vote(views, c.b, voter.on_b, voter.on_b_standing, path, tokens.tool_b),
      pair_pick(views, path, c.a, c.b, voter.pick, voter.pick_standing, tokens.pair), preview);
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
  // In the page's order: the head-to-head pick (right under the verdict at a glance), then the
  // two tools' cards with their votes.
  page.slots = {PersonalPage::Slot::pick, PersonalPage::Slot::vote_a, PersonalPage::Slot::vote_b};
  page.renderings = {
      every_rendering([&](size_t choice, const VoteStanding &standing) {
        const std::optional<int64_t> pick =
            choice == 0 ? std::nullopt : std::optional(choice == 1 ? c.a.id : c.b.id);
        return pair_pick(views, path, c.a, c.b, pick, standing, tokens.pair);
      }),
      tool_votes(views, c.a, path, tokens.tool_a), tool_votes(views, c.b, path, tokens.tool_b)};
  return page;
}

} // namespace verdict::pages
