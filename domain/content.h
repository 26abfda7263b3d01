// The publication's content as a file: categories, reviewers, tools, reviews, comparisons and
// site copy. The bundled content/verdict.json, `verdict import` and `verdict export` all use
// this one format. Parsing validates the whole file and names every fault by its place,
// e.g. "tools[3].entry: must be one of Free, Paid, Freemium, Open weights".
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace verdict {

// Each kind names its paragraph fields (kParagraphFields): texts that may hold line breaks, a
// description or a quote. Every other text field is one line (a name, a title, an address).
// The content file's checks and the desk's forms, whose textareas these are, both read these
// lists (holds_paragraphs), so whatever a file brings in can be saved unchanged at the desk.
struct ContentCategory {
  std::string slug, name;
  static constexpr std::array<std::string_view, 0> kParagraphFields = {};
};
struct ContentReviewer {
  std::string slug, name, lens, bio;
  static constexpr std::array<std::string_view, 1> kParagraphFields = {"bio"};
};
struct ContentTool {
  std::string slug, name, category, tagline, description, entry, vendor, url;
  std::string pricing_notes, pricing_checked_on, pricing_source;
  static constexpr std::array<std::string_view, 2> kParagraphFields = {"description",
                                                                       "pricing_notes"};
};
struct ContentReview {
  std::string tool, reviewer, verdict, quote;
  static constexpr std::array<std::string_view, 1> kParagraphFields = {"quote"};
};
struct ContentComparison {
  std::string a, b, published_on, intro;
  std::string bottom_line; // written only when there is one
  static constexpr std::array<std::string_view, 2> kParagraphFields = {"intro", "bottom_line"};
};

// Whether an Item's field (ContentTool's "description") holds paragraphs rather than one line.
template <class Item> constexpr bool holds_paragraphs(std::string_view field) {
  return std::ranges::find(Item::kParagraphFields, field) != Item::kParagraphFields.end();
}

struct Content {
  std::map<std::string, std::string> site; // SiteCopy fields by name
  std::vector<ContentCategory> categories;
  std::vector<ContentReviewer> reviewers; // in panel order
  std::vector<ContentTool> tools;
  std::vector<ContentReview> reviews;
  std::vector<ContentComparison> comparisons;
};

// Readers' votes in bulk, as a generated site brings them (bench/generate.cpp). Votes name
// their voter and tools by index into `voters` and `tools`, so a million votes stay small.
struct VoteLoad {
  std::vector<std::string> voters; // 32 hex digits each, as the voter cookie holds
  std::vector<std::string> tools;  // tool slugs
  struct ToolVote {
    uint32_t voter, tool;
    bool ship;
    int64_t cast_at; // seconds since 1970 (UTC)
  };
  struct PairPick {
    uint32_t voter, a, b, pick; // pick is a or b
    int64_t cast_at;
  };
  std::vector<ToolVote> tool_votes;
  std::vector<PairPick> pair_picks;
};

// What an import did to each kind of content: rows it created, and existing rows it changed
// (a row the file gives exactly as it stands counts in neither).
struct ImportCounts {
  size_t created = 0, updated = 0;
};
struct ImportSummary {
  ImportCounts site, categories, reviewers, tools, reviews, comparisons;
};
// "created 2 tools and 1 review; updated 1 comparison", or "nothing changed".
std::string describe(const ImportSummary &summary);

// What is wrong with one item's fields by the content file's rules, each as (field, fault),
// e.g. ("entry", "must be one of Free, Paid, Freemium, Open weights"). Imports and the desk's
// forms both check with these; references to other items (a tool's category) are checked by
// whoever knows them.
using FieldFaults = std::vector<std::pair<std::string, std::string>>;
FieldFaults category_faults(const ContentCategory &category);
FieldFaults reviewer_faults(const ContentReviewer &reviewer);
FieldFaults tool_faults(const ContentTool &tool);
FieldFaults review_faults(const ContentReview &review);
FieldFaults comparison_faults(const ContentComparison &comparison);
// The site copy's one-line texts (the site's name, its tagline, the eyebrow and the
// newsletter's title) must hold no line break or other control character: mails put them in
// headers, which refuse them (domain/mail_message.h).
FieldFaults site_faults(const std::map<std::string, std::string> &site);

struct ContentParse {
  Content content;
  std::vector<std::string> errors; // empty when the file is valid
};

ContentParse parse_content(std::string_view json_text);
std::string content_to_json(const Content &content);
// One item as the content file writes it, on one line (the edit log's before and after).
std::string item_json(const ContentCategory &category);
std::string item_json(const ContentReviewer &reviewer);
std::string item_json(const ContentTool &tool);
std::string item_json(const ContentReview &review);
std::string item_json(const ContentComparison &comparison);
// The item an item_json text holds, each field by its name (one it lacks is empty); false when
// the text is not a JSON object or a field is not a text. Its fields are not judged here.
bool read_item_json(std::string_view text, ContentCategory &category);
bool read_item_json(std::string_view text, ContentReviewer &reviewer);
bool read_item_json(std::string_view text, ContentTool &tool);
bool read_item_json(std::string_view text, ContentReview &review);
bool read_item_json(std::string_view text, ContentComparison &comparison);

// One field an edit changed, by the content file's name for it ("tagline"): its value before
// and after, each empty where the item had none (a creation's before, a deletion's after).
struct FieldChange {
  std::string field, before, after;
};
// The fields in which two of one item's item_json texts differ, in the item's own field order
// (the after's, then any only the before had). Either text may be empty: a creation or a
// deletion, whose every field with a value is a change. Text that is not an item's JSON object
// (no log entry holds any) gives no change.
std::vector<FieldChange> field_changes(std::string_view before_json, std::string_view after_json);

extern const std::vector<std::string> kEntryKinds;
extern const std::vector<std::string> kSiteCopyKeys;

} // namespace verdict
