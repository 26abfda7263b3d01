#include "render/api.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "domain/counting.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/slugs.h"
#include "domain/tallies.h"

namespace verdict::api {

namespace {

using json = nlohmann::ordered_json;

// A tally as the pages show it: the counts, and the whole percent when there is a count.
json tally(const ShipTally &t, const char *count_name) {
  json out = {{"ships", t.ships}, {count_name, t.total}};
  out["percent"] = t.total ? json(whole_percent(t.ships, t.total)) : json(nullptr);
  if (t.total >= kMinVotesForInterval) {
    const auto interval = wilson_interval(t.ships, t.total);
    out["interval_95"] = {interval.low, interval.high};
  }
  return out;
}

// Votes stored but not counted (domain/counting.h), by reason, with the reason in words.
json set_aside_json(const SetAside &set_aside) {
  json reasons = json::array();
  for (const auto &[reason, votes] : {std::pair{SetAsideReason::network, set_aside.network},
                                      std::pair{SetAsideReason::too_fast, set_aside.too_fast}})
    if (votes)
      reasons.push_back(
          {{"reason", reason_code(reason)}, {"votes", votes}, {"why", reason_text(reason)}});
  return {{"total", set_aside.total()}, {"reasons", reasons}};
}

json tool_summary(const Tool &t) {
  return {{"slug", t.slug},
          {"log_target", vote_target_code(tool_target(t.id))},
          {"name", t.name},
          {"url", "/tools/" + t.slug},
          {"category", {{"slug", t.category.slug}, {"name", t.category.name}}},
          {"tagline", t.tagline},
          {"entry", t.entry},
          {"panel", tally(t.panel, "reviews")},
          {"community", tally(t.community, "votes")},
          {"cast", t.community.total + t.community_set_aside.total()},
          {"set_aside", set_aside_json(t.community_set_aside)}};
}

json review(const Review &r) {
  return {{"reviewer",
           {{"slug", r.reviewer_slug}, {"name", r.reviewer_name}, {"lens", r.reviewer_lens}}},
          {"verdict", verdict_word(r.verdict)},
          {"quote", r.quote}};
}

} // namespace

std::string tools(const Paged<Tool> &tools, uint64_t vote_log_size) {
  json list = json::array();
  for (const auto &t : tools.items)
    list.push_back(tool_summary(t));
  json out = {{"tools", list}, {"page", tools.number}};
  out["next"] =
      tools.has_next ? json("/api/tools?page=" + std::to_string(tools.number + 1)) : json(nullptr);
  out["vote_log_size"] = vote_log_size;
  return out.dump(2) + "\n";
}

std::string comparisons(const Paged<ComparisonSummary> &comparisons) {
  json list = json::array();
  for (const auto &c : comparisons.items) {
    const auto slug = pair_slug(c.a_slug, c.b_slug);
    list.push_back({{"url", "/compare/" + slug},
                    {"api", "/api/compare/" + slug},
                    {"a", {{"slug", c.a_slug}, {"name", c.a_name}}},
                    {"b", {{"slug", c.b_slug}, {"name", c.b_name}}},
                    {"published_on", c.published_on}});
  }
  json out = {{"comparisons", list}, {"page", comparisons.number}};
  out["next"] = comparisons.has_next
                    ? json("/api/comparisons?page=" + std::to_string(comparisons.number + 1))
                    : json(nullptr);
  return out.dump(2) + "\n";
}

std::string tool(const ToolDetail &detail) {
  const auto &t = detail.tool;
  json out = tool_summary(t);
  out["description"] = t.description;
  out["vendor"] = t.vendor;
  out["website"] = t.url;
  out["pricing"] = {
      {"notes", t.pricing_notes},
      {"checked_on", t.pricing_checked_on.empty() ? json(nullptr) : json(t.pricing_checked_on)},
      {"source", t.pricing_source}};
  json reviews = json::array();
  for (const auto &r : detail.reviews.items)
    reviews.push_back(review(r));
  out["reviews"] = reviews;
  out["more_reviews"] = detail.reviews.has_next;
  out["vote_log_size"] = detail.vote_log_size;
  return out.dump(2) + "\n";
}

std::string alternatives(const RankedAlternatives &ranked) {
  const auto strength = [](const Strength &s) {
    return json{{"chance", s.chance}, {"low", s.low}, {"high", s.high}, {"picks", s.picks}};
  };
  const auto &t = ranked.tool;
  json rows = json::array();
  for (const auto &row : ranked.ranked) {
    const auto &other = row.candidate.tool;
    auto item = tool_summary(other);
    item["tier"] = row.tier;
    item["readers_strength"] = strength(row.strength);
    item["panel_lower_bound"] = row.panel_lower;
    item["head_to_head"] = {{t.slug, row.versus.a}, {other.slug, row.versus.b}};
    item["comparison"] =
        "/compare/" + (row.candidate.tool_is_first ? pair_slug(t.slug, other.slug)
                                                   : pair_slug(other.slug, t.slug));
    item["published"] = row.candidate.compared;
    rows.push_back(item);
  }
  json out = {{"tool", tool_summary(t)},
              {"readers_strength", strength(ranked.strength)},
              {"alternatives", rows},
              {"method", "/methodology#alternatives"}};
  return out.dump(2) + "\n";
}

std::string comparison(const ComparisonDetail &detail) {
  const auto &c = detail.comparison;
  const auto glance = glance_of(c, detail.reviews_a, detail.reviews_b);
  const auto picks = detail.comparison.picks.a + detail.comparison.picks.b;
  json out = {
      {"url", "/compare/" + pair_slug(c.a.slug, c.b.slug)},
      {"a", tool_summary(c.a)},
      {"b", tool_summary(c.b)},
      {"published", c.published},
      {"published_on", c.published ? json(c.published_on) : json(nullptr)},
      {"intro", c.intro},
      {"bottom_line", c.bottom_line},
      {"picks",
       {{"a", detail.comparison.picks.a}, {"b", detail.comparison.picks.b}, {"total", picks}}},
      {"cast", picks + detail.comparison.picks.set_aside.total()},
      {"set_aside", set_aside_json(detail.comparison.picks.set_aside)},
      {"verdict", glance.statement},
      {"log_target", vote_target_code(pair_target(c.a.id, c.b.id))},
      {"vote_log_size", detail.vote_log_size}};
  return out.dump(2) + "\n";
}

std::string error(const std::string &message) {
  return json{{"error", message}}.dump() + "\n";
}

} // namespace verdict::api
