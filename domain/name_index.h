// The tools' names as a search reads them: each name's terms (as the search index cuts and
// folds them: store/search.cpp), the tools holding given terms, best named first, and the
// name term a mistyped word was meant to be. Held in memory for a search: a name is what a
// reader types most, and the answer for every tool's name must cost microseconds on a site of
// any size (docs/PAGES.md, "Search").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace verdict {

class NameIndex {
public:
  struct Named {
    int64_t id = 0;
    std::string name;                   // as the site shows it
    std::vector<std::string> terms;     // the name's terms, in order
    std::vector<std::string> spellings; // each term as the name spells it
  };
  explicit NameIndex(std::vector<Named> tools);

  // The tools whose names hold every one of `terms` (the last also as the start of a longer
  // term when `last_may_start` — a reader still typing it), best first: a name that is
  // exactly the terms, then names of fewer terms (closer to what was typed), then by name
  // and id. At most `limit`.
  std::vector<int64_t> holding(const std::vector<std::string> &terms, bool last_may_start,
                               size_t limit) const;
  // Whether some name holds `term` (or, with `as_start`, a term it starts).
  bool holds(std::string_view term, bool as_start) const;
  // The name term a reader most likely meant by `typed`: one within the edits a typo is
  // forgiven (typo_edits_allowed), fewest edits first, then the term in most names, then the
  // first in alphabetical order. None when no term is near enough, or `typed` is a name's term.
  std::optional<std::string> meant(std::string_view typed) const;
  // `term` as the oldest name holding it spells it ("Cursor" for cursor); the term itself
  // when no name does.
  std::string spelling_of(const std::string &term) const;

private:
  std::vector<Named> tools_;
  std::vector<uint32_t> name_rank_; // each tool's place among all, as `holding` orders them
  // Every term of every name, in byte order (for the terms a start begins), and the tools
  // holding each (positions in tools_, ascending).
  std::vector<std::string> terms_;
  std::unordered_map<std::string, std::vector<uint32_t>> holders_;
  std::unordered_map<std::string, std::string> spellings_;
  // The terms by their length in letters: a typo is looked for only among terms of nearly its
  // length. Each as its place in terms_ and its letters.
  struct Spelled {
    uint32_t at;
    std::u32string points;
  };
  std::vector<std::vector<Spelled>> terms_by_length_;
};

// How many edits (a letter added, left out, changed, or two side by side swapped) a typed word
// of `letters` letters may be from the word meant: none below five letters, one from five, two
// from nine (as readers expect of a search box, after Meilisearch's defaults).
int typo_edits_allowed(size_t letters);
// The edits between `a` and `b`, counted in letters (UTF-8 code points), when at most `most`;
// none when more.
std::optional<int> edits_within(std::string_view a, std::string_view b, int most);

} // namespace verdict
