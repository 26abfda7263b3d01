// The content file format (domain/content.h): parsing with every fault named by its place,
// each kind's field rules, writing it back, and one item as JSON. Over 500 lines because the
// format is one contract, read and written here only, and its rules are checked field by
// field with the words an editor or an importer sees.
#include "domain/content.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <concepts>
#include <set>
#include <type_traits>
#include <utility>

#include "domain/model.h"
#include "domain/slugs.h"

namespace verdict {

const std::vector<std::string> kEntryKinds = {"Free", "Paid", "Freemium", "Open weights"};
const std::vector<std::string> kSiteCopyKeys = {
    "site_name",        "site_tagline",    "comparison_eyebrow", "comparison_dek",
    "newsletter_title", "newsletter_lead", "newsletter_pitch"};

namespace {

using nlohmann::json;

bool is_date(const std::string &s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  const int month = std::stoi(s.substr(5, 2)), day = std::stoi(s.substr(8, 2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// A link a page may carry: http(s) only, so content can never link to javascript: or data:.
bool is_web_address(const std::string &s) {
  const bool web_scheme = s.rfind("https://", 0) == 0 || s.rfind("http://", 0) == 0;
  return web_scheme && std::none_of(s.begin(), s.end(), [](char c) {
           return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
         });
}

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const auto &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

// Reads the fields of one object, recording a fault for each missing, mistyped or unknown one.
class FieldReader {
public:
  FieldReader(const json &object, std::string place, std::vector<std::string> &errors)
      : object_(object), place_(std::move(place)), errors_(errors) {
    if (!object_.is_object()) errors_.push_back(place_ + ": must be an object");
  }

  // The string at `key`: "is required" when a required key is absent, a fault when it is not a
  // string. What the value must be is checked afterwards, by the item's rules.
  std::string text(const char *key, bool required = true) {
    seen_.insert(key);
    if (!object_.is_object()) return {};
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (required) fault(key, "is required");
      return {};
    }
    if (!it->is_string()) {
      fault(key, "must be a string");
      return {};
    }
    return it->get<std::string>();
  }

  void fault(const std::string &key, const std::string &message) {
    faulted_.insert(key);
    errors_.push_back(place_ + "." + key + ": " + message);
  }

  // The item's own rules, for fields not already faulted as missing or mistyped.
  void apply(const FieldFaults &faults) {
    for (const auto &[key, message] : faults)
      if (!faulted_.count(key)) fault(key, message);
  }

  // Unknown keys are faults: a typo must not silently drop a field.
  void reject_unknown() {
    if (!object_.is_object()) return;
    for (const auto &[key, value] : object_.items())
      if (!seen_.count(key)) errors_.push_back(place_ + "." + key + ": unknown field");
  }

private:
  const json &object_;
  std::string place_;
  std::vector<std::string> &errors_;
  std::set<std::string> seen_, faulted_;
};

const json &array_at(const json &root, const char *key, std::vector<std::string> &errors) {
  static const json empty = json::array();
  const auto it = root.find(key);
  if (it == root.end()) return empty;
  if (!it->is_array()) {
    errors.push_back(std::string(key) + ": must be an array");
    return empty;
  }
  return *it;
}

std::string place(const char *array, size_t index) {
  return std::string(array) + "[" + std::to_string(index) + "]";
}

void check_unique(std::set<std::string> &seen, const std::string &slug, const std::string &where,
                  std::vector<std::string> &errors) {
  if (!slug.empty() && !seen.insert(slug).second)
    errors.push_back(where + ".slug: duplicate slug " + slug);
}

// "line 3, column 7" for the byte at 1-based `byte` (where the parser stopped).
std::string place_of(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) { // not inside a UTF-8 letter
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The parser's own words without its exception tag and place ("syntax error while parsing
// object - unexpected '}'; expected string literal").
std::string reason_of(const json::exception &e) {
  std::string text = e.what();
  if (const auto colon = text.find(": "); colon != std::string::npos) text.erase(0, colon + 2);
  return text;
}

} // namespace

namespace {

// Whether a text field is one line (a name, a title) or paragraphs (a description, a quote).
enum class Lines { one, paragraphs };

bool is_control(char c) {
  return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

// A text field's rule: required ones must not be empty; none may pass its length; a one-line
// field holds no line break, and no field any other control character.
void check_text(FieldFaults &faults, const char *key, const std::string &value, bool required,
                size_t max_length = 20000, Lines lines = Lines::one) {
  if (required && value.empty())
    faults.emplace_back(key, "must not be empty");
  else if (value.size() > max_length)
    faults.emplace_back(key, "is longer than " + std::to_string(max_length));
  else if (lines == Lines::one && std::any_of(value.begin(), value.end(), is_control))
    faults.emplace_back(key, "must be one line, without line breaks or control characters");
  else if (std::any_of(value.begin(), value.end(),
                       [](char c) { return is_control(c) && c != '\n' && c != '\r'; }))
    faults.emplace_back(key, "must not hold control characters (line breaks are fine)");
}

// A text field of an Item: paragraphs when the Item's kParagraphFields names it (domain/content.h,
// the list the desk's forms follow too), else one line.
template <class Item>
void check_field(FieldFaults &faults, const char *key, const std::string &value, bool required,
                 size_t max_length = 20000) {
  check_text(faults, key, value, required, max_length,
             holds_paragraphs<Item>(key) ? Lines::paragraphs : Lines::one);
}

void check_slug(FieldFaults &faults, const char *key, const std::string &value) {
  check_text(faults, key, value, true, 200);
  if (!value.empty() && value.size() <= 200 && !is_valid_slug(value))
    faults.emplace_back(key, "must be a slug (lowercase letters, digits and single hyphens, at "
                             "most " +
                                 std::to_string(kMaxSlugLength) + " characters)");
}

void check_date(FieldFaults &faults, const char *key, const std::string &value) {
  if (!value.empty() && !is_date(value)) faults.emplace_back(key, "must be a date YYYY-MM-DD");
}

} // namespace

FieldFaults category_faults(const ContentCategory &category) {
  FieldFaults faults;
  check_slug(faults, "slug", category.slug);
  check_field<ContentCategory>(faults, "name", category.name, true, 200);
  return faults;
}

FieldFaults reviewer_faults(const ContentReviewer &reviewer) {
  FieldFaults faults;
  check_slug(faults, "slug", reviewer.slug);
  check_field<ContentReviewer>(faults, "name", reviewer.name, true, 200);
  check_field<ContentReviewer>(faults, "lens", reviewer.lens, true, 200);
  check_field<ContentReviewer>(faults, "bio", reviewer.bio, false);
  return faults;
}

FieldFaults tool_faults(const ContentTool &tool) {
  FieldFaults faults;
  check_slug(faults, "slug", tool.slug);
  check_field<ContentTool>(faults, "name", tool.name, true, 200);
  check_field<ContentTool>(faults, "category", tool.category, true, 200);
  check_field<ContentTool>(faults, "tagline", tool.tagline, true, 300);
  check_field<ContentTool>(faults, "description", tool.description, true);
  check_field<ContentTool>(faults, "entry", tool.entry, true);
  if (!tool.entry.empty() &&
      std::find(kEntryKinds.begin(), kEntryKinds.end(), tool.entry) == kEntryKinds.end())
    faults.emplace_back("entry", "must be one of " + joined(kEntryKinds));
  check_field<ContentTool>(faults, "vendor", tool.vendor, false, 200);
  check_field<ContentTool>(faults, "url", tool.url, false, 2000);
  check_field<ContentTool>(faults, "pricing_notes", tool.pricing_notes, false);
  check_field<ContentTool>(faults, "pricing_source", tool.pricing_source, false, 2000);
  for (const auto &[key, address] :
       {std::pair{"url", tool.url}, std::pair{"pricing_source", tool.pricing_source}})
    if (!address.empty() && address.size() <= 2000 && !is_web_address(address))
      faults.emplace_back(key, "must be an http:// or https:// address without spaces");
  check_date(faults, "pricing_checked_on", tool.pricing_checked_on);
  return faults;
}

FieldFaults review_faults(const ContentReview &review) {
  FieldFaults faults;
  check_field<ContentReview>(faults, "tool", review.tool, true, 200);
  check_field<ContentReview>(faults, "reviewer", review.reviewer, true, 200);
  check_field<ContentReview>(faults, "verdict", review.verdict, true);
  if (!review.verdict.empty() && !verdict_from_word(review.verdict))
    faults.emplace_back("verdict", "must be ship or skip");
  check_field<ContentReview>(faults, "quote", review.quote, true);
  return faults;
}

FieldFaults comparison_faults(const ContentComparison &comparison) {
  FieldFaults faults;
  check_field<ContentComparison>(faults, "a", comparison.a, true, 200);
  check_field<ContentComparison>(faults, "b", comparison.b, true, 200);
  if (!comparison.a.empty() && comparison.a == comparison.b)
    faults.emplace_back("b", "must differ from the first tool (a)");
  check_date(faults, "published_on", comparison.published_on);
  check_field<ContentComparison>(faults, "intro", comparison.intro, false);
  check_field<ContentComparison>(faults, "bottom_line", comparison.bottom_line, false, 2000);
  // A page that asks "which one should you ship with?" answers it before it is shown to
  // readers: a draft may wait for its bottom line, a published or scheduled one may not.
  const bool blank = comparison.bottom_line.find_first_not_of(" \t\r\n") == std::string::npos;
  if (!comparison.published_on.empty() && blank)
    faults.emplace_back("bottom_line",
                        "is needed to publish: one line per tool, \"Ship with … if …\" (leave "
                        "the publication date empty to keep it a draft until it is written)");
  return faults;
}

FieldFaults site_faults(const std::map<std::string, std::string> &site) {
  FieldFaults faults;
  for (const auto *key : {"site_name", "site_tagline", "comparison_eyebrow", "newsletter_title"}) {
    const auto it = site.find(key);
    if (it != site.end()) check_text(faults, key, it->second, false);
  }
  return faults;
}

ContentParse parse_content(std::string_view json_text) {
  ContentParse result;
  auto &errors = result.errors;
  auto &content = result.content;
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::parse_error &e) {
    return {{}, {"file: not valid JSON at " + place_of(json_text, e.byte) + ": " + reason_of(e)}};
  } catch (const json::exception &e) { // a number too large for any type, say
    return {{}, {"file: not valid JSON: " + reason_of(e)}};
  }
  if (!root.is_object()) return {{}, {"file: must be a JSON object"}};

  for (const auto &[key, value] : root.items()) {
    static const std::set<std::string> known = {"site",  "categories", "reviewers",
                                                "tools", "reviews",    "comparisons"};
    if (!known.count(key)) errors.push_back(key + ": unknown field");
  }

  if (root.contains("site")) {
    FieldReader site(root["site"], "site", errors);
    // Only the keys the file names: a file that sets the site's name leaves its dek alone.
    for (const auto &key : kSiteCopyKeys)
      if (root["site"].is_object() && root["site"].contains(key))
        content.site[key] = site.text(key.c_str(), false);
    site.apply(site_faults(content.site));
    site.reject_unknown();
  }

  std::set<std::string> category_slugs, reviewer_slugs, tool_slugs;
  const auto &categories = array_at(root, "categories", errors);
  for (size_t i = 0; i < categories.size(); ++i) {
    FieldReader field(categories[i], place("categories", i), errors);
    ContentCategory category{field.text("slug"), field.text("name")};
    field.reject_unknown();
    field.apply(category_faults(category));
    check_unique(category_slugs, category.slug, place("categories", i), errors);
    content.categories.push_back(std::move(category));
  }

  const auto &reviewers = array_at(root, "reviewers", errors);
  for (size_t i = 0; i < reviewers.size(); ++i) {
    FieldReader field(reviewers[i], place("reviewers", i), errors);
    ContentReviewer reviewer{field.text("slug"), field.text("name"), field.text("lens"),
                             field.text("bio", false)};
    field.reject_unknown();
    field.apply(reviewer_faults(reviewer));
    check_unique(reviewer_slugs, reviewer.slug, place("reviewers", i), errors);
    content.reviewers.push_back(std::move(reviewer));
  }

  const auto &tools = array_at(root, "tools", errors);
  for (size_t i = 0; i < tools.size(); ++i) {
    FieldReader field(tools[i], place("tools", i), errors);
    ContentTool tool;
    tool.slug = field.text("slug");
    tool.name = field.text("name");
    tool.category = field.text("category");
    tool.tagline = field.text("tagline");
    tool.description = field.text("description");
    tool.entry = field.text("entry");
    tool.vendor = field.text("vendor", false);
    tool.url = field.text("url", false);
    tool.pricing_notes = field.text("pricing_notes", false);
    tool.pricing_checked_on = field.text("pricing_checked_on", false);
    tool.pricing_source = field.text("pricing_source", false);
    field.reject_unknown();
    field.apply(tool_faults(tool));
    check_unique(tool_slugs, tool.slug, place("tools", i), errors);
    if (!tool.category.empty() && !category_slugs.count(tool.category))
      field.fault("category", "no category with slug " + tool.category);
    content.tools.push_back(std::move(tool));
  }

  std::set<std::pair<std::string, std::string>> reviewed;
  const auto &reviews = array_at(root, "reviews", errors);
  for (size_t i = 0; i < reviews.size(); ++i) {
    FieldReader field(reviews[i], place("reviews", i), errors);
    ContentReview review{field.text("tool"), field.text("reviewer"), field.text("verdict"),
                         field.text("quote")};
    field.reject_unknown();
    field.apply(review_faults(review));
    if (!review.tool.empty() && !tool_slugs.count(review.tool))
      field.fault("tool", "no tool with slug " + review.tool);
    if (!review.reviewer.empty() && !reviewer_slugs.count(review.reviewer))
      field.fault("reviewer", "no reviewer with slug " + review.reviewer);
    if (!reviewed.insert({review.tool, review.reviewer}).second)
      field.fault("reviewer", "has already reviewed " + review.tool);
    content.reviews.push_back(std::move(review));
  }

  std::set<std::pair<std::string, std::string>> pairs;
  const auto &comparisons = array_at(root, "comparisons", errors);
  for (size_t i = 0; i < comparisons.size(); ++i) {
    FieldReader field(comparisons[i], place("comparisons", i), errors);
    ContentComparison comparison{field.text("a"), field.text("b"),
                                 field.text("published_on", false), field.text("intro", false),
                                 field.text("bottom_line", false)};
    field.reject_unknown();
    field.apply(comparison_faults(comparison));
    for (const auto &[key, slug] : {std::pair{"a", comparison.a}, std::pair{"b", comparison.b}})
      if (!slug.empty() && !tool_slugs.count(slug)) field.fault(key, "no tool with slug " + slug);
    if (!pairs.insert(std::minmax(comparison.a, comparison.b)).second)
      field.fault("b", "this pair is already compared");
    content.comparisons.push_back(std::move(comparison));
  }
  return result;
}

namespace {

using ordered = nlohmann::ordered_json;

// Each kind's fields by their content-file names, in the file's order: the one list an item is
// written to JSON from (to_json) and read back from (read_item_json). `T` is the kind, const
// when it is only read.
template <class T>
using FieldList = std::vector<std::pair<
    const char *, std::conditional_t<std::is_const_v<T>, const std::string, std::string> *>>;

template <class T>
requires std::same_as<std::remove_const_t<T>, ContentCategory> FieldList<T> fields_of(T &c) {
  return {{"slug", &c.slug}, {"name", &c.name}};
}
template <class T>
requires std::same_as<std::remove_const_t<T>, ContentReviewer> FieldList<T> fields_of(T &r) {
  return {{"slug", &r.slug}, {"name", &r.name}, {"lens", &r.lens}, {"bio", &r.bio}};
}
template <class T>
requires std::same_as<std::remove_const_t<T>, ContentTool> FieldList<T> fields_of(T &t) {
  return {{"slug", &t.slug},
          {"name", &t.name},
          {"category", &t.category},
          {"tagline", &t.tagline},
          {"description", &t.description},
          {"entry", &t.entry},
          {"vendor", &t.vendor},
          {"url", &t.url},
          {"pricing_notes", &t.pricing_notes},
          {"pricing_checked_on", &t.pricing_checked_on},
          {"pricing_source", &t.pricing_source}};
}
template <class T>
requires std::same_as<std::remove_const_t<T>, ContentReview> FieldList<T> fields_of(T &r) {
  return {
      {"tool", &r.tool}, {"reviewer", &r.reviewer}, {"verdict", &r.verdict}, {"quote", &r.quote}};
}
template <class T>
requires std::same_as<std::remove_const_t<T>, ContentComparison> FieldList<T> fields_of(T &c) {
  return {{"a", &c.a},
          {"b", &c.b},
          {"published_on", &c.published_on},
          {"intro", &c.intro},
          {"bottom_line", &c.bottom_line}};
}

template <class Item> ordered to_json(const Item &item) {
  ordered object = ordered::object();
  for (const auto &[name, value] : fields_of(item))
    object[name] = *value;
  return object;
}
// A comparison's bottom line is written only when there is one.
ordered to_json(const ContentComparison &comparison) {
  auto object = to_json<ContentComparison>(comparison);
  if (comparison.bottom_line.empty()) object.erase("bottom_line");
  return object;
}

template <class Item> ordered array_of(const std::vector<Item> &items) {
  auto array = ordered::array();
  for (const auto &item : items)
    array.push_back(to_json(item));
  return array;
}

} // namespace

std::string content_to_json(const Content &content) {
  ordered root = ordered::object();
  ordered site = ordered::object();
  for (const auto &[key, value] : content.site)
    site[key] = value;
  root["site"] = site;
  root["categories"] = array_of(content.categories);
  root["reviewers"] = array_of(content.reviewers);
  root["tools"] = array_of(content.tools);
  root["reviews"] = array_of(content.reviews);
  root["comparisons"] = array_of(content.comparisons);
  return root.dump(2) + "\n";
}

std::string item_json(const ContentCategory &category) {
  return to_json(category).dump();
}
std::string item_json(const ContentReviewer &reviewer) {
  return to_json(reviewer).dump();
}
std::string item_json(const ContentTool &tool) {
  return to_json(tool).dump();
}
std::string item_json(const ContentReview &review) {
  return to_json(review).dump();
}
std::string item_json(const ContentComparison &comparison) {
  return to_json(comparison).dump();
}

namespace {

// Reads an item_json text's fields into `item` (fields_of), each one it lacks left empty; false
// when the text is no JSON object or a field is no text.
template <class Item> bool read_fields(std::string_view text, Item &item) {
  const auto object = json::parse(text, nullptr, false);
  if (!object.is_object()) return false;
  for (const auto &[name, value] : fields_of(item)) {
    const auto found = object.find(name);
    if (found == object.end()) continue;
    if (!found->is_string()) return false;
    *value = found->template get<std::string>();
  }
  return true;
}

} // namespace

bool read_item_json(std::string_view text, ContentCategory &category) {
  return read_fields(text, category);
}
bool read_item_json(std::string_view text, ContentReviewer &reviewer) {
  return read_fields(text, reviewer);
}
bool read_item_json(std::string_view text, ContentTool &tool) {
  return read_fields(text, tool);
}
bool read_item_json(std::string_view text, ContentReview &review) {
  return read_fields(text, review);
}
bool read_item_json(std::string_view text, ContentComparison &comparison) {
  return read_fields(text, comparison);
}

namespace {

// An item_json text as its fields in order, each value as text; empty when it is not one.
std::vector<std::pair<std::string, std::string>> item_fields(std::string_view item) {
  std::vector<std::pair<std::string, std::string>> fields;
  if (item.empty()) return fields;
  const auto parsed = ordered::parse(item, nullptr, false);
  if (!parsed.is_object()) return fields;
  for (const auto &[name, value] : parsed.items())
    fields.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  return fields;
}

} // namespace

std::vector<FieldChange> field_changes(std::string_view before_json, std::string_view after_json) {
  const auto before = item_fields(before_json), after = item_fields(after_json);
  const auto value_in = [](const auto &fields, const std::string &name) {
    const auto found = std::ranges::find(fields, name, &std::pair<std::string, std::string>::first);
    return found == fields.end() ? std::string() : found->second;
  };
  std::vector<FieldChange> changes;
  for (const auto &[name, value] : after)
    if (const auto was = value_in(before, name); was != value)
      changes.push_back({name, was, value});
  for (const auto &[name, value] : before)
    if (!value.empty() &&
        std::ranges::find(after, name, &std::pair<std::string, std::string>::first) == after.end())
      changes.push_back({name, value, ""});
  return changes;
}

std::string describe(const ImportSummary &summary) {
  struct Kind {
    const ImportCounts &counts;
    const char *one, *many;
  };
  const Kind kinds[] = {{summary.site, "site setting", "site settings"},
                        {summary.categories, "category", "categories"},
                        {summary.reviewers, "reviewer", "reviewers"},
                        {summary.tools, "tool", "tools"},
                        {summary.reviews, "review", "reviews"},
                        {summary.comparisons, "comparison", "comparisons"}};
  // "2 tools, 1 review and 3 comparisons"; empty when none.
  const auto counted = [&](size_t ImportCounts::*field) {
    std::vector<std::string> parts;
    for (const auto &kind : kinds)
      if (const auto n = kind.counts.*field; n != 0)
        parts.push_back(std::to_string(n) + " " + (n == 1 ? kind.one : kind.many));
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i)
      text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return text;
  };
  const auto created = counted(&ImportCounts::created);
  const auto updated = counted(&ImportCounts::updated);
  if (created.empty() && updated.empty()) return "nothing changed";
  if (updated.empty()) return "created " + created;
  if (created.empty()) return "updated " + updated;
  return "created " + created + "; updated " + updated;
}

} // namespace verdict
