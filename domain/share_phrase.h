// How a share of reviews or votes is written as words: the one rule behind every percentage a
// reader meets beside what it is a share of (lists, tool cards, the verdict at a glance, the
// head-to-head picks, the digest). Each place names one of the wordings below; the numbers
// themselves are domain/numbers.h's, what was set aside domain/counting.h's.
//
//   wording            | a share                          | a share of nothing
//   kPanelTally        | 75% · 3 of 4                     | —
//   kReviewerShipRate  | Ships 60% · 3 of 5 reviews;      | No reviews yet
//                      | below 5: Ships in 3 of 4 reviews |
//   kGlancePanel       | 60% ship · 3 of 5 reviews;       | No reviews yet
//                      | below 5: 1 of 1 review says ship |
//   kCommunityTally    | 67% · 3 votes                    | —
//   kGlanceCommunity   | 60% ship · 5 votes;              | No votes yet, or with votes set
//                      | below 5: 2 of 3 votes say ship   | aside: No votes counted yet
//   kPickShare         | 60% · 3 of 5 picks, from 5 on;   | No picks yet
//                      | below: 1 of 3 picks; 0: None of  |
//                      | 3 picks (no 0% beside a pick)    |
//
// A share is followed by its interval (" · 95% interval 40–80%", from kMinVotesForInterval
// counted on), then by what was set aside (" (5 cast, 2 set aside: …)") when anything was; a
// share of nothing by what was set aside alone.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "domain/model.h"

namespace verdict {

// What follows a share's percent and " · ": the counts the share is made of.
enum class ShareBasis {
  part_of_total, // "3 of 4", or "3 of 4 reviews" with a noun
  total,         // "3 votes": all that were counted
  part,          // "3 votes": this side's
};

struct ShareWording {
  std::string_view before_percent = {}; // "Ships "
  std::string_view after_percent = {};  // " ship"
  ShareBasis basis = ShareBasis::part_of_total;
  const char *singular = nullptr; // what is counted, "review"; nullptr: the counts stand alone
  const char *plural = nullptr;
  std::string_view nothing = "—"; // a share of nothing
  // A share of nothing when votes were set aside, where that reads otherwise than `nothing`.
  std::string_view nothing_counted = {};
  // When set, a side with none of the counts reads "None of 3 picks" rather than a 0%.
  std::string_view none_of = {};
  // Whether the percent waits for kMinVotesForInterval counts: below it the counts stand
  // alone ("1 of 3 picks"), so a share of a handful does not read as strongly as a real one.
  bool percent_once_enough = false;
  // Around the counts that stand alone below kMinVotesForInterval: "Ships in 3 of 4 reviews",
  // "3 of 4 reviews say ship", "1 of 4 reviews says ship" (the verb agrees with the part).
  std::string_view few_before = {};
  std::string_view few_after_one = {}, few_after_many = {};
};

inline constexpr ShareWording kPanelTally{.basis = ShareBasis::part_of_total};
inline constexpr ShareWording kReviewerShipRate{.before_percent = "Ships ",
                                                .basis = ShareBasis::part_of_total,
                                                .singular = "review",
                                                .plural = "reviews",
                                                .nothing = "No reviews yet",
                                                .percent_once_enough = true,
                                                .few_before = "Ships in "};
inline constexpr ShareWording kGlancePanel{.after_percent = " ship",
                                           .basis = ShareBasis::part_of_total,
                                           .singular = "review",
                                           .plural = "reviews",
                                           .nothing = "No reviews yet",
                                           .percent_once_enough = true,
                                           .few_after_one = " says ship",
                                           .few_after_many = " say ship"};
inline constexpr ShareWording kCommunityTally{
    .basis = ShareBasis::total, .singular = "vote", .plural = "votes"};
inline constexpr ShareWording kGlanceCommunity{.after_percent = " ship",
                                               .basis = ShareBasis::total,
                                               .singular = "vote",
                                               .plural = "votes",
                                               .nothing = "No votes yet",
                                               .nothing_counted = "No votes counted yet",
                                               .percent_once_enough = true,
                                               .few_after_one = " says ship",
                                               .few_after_many = " say ship"};
inline constexpr ShareWording kPickShare{.basis = ShareBasis::part_of_total,
                                         .singular = "pick",
                                         .plural = "picks",
                                         .nothing = "No picks yet",
                                         .none_of = "None of",
                                         .percent_once_enough = true};

// `part` of `total` in `wording`, then its interval and what was set aside (table above).
std::string share_phrase(const ShareWording &wording, int64_t part, int64_t total,
                         const SetAside &set_aside = {});

// "75%": part / total as a whole percent (total must be positive).
std::string percent_phrase(int64_t part, int64_t total);

} // namespace verdict
