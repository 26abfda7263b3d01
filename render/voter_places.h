// Cutting a page every reader sees alike at its voters' places (pages.h's PersonalPage), for the
// page files that have vote forms: the forms themselves, in every rendering a place can show.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/model.h"
#include "render/views.h"

namespace verdict::pages::parts {

// Marks a voter's place in a page rendered for everyone. Every value a page shows is
// escaped, so no content can contain it.
inline constexpr std::string_view kVoterPlace = "<!--verdict:voter-->";

// The standings a reader's own vote can have, in the order of a voter place's renderings:
// counted, then each reason it can be set aside for.
inline constexpr std::array<VoteStanding, 3> kStandings = {std::nullopt, SetAsideReason::network,
                                                           SetAsideReason::too_fast};

// Every rendering of a voter place from `render(choice, standing)`: no choice, then the two
// choices (1 and 2) for each standing in kStandings' order.
template <class Render> std::vector<std::string> every_rendering(const Render &render) {
  std::vector<std::string> renderings{render(0, std::nullopt)};
  for (const auto &standing : kStandings)
    for (size_t choice = 1; choice <= 2; ++choice)
      renderings.push_back(render(choice, standing));
  return renderings;
}

// The form with which a reader votes on a tool, showing their vote and, when the counting
// rule set it aside, why.
std::string tool_vote(const Views &views, const Tool &t, std::optional<Verdict> voter_verdict,
                      const VoteStanding &standing, const std::string &back,
                      const std::string &token);
// The head-to-head form, showing the reader's pick and, when it was set aside, why.
std::string pair_pick(const Views &views, const std::string &path, const Tool &a, const Tool &b,
                      std::optional<int64_t> pick, const VoteStanding &standing,
                      const std::string &token);
// Every rendering of a tool's vote form: no vote, then ship and skip for each standing.
std::vector<std::string> tool_votes(const Views &views, const Tool &t, const std::string &back,
                                    const std::string &token);
// Cuts `html` at each voter's place; there must be exactly `places` of them.
std::vector<std::string> cut_at_voter_places(const std::string &html, size_t places);

} // namespace verdict::pages::parts
