// A page every reader sees alike but for their own votes (pages.h's PersonalPage): the vote
// forms in each of their renderings, the page cut at its voters' places, and the page put
// back together for one voter's choices.
#include "render/voter_places.h"

#include <stdexcept>

#include "domain/counting.h"
#include "render/page_parts.h"
#include "render/pages.h"

namespace verdict::pages {

using namespace parts;

namespace {

// Beside a reader's own vote ("Ship vote", "pick of Codestral 2.1"): why it is not counted,
// or nothing when it is.
std::string own_vote_note(const std::string &vote, const VoteStanding &standing) {
  if (!standing) return {};
  return "Your " + vote + " is stored but not counted: " + reason_text(*standing) + ".";
}

// Which rendering of a voter place shows a choice (0: none; 1 and 2: the two choices) with its
// standing: 0, then the two choices for each standing in kStandings' order.
size_t rendering_index(size_t choice, const VoteStanding &standing) {
  if (choice == 0) return 0;
  size_t standing_index = 0;
  while (standing_index + 1 < kStandings.size() && kStandings[standing_index] != standing)
    ++standing_index;
  return choice + 2 * standing_index;
}

} // namespace

namespace parts {

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

std::vector<std::string> tool_votes(const Views &views, const Tool &t, const std::string &back,
                                    const std::string &token) {
  return every_rendering([&](size_t choice, const VoteStanding &standing) {
    const std::optional<Verdict> verdict =
        choice == 0 ? std::nullopt : std::optional(choice == 1 ? Verdict::ship : Verdict::skip);
    return tool_vote(views, t, verdict, standing, back, token);
  });
}

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

} // namespace parts

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

} // namespace verdict::pages
