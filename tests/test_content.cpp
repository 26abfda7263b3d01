#include <catch2/catch.hpp>

#include "assets/embedded.h"
#include "domain/content.h"
#include "test_support.h"

using namespace verdict;

TEST_CASE("the bundled content file is valid and holds the seeds") {
  const auto parsed = parse_content(embedded("content/verdict.json"));
  REQUIRE(parsed.errors.empty());
  CHECK(parsed.content.tools.size() == 8);
  CHECK(parsed.content.reviews.size() == 32);
  CHECK(parsed.content.comparisons.size() == 5);
  CHECK(parsed.content.reviewers.size() == 7);
  // Every bundled comparison answers its question: a "Ship with … if …" line for each tool.
  for (const auto &comparison : parsed.content.comparisons) {
    INFO(comparison.a << " vs " << comparison.b);
    CHECK(comparison.bottom_line.starts_with("Ship with "));
    CHECK(comparison.bottom_line.find("\nShip with ") != std::string::npos);
  }
}

TEST_CASE("a comparison is published or scheduled only with its bottom line, a draft may wait") {
  const auto faults_of = [](const std::string &published_on, const std::string &bottom_line) {
    std::vector<std::string> said;
    for (const auto &[field, fault] :
         comparison_faults({"cursor", "codestral", published_on, "", bottom_line}))
      said.push_back(field + ": " + fault);
    return said;
  };
  const std::string needed = "bottom_line: is needed to publish: one line per tool, \"Ship with "
                             "… if …\" (leave the publication date empty to keep it a draft "
                             "until it is written)";
  CHECK(faults_of("2026-11-03", "") == std::vector<std::string>{needed});
  CHECK(faults_of("2099-01-01", " \n ") == std::vector<std::string>{needed}); // scheduled
  CHECK(faults_of("", "").empty());                                           // a draft
  CHECK(faults_of("2026-11-03", "Ship with Cursor if you live in its editor.").empty());
}

TEST_CASE("a bad content file names every fault by its place") {
  const auto parsed = parse_content(R"({
    "categories": [{"slug": "dev", "name": "Dev"}],
    "reviewers": [{"slug": "r", "name": "R", "lens": "Skeptic"}],
    "tools": [
      {"slug": "ok", "name": "Ok", "category": "dev", "tagline": "t", "description": "d", "entry": "Free"},
      {"slug": "Bad Slug", "name": "B", "category": "nope", "tagline": "t", "description": "d",
       "entry": "Cheap", "pricing_checked_on": "2026-13-01", "colour": "red"}
    ],
    "reviews": [{"tool": "ok", "reviewer": "r", "verdict": "maybe", "quote": "q"},
                {"tool": "missing", "reviewer": "r", "verdict": "ship", "quote": "q"}],
    "comparisons": [{"a": "ok", "b": "ok"}]
  })");
  CHECK(test::has_error(
      parsed.errors,
      "tools[1].slug: must be a slug (lowercase letters, digits and single hyphens, at most "
      "120 characters)"));
  CHECK(test::has_error(parsed.errors, "tools[1].category: no category with slug nope"));
  CHECK(test::has_error(parsed.errors,
                        "tools[1].entry: must be one of Free, Paid, Freemium, Open weights"));
  CHECK(test::has_error(parsed.errors, "tools[1].pricing_checked_on: must be a date YYYY-MM-DD"));
  CHECK(test::has_error(parsed.errors, "tools[1].colour: unknown field"));
  CHECK(test::has_error(parsed.errors, "reviews[0].verdict: must be ship or skip"));
  CHECK(test::has_error(parsed.errors, "reviews[1].tool: no tool with slug missing"));
  CHECK(test::has_error(parsed.errors, "comparisons[0].b: must differ from the first tool (a)"));
}

TEST_CASE("content that is not JSON is one clear error with its line and column") {
  const auto parsed = parse_content("{not json");
  REQUIRE(parsed.errors.size() == 1);
  CHECK(parsed.errors[0].starts_with("file: not valid JSON at line 1, column 3: "));

  // A missing comma on the third line, found where the next name ends.
  const auto later =
      parse_content("{\n  \"site\": {\"site_name\": \"Verdikt\"\n  \"categories\": []\n}");
  REQUIRE(later.errors.size() == 1);
  INFO(later.errors[0]);
  CHECK(later.errors[0].starts_with("file: not valid JSON at line 3, column 14: "));
  CHECK(later.errors[0].find("unexpected string literal") != std::string::npos);

  // A number no type holds is refused too, not thrown.
  const auto huge = parse_content("6666666666666E66666");
  REQUIRE(huge.errors.size() == 1);
  CHECK(huge.errors[0].starts_with("file: not valid JSON: "));

  // Columns count letters, not bytes: "é" is two bytes and one column.
  const auto accented = parse_content("{\"site\": {\"site_name\": \"é\" \"x\": 1}}");
  REQUIRE(accented.errors.size() == 1);
  CHECK(accented.errors[0].starts_with("file: not valid JSON at line 1, column 30: "));
}

TEST_CASE("content survives a trip through JSON unchanged") {
  const auto original = parse_content(embedded("content/verdict.json"));
  const auto again = parse_content(content_to_json(original.content));
  REQUIRE(again.errors.empty());
  CHECK(content_to_json(again.content) == content_to_json(original.content));
}

