#include <catch2/catch.hpp>

#include "domain/dates.h"
#include "domain/numbers.h"
#include "domain/share_phrase.h"
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

TEST_CASE("a share is written in the wording its place names, with its interval and what was "
          "set aside") {
  CHECK(share_phrase(kPanelTally, 3, 4) == "75% · 3 of 4");
  CHECK(share_phrase(kPanelTally, 0, 0) == "—");
  // Below five, the counts alone: a handful never reads as strongly as a real share.
  CHECK(share_phrase(kReviewerShipRate, 3, 4) == "Ships in 3 of 4 reviews");
  CHECK(share_phrase(kReviewerShipRate, 1, 1) == "Ships in 1 of 1 review");
  CHECK(share_phrase(kReviewerShipRate, 3, 5).starts_with("Ships 60% · 3 of 5 reviews · 95% "));
  CHECK(share_phrase(kReviewerShipRate, 0, 0) == "No reviews yet");
  CHECK(share_phrase(kGlancePanel, 3, 4) == "3 of 4 reviews say ship");
  CHECK(share_phrase(kGlancePanel, 1, 4) == "1 of 4 reviews says ship");
  CHECK(share_phrase(kGlancePanel, 0, 1) == "0 of 1 review say ship");
  CHECK(share_phrase(kGlancePanel, 4, 5).starts_with("80% ship · 4 of 5 reviews · 95% "));
  CHECK(share_phrase(kCommunityTally, 2, 3) == "67% · 3 votes");
  CHECK(share_phrase(kCommunityTally, 3, 5) == "60% · 5 votes · 95% interval 23–89%");
  CHECK(share_phrase(kCommunityTally, 0, 0, {2, 0}) ==
        "— (2 cast, 2 set aside: too many from one network)");
  CHECK(share_phrase(kGlanceCommunity, 2, 3) == "2 of 3 votes say ship");
  CHECK(share_phrase(kGlanceCommunity, 3, 5).starts_with("60% ship · 5 votes · 95% "));
  CHECK(share_phrase(kGlanceCommunity, 0, 0) == "No votes yet");
  CHECK(share_phrase(kGlanceCommunity, 0, 0, {2, 0}) ==
        "No votes counted yet (2 cast, 2 set aside: too many from one network)");
  CHECK(
      share_phrase(kGlanceCommunity, 1, 1, {0, 1}).starts_with("1 of 1 vote says ship (2 cast, "));
  // A pick share: no percent for a handful of picks, and no 0% for the side nobody picked.
  CHECK(share_phrase(kPickShare, 1, 3) == "1 of 3 picks");
  CHECK(share_phrase(kPickShare, 0, 1) == "None of 1 pick");
  CHECK(share_phrase(kPickShare, 0, 12) == "None of 12 picks");
  CHECK(share_phrase(kPickShare, 3, 6).starts_with("50% · 3 of 6 picks · 95% interval "));
  CHECK(share_phrase(kPickShare, 0, 0) == "No picks yet");
}

TEST_CASE("a date checked more than 90 days before today is stale, and a missing date never is") {
  CHECK(kStaleAfterDays == 90);
  CHECK(day_number("1970-01-01") == 0);
  CHECK(day_number("2000-03-01") - day_number("2000-02-28") == 2);
  CHECK_FALSE(is_stale("2026-01-01", "2026-04-01")); // 90 days
  CHECK(is_stale("2026-01-01", "2026-04-02"));       // 91 days
  CHECK_FALSE(is_stale("", "2026-04-02"));
}

TEST_CASE("readers see a comparison from its publication date on, and never an undated one") {
  CHECK(readers_see_on("2026-11-22", "2026-11-22"));
  CHECK(readers_see_on("2026-11-21", "2026-11-22"));
  CHECK_FALSE(readers_see_on("2026-12-01", "2026-11-22")); // scheduled
  CHECK_FALSE(readers_see_on("", "2026-11-22"));           // a draft
}

TEST_CASE("a moment the database wrote is shown as readers read times, to the minute, in UTC") {
  CHECK(utc_time_shown("2026-11-25T15:03:19Z") == "2026-11-25 15:03 UTC");
  CHECK(utc_time_shown(rfc3339_utc(1'800'000'000)) == utc_time_of(1'800'000'000));
  CHECK(utc_time_shown("yesterday") == "yesterday");
  CHECK(utc_time_shown("2026-11-25 15:03:19") == "2026-11-25 15:03:19");
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

TEST_CASE(
    "a name suggests its slug: ASCII letters and digits, lowercased, runs of the rest one hyphen") {
  CHECK(slug_from_name("Codestral 2.1") == "codestral-2-1");
  CHECK(slug_from_name("  Cursor — Background Agent! ") == "cursor-background-agent");
  CHECK(slug_from_name("C++ / Rust") == "c-rust");
  CHECK(slug_from_name("日本語") == "");
  // Too long: cut after the last whole word that fits, and still a slug.
  const auto words = slug_from_name(std::string(100, 'a') + " " + std::string(30, 'b'));
  CHECK(words == std::string(100, 'a'));
  const auto one_word = slug_from_name(std::string(200, 'a'));
  CHECK(one_word == std::string(120, 'a'));
  const auto at_a_gap = slug_from_name(std::string(120, 'a') + " b");
  CHECK(at_a_gap == std::string(120, 'a'));
  for (const auto &slug : {words, one_word, at_a_gap})
    CHECK(is_valid_slug(slug));
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

TEST_CASE("slugs: three or four tools' address splits every way its -vs- allow, within bounds") {
  using Splits = std::vector<std::vector<std::string>>;
  CHECK(slug_splits("a-vs-b-vs-c", 3) == Splits{{"a", "b", "c"}});
  CHECK(slug_splits("a-vs-b-vs-c", 2) == Splits{{"a", "b-vs-c"}, {"a-vs-b", "c"}});
  CHECK(slug_splits("a-vs-b-vs-c-vs-d", 3) ==
        Splits{{"a", "b", "c-vs-d"}, {"a", "b-vs-c", "d"}, {"a-vs-b", "c", "d"}});
  CHECK(slug_splits("a-vs-b-vs-c-vs-d", 3, 1) == Splits{{"a", "b", "c-vs-d"}});
  CHECK(slug_splits("a-vs-b-vs-", 3).empty()); // a part that is no slug
  CHECK(slug_splits("a-vs-b", 3).empty());
  // Past a dozen separators the address is read no way at all (each reading is looked up).
  std::string many = "a";
  for (int i = 0; i < 13; ++i)
    many += "-vs-a";
  CHECK(slug_splits(many, 4).empty());
  CHECK(joined_slugs({"a", "b", "c"}) == "a-vs-b-vs-c");
}
