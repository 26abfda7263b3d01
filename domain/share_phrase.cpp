// The wording of a share (domain/share_phrase.h's table), written from its counts.
#include "domain/share_phrase.h"

#include "domain/counting.h"
#include "domain/numbers.h"

namespace verdict {

namespace {

std::string basis_phrase(const ShareWording &wording, int64_t part, int64_t total) {
  switch (wording.basis) {
  case ShareBasis::part_of_total:
    return std::to_string(part) + " of " +
           (wording.singular ? count_phrase(total, wording.singular, wording.plural)
                             : std::to_string(total));
  case ShareBasis::total:
    return count_phrase(total, wording.singular, wording.plural);
  case ShareBasis::part:
    return count_phrase(part, wording.singular, wording.plural);
  }
  return {};
}

} // namespace

std::string percent_phrase(int64_t part, int64_t total) {
  return std::to_string(whole_percent(part, total)) + "%";
}

std::string share_phrase(const ShareWording &wording, int64_t part, int64_t total,
                         const SetAside &set_aside) {
  if (total == 0) {
    const bool some_set_aside = set_aside.total() > 0 && !wording.nothing_counted.empty();
    return std::string(some_set_aside ? wording.nothing_counted : wording.nothing) +
           with_set_aside(set_aside, 0);
  }
  if (part == 0 && !wording.none_of.empty())
    return std::string(wording.none_of) + " " +
           count_phrase(total, wording.singular, wording.plural) + with_set_aside(set_aside, total);
  if (wording.percent_once_enough && total < kMinVotesForInterval)
    return std::string(wording.few_before) + std::to_string(part) + " of " +
           count_phrase(total, wording.singular, wording.plural) +
           std::string(part == 1 ? wording.few_after_one : wording.few_after_many) +
           with_set_aside(set_aside, total);
  return std::string(wording.before_percent) + percent_phrase(part, total) +
         std::string(wording.after_percent) + " · " + basis_phrase(wording, part, total) +
         with_interval(part, total) + with_set_aside(set_aside, total);
}

} // namespace verdict
