#include "domain/name_index.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <tuple>

#include "domain/text.h"
#include "domain/utf8.h"

namespace verdict {

namespace {

std::u32string code_points(std::string_view text) {
  std::u32string points;
  points.reserve(text.size());
  while (!text.empty()) {
    const auto character = first_character(text);
    points.push_back(character.code);
    text.remove_prefix(character.length);
  }
  return points;
}

// Optimal string alignment: Levenshtein's edits and a swap of two letters side by side, each
// one edit. Three rows are kept; a row whose every cell is past `most` ends it early.
std::optional<int> point_edits_within(std::u32string_view a, std::u32string_view b, int most) {
  const auto length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > static_cast<size_t>(most)) return std::nullopt;
  constexpr size_t kLongest = 64; // longer words are never typos of a name's term
  if (b.size() >= kLongest) return std::nullopt;
  std::array<int, kLongest + 1> before_last{}, last{}, row{};
  std::iota(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(b.size() + 1), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = static_cast<int>(i);
    int best = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const int changed = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + changed});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], before_last[j - 2] + 1);
      best = std::min(best, row[j]);
    }
    if (best > most) return std::nullopt;
    std::swap(before_last, last);
    std::swap(last, row);
  }
  if (last[b.size()] > most) return std::nullopt;
  return last[b.size()];
}

} // namespace

int typo_edits_allowed(size_t letters) {
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0;
}

std::optional<int> edits_within(std::string_view a, std::string_view b, int most) {
  return point_edits_within(code_points(a), code_points(b), most);
}

NameIndex::NameIndex(std::vector<Named> tools) : tools_(std::move(tools)) {
  // The oldest tool first, so each term is spelled as its oldest name spells it.
  std::sort(tools_.begin(), tools_.end(),
            [](const Named &x, const Named &y) { return x.id < y.id; });
  for (uint32_t at = 0; at < tools_.size(); ++at) {
    const auto &tool = tools_[at];
    for (size_t i = 0; i < tool.terms.size(); ++i) {
      auto &holders = holders_[tool.terms[i]];
      if (holders.empty() || holders.back() != at) holders.push_back(at);
      if (i < tool.spellings.size()) spellings_.try_emplace(tool.terms[i], tool.spellings[i]);
    }
  }
  terms_.reserve(holders_.size());
  for (const auto &[term, holders] : holders_)
    terms_.push_back(term);
  std::sort(terms_.begin(), terms_.end());
  // Shorter names first, then by name as a reader reads it, then the older tool.
  std::vector<uint32_t> by_rank(tools_.size());
  std::iota(by_rank.begin(), by_rank.end(), 0);
  std::vector<std::string> folded(tools_.size());
  for (uint32_t at = 0; at < tools_.size(); ++at)
    folded[at] = ascii_lowercase(tools_[at].name);
  std::sort(by_rank.begin(), by_rank.end(), [&](uint32_t x, uint32_t y) {
    const auto x_terms = tools_[x].terms.size(), y_terms = tools_[y].terms.size();
    return std::tie(x_terms, folded[x], tools_[x].id) < std::tie(y_terms, folded[y], tools_[y].id);
  });
  name_rank_.resize(tools_.size());
  for (uint32_t place = 0; place < by_rank.size(); ++place)
    name_rank_[by_rank[place]] = place;
  for (uint32_t at = 0; at < terms_.size(); ++at) {
    auto points = code_points(terms_[at]);
    if (terms_by_length_.size() <= points.size()) terms_by_length_.resize(points.size() + 1);
    terms_by_length_[points.size()].push_back({at, std::move(points)});
  }
}

bool NameIndex::holds(std::string_view term, bool as_start) const {
  const auto first = std::lower_bound(terms_.begin(), terms_.end(), term);
  if (first == terms_.end()) return false;
  return as_start ? std::string_view(*first).starts_with(term) : *first == term;
}

std::vector<int64_t> NameIndex::holding(const std::vector<std::string> &terms, bool last_may_start,
                                        size_t limit) const {
  if (terms.empty()) return {};
  // The tools holding one term: its holders, or for a start every holder of a term it begins.
  const auto holders_of = [&](const std::string &term, bool as_start) {
    if (!as_start) {
      const auto found = holders_.find(term);
      return found == holders_.end() ? std::vector<uint32_t>{} : found->second;
    }
    std::vector<uint32_t> all;
    for (auto it = std::lower_bound(terms_.begin(), terms_.end(), term);
         it != terms_.end() && it->starts_with(term); ++it) {
      const auto &some = holders_.at(*it);
      all.insert(all.end(), some.begin(), some.end());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  };
  std::vector<uint32_t> found = holders_of(terms.back(), last_may_start);
  for (size_t i = 0; i + 1 < terms.size() && !found.empty(); ++i) {
    const auto also = holders_of(terms[i], false);
    std::vector<uint32_t> both;
    std::set_intersection(found.begin(), found.end(), also.begin(), also.end(),
                          std::back_inserter(both));
    found.swap(both);
  }
  const auto rank = [&](uint32_t at) {
    return std::pair(tools_[at].terms != terms, name_rank_[at]);
  };
  const auto take = std::min(limit, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(take), found.end(),
                    [&](uint32_t x, uint32_t y) { return rank(x) < rank(y); });
  std::vector<int64_t> ids;
  ids.reserve(take);
  for (size_t i = 0; i < take; ++i)
    ids.push_back(tools_[found[i]].id);
  return ids;
}

std::string NameIndex::spelling_of(const std::string &term) const {
  const auto found = spellings_.find(term);
  return found == spellings_.end() ? term : found->second;
}

std::optional<std::string> NameIndex::meant(std::string_view typed) const {
  if (holders_.contains(std::string(typed))) return std::nullopt; // a name's own term
  const auto typed_points = code_points(typed);
  const int allowed = typo_edits_allowed(typed_points.size());
  if (allowed == 0) return std::nullopt;
  // Only terms whose lengths are within the edits allowed can be near enough.
  const auto shortest = typed_points.size() - std::min<size_t>(typed_points.size(), allowed);
  const auto longest = std::min(typed_points.size() + allowed + 1, terms_by_length_.size());
  std::optional<uint32_t> best;
  int best_edits = allowed + 1;
  size_t best_holders = 0;
  for (auto length = shortest; length < longest; ++length)
    for (const auto &[at, points] : terms_by_length_[length]) {
      const auto edits = point_edits_within(typed_points, points, allowed);
      if (!edits || *edits == 0) continue;
      const auto holders = holders_.at(terms_[at]).size();
      // Fewer edits win; at equal edits, the term more names hold, then the first in
      // alphabetical order.
      if (*edits < best_edits || (*edits == best_edits && holders > best_holders) ||
          (*edits == best_edits && holders == best_holders && best && at < *best)) {
        best = at;
        best_edits = *edits;
        best_holders = holders;
      }
    }
  if (!best) return std::nullopt;
  return terms_[*best];
}

} // namespace verdict
