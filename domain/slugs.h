// Slugs are the identity of tools, reviewers and categories, and a comparison's URL is two
// tool slugs joined by "-vs-". Tool slugs may themselves contain "-vs-", so a pair slug can
// split more than one way; the caller decides which split names real tools.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace verdict {

// The longest slug, in bytes.
constexpr size_t kMaxSlugLength = 120;
// What joins two slugs into one name: a comparison's "<a>-vs-<b>", and a review's desk key
// "<tool>--<reviewer>" (no slug holds "--", so the key splits one way only).
constexpr std::string_view kPairSeparator = "-vs-";
constexpr std::string_view kReviewKeySeparator = "--";
// The longest names made of two slugs.
constexpr size_t kMaxPairSlugLength = 2 * kMaxSlugLength + kPairSeparator.size();
constexpr size_t kMaxReviewKeyLength = 2 * kMaxSlugLength + kReviewKeySeparator.size();
// Three or four tools side by side: "<a>-vs-<b>-vs-<c>[-vs-<d>]".
constexpr size_t kMostSideBySide = 4;
constexpr size_t kMaxSideBySideLength =
    kMostSideBySide * kMaxSlugLength + (kMostSideBySide - 1) * kPairSeparator.size();

// Lowercase ASCII letters and digits in runs joined by single hyphens, at most
// kMaxSlugLength bytes.
bool is_valid_slug(std::string_view slug);

// Every way to read `pair` as "<a>-vs-<b>" with both sides valid slugs, leftmost split first.
std::vector<std::pair<std::string, std::string>> pair_slug_splits(std::string_view pair);

std::string pair_slug(std::string_view a, std::string_view b);

// The ways to read `address` as `parts` valid slugs joined by "-vs-", leftmost splits first
// (a slug may hold "-vs-" itself, so there can be more than one), at most `most` of them: an
// address of many short "-vs-" runs has thousands, and each is looked up.
std::vector<std::vector<std::string>> slug_splits(std::string_view address, size_t parts,
                                                  size_t most = 16);
// Slugs joined by "-vs-".
std::string joined_slugs(const std::vector<std::string> &slugs);

// The slug a name suggests: its ASCII letters and digits, lowercased, each run of anything else
// one hyphen ("Codestral 2.1" → "codestral-2-1"), cut at a hyphen to fit kMaxSlugLength. Empty
// when the name has no ASCII letter or digit: the editor then types one.
std::string slug_from_name(std::string_view name);

} // namespace verdict