TEST_CASE("a content file may not say the same thing twice or leave out a tagline") {
  const auto parsed = parse_content(R"({
    "categories": [{"slug": "dev", "name": "Dev"}],
    "reviewers": [{"slug": "r", "name": "R", "lens": "Skeptic"}],
    "tools": [
      {"slug": "one", "name": "One", "category": "dev", "tagline": "t", "description": "d", "entry": "Free"},
      {"slug": "two", "name": "Two", "category": "dev", "description": "d", "entry": "Free"}
    ],
    "reviews": [{"tool": "one", "reviewer": "r", "verdict": "ship", "quote": "q"},
                {"tool": "one", "reviewer": "r", "verdict": "skip", "quote": "again"}],
    "comparisons": [{"a": "one", "b": "two"}, {"a": "two", "b": "one"}]
  })");
  CHECK(test::has_error(parsed.errors, "tools[1].tagline: is required"));
  CHECK(test::has_error(parsed.errors, "reviews[1].reviewer: has already reviewed one"));
  CHECK(test::has_error(parsed.errors, "comparisons[1].b: this pair is already compared"));
  CHECK(parsed.errors.size() == 3);
}

TEST_CASE("content lengths are limits to the character, and the site copy knows its fields") {
  const auto tool = [](const std::string &name) {
    return R"({"categories": [{"slug": "dev", "name": "Dev"}], "tools": [{"slug": "one", "name": ")" +
           name + R"(", "category": "dev", "tagline": "t", "description": "d", "entry": "Free"}]})";
  };
  CHECK(parse_content(tool(std::string(200, 'n'))).errors.empty());
  CHECK(test::has_error(parse_content(tool(std::string(201, 'n'))).errors,
                        "tools[0].name: is longer than 200"));
  CHECK(test::has_error(parse_content(R"({"site": {"site_name": "V", "sitename": "typo"}})").errors,
                        "site.sitename: unknown field"));
}

TEST_CASE("a content file's paragraph fields take line breaks and its one-line fields do not, "
          "as the desk's forms, so what a file brings in can be saved unchanged") {
  const auto parsed = parse_content(R"({
    "categories": [{"slug": "dev", "name": "Dev"}],
    "reviewers": [{"slug": "r", "name": "R", "lens": "Skeptic", "bio": "One.\r\nTwo."}],
    "tools": [
      {"slug": "ok", "name": "Ok", "category": "dev", "tagline": "t",
       "description": "First.\n\nSecond.", "entry": "Free", "pricing_notes": "a\nb"},
      {"slug": "two", "name": "Two\nlines", "category": "dev", "tagline": "a\r\nb",
       "description": "bell\u0007", "entry": "Free"}
    ],
    "reviews": [{"tool": "ok", "reviewer": "r", "verdict": "ship", "quote": "Yes.\nReally."}]
  })");
  CHECK(test::has_error(
      parsed.errors, "tools[1].name: must be one line, without line breaks or control characters"));
  CHECK(test::has_error(
      parsed.errors,
      "tools[1].tagline: must be one line, without line breaks or control characters"));
  CHECK(test::has_error(
      parsed.errors,
      "tools[1].description: must not hold control characters (line breaks are fine)"));
  CHECK(parsed.errors.size() == 3); // the paragraphs of the first tool, reviewer and review pass
}

TEST_CASE("an edit's changes are the fields it set, changed or took away, in the item's order") {
  ContentTool before{"careful",
                     "Careful Agent",
                     "developer-tools",
                     "Writes the tests first.",
                     "A careful agent.",
                     "Freemium",
                     "",
                     "",
                     "",
                     "",
                     ""};
  auto after = before;
  after.tagline = "Reads before it writes.";
  after.vendor = "Careful Labs";
  const auto changes = field_changes(item_json(before), item_json(after));
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].field == "tagline");
  CHECK(changes[0].before == "Writes the tests first.");
  CHECK(changes[0].after == "Reads before it writes.");
  CHECK(changes[1].field == "vendor");
  CHECK(changes[1].before.empty());
  CHECK(changes[1].after == "Careful Labs");

  CHECK(field_changes(item_json(before), item_json(before)).empty());
  // A creation sets every field that has a value; a deletion takes each away.
  const auto created = field_changes("", item_json(ContentCategory{"plans", "Plans"}));
  REQUIRE(created.size() == 2);
  CHECK((created[0].field == "slug" && created[0].before.empty() && created[0].after == "plans"));
  CHECK((created[1].field == "name" && created[1].after == "Plans"));
  const auto deleted = field_changes(item_json(ContentCategory{"plans", "Plans"}), "");
  REQUIRE(deleted.size() == 2);
  CHECK((deleted[1].field == "name" && deleted[1].before == "Plans" && deleted[1].after.empty()));
  // A comparison writes its bottom line only once it has one: writing it is a change from none.
  ContentComparison draft{"a-tool", "b-tool", "", "Intro.", ""};
  auto concluded = draft;
  concluded.bottom_line = "Ship A.";
  const auto concluding = field_changes(item_json(draft), item_json(concluded));
  REQUIRE(concluding.size() == 1);
  CHECK((concluding[0].field == "bottom_line" && concluding[0].after == "Ship A."));
  const auto retracted = field_changes(item_json(concluded), item_json(draft));
  REQUIRE(retracted.size() == 1);
  CHECK((retracted[0].field == "bottom_line" && retracted[0].before == "Ship A." &&
         retracted[0].after.empty()));
  CHECK(field_changes("not json", "[1]").empty());
}
