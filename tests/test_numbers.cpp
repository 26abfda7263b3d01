#include <catch2/catch.hpp>

#include "domain/numbers.h"
#include "domain/slugs.h"

using namespace verdict;

TEST_CASE("whole percent rounds half up as the seeds print it") {
  CHECK(whole_percent(4, 4) == 100);
  CHECK(whole_percent(3, 4) == 75);
  CHECK(whole_percent(2, 3) == 67);
  CHECK(whole_percent(1, 3) == 33);
  CHECK(whole_percent(1, 8) == 13);
  CHECK(whole_percent(0, 5) == 0);
}

TEST_CASE("Wilson interval brackets the observed share and narrows with more votes") {
  const auto small = wilson_interval(3, 5);
  CHECK(small.low == 23);
  CHECK(small.high == 89);
  const auto large = wilson_interval(300, 500);
  CHECK(large.low == 55);
  CHECK(large.high == 65);
  const auto all = wilson_interval(10, 10);
  CHECK(all.high == 100);
  CHECK(all.low == 72);
}

TEST_CASE("count phrases use the singular only for one") {
  CHECK(count_phrase(1, "vote", "votes") == "1 vote");
  CHECK(count_phrase(0, "vote", "votes") == "0 votes");
  CHECK(count_phrase(3, "vote", "votes") == "3 votes");
}

TEST_CASE("slugs are lowercase runs joined by single hyphens") {
  CHECK(is_valid_slug("codestral-2-1"));
  CHECK_FALSE(is_valid_slug(""));
  CHECK_FALSE(is_valid_slug("Codestral"));
  CHECK_FALSE(is_valid_slug("a--b"));
  CHECK_FALSE(is_valid_slug("-a"));
  CHECK_FALSE(is_valid_slug("a/b"));
  CHECK_FALSE(is_valid_slug(std::string(121, 'a')));
}

TEST_CASE("a pair slug splits at every -vs- that leaves two valid slugs") {
  const auto splits = pair_slug_splits("tool-vs-x-vs-other");
  REQUIRE(splits.size() == 2);
  CHECK(splits[0] == std::pair<std::string, std::string>{"tool", "x-vs-other"});
  CHECK(splits[1] == std::pair<std::string, std::string>{"tool-vs-x", "other"});
  CHECK(pair_slug_splits("no-separator").empty());
  CHECK(pair_slug_splits("-vs-b").empty());
  CHECK(pair_slug("a", "b") == "a-vs-b");
}
