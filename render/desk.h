// The editor's desk's pages. Each desk page opens with the desk's bar (who is signed in, the
// sections, sign-out); forms keep what was typed and show each fault beside its field.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "domain/content.h"
#include "domain/model.h"
#include "render/views.h"

namespace verdict::desk {

// Who is at the desk, and which section they are in ("desk", "categories", "log").
struct Bar {
  std::string email, csrf, section;
};

struct SignInForm {
  std::string email, next, problem;
};
std::string sign_in(const Views &views, const SiteCopy &site, const SignInForm &form);

// One entry of the edit log as the desk shows it: the item by its name, and each field the
// change set, changed or took away, by its form's label and as the form offers its value (a
// category's name rather than its address).
struct LoggedChange {
  EditEntry entry;
  std::string item; // "Codestral 2.1"; the entry's subject when nothing names it
  struct Field {
    std::string label, before, after; // empty: the item had no value there
  };
  std::vector<Field> fields;
};

std::string front(const Views &views, const SiteCopy &site, const Bar &bar,
                  const DeskCounts &counts, const std::vector<LoggedChange> &latest);

// A desk section's list: one row per item, each with its edit and delete links.
struct ItemList {
  std::string plural, list_path;    // "Categories", "/admin/categories"
  std::string new_label;            // "New category"
  std::vector<std::string> columns; // headings of the cells after the name
  struct Row {
    std::string key, name; // `key` is the item's part of its desk address (a slug)
    std::vector<std::string> cells;
    std::string preview_path = {}; // where it can be seen as readers would, if anywhere
  };
  std::vector<Row> rows;
  std::string saved; // what the last change was, said once after it
  std::string pagination;
  bool editable = true;                // false: rows can only be deleted (subscribers)
  std::string lead;                    // a sentence above the list
  std::string extra_link, extra_label; // another action beside "new" (an export)
  // A list that narrows to what the editor types has a box for it, labelled `find_label`
  // ("Find tools by name, address, tagline or vendor"); `filter` is what it holds now.
  std::string find_label = {};
  std::string filter = {};
};
// The address of a desk list narrowed to `filter` (its pages add ?page= to it); the bare list
// when there is none.
std::string list_address(const std::string &list_path, const std::string &filter);
std::string item_list(const Views &views, const SiteCopy &site, const Bar &bar,
                      const ItemList &shown);

// One field of a desk form.
struct FormField {
  // long_text is a textarea, the one kind whose value may hold line breaks (parse_form's
  // multi_line); every other kind is one line. Which text fields are long_text the content
  // model says, not the form (with_paragraph_fields).
  enum class Kind { text, long_text, choice, date };
  FormField(std::string name_, std::string label_, Kind kind_ = Kind::text, bool required_ = true,
            std::string hint_ = {})
      : name(std::move(name_)), label(std::move(label_)), kind(kind_), required(required_),
        hint(std::move(hint_)) {}
  std::string name, label;
  Kind kind;
  bool required;
  std::string hint;
  std::vector<std::pair<std::string, std::string>> choices; // value, label
};
// An Item's form fields with each text field the content model keeps as paragraphs
// (Item::kParagraphFields, domain/content.h) made a textarea; the others as they were.
template <class Item> std::vector<FormField> with_paragraph_fields(std::vector<FormField> fields) {
  for (auto &field : fields)
    if (field.kind == FormField::Kind::text && holds_paragraphs<Item>(field.name))
      field.kind = FormField::Kind::long_text;
  return fields;
}

// A desk form for one item, new when `editing` is empty; values as typed or as stored, and
// each field's fault beside it.
struct ItemForm {
  std::string noun;      // "category"
  std::string list_path; // "/admin/categories"
  std::string editing;   // the item's key, empty for a new item
  std::string title;     // the item's name, when editing
  std::vector<FormField> fields;
  std::map<std::string, std::string> values;
  FieldFaults faults;
  std::string problem;        // about the whole form
  std::string preview_action; // where the form's fields go to be seen as readers would, if anywhere
  // Fields sent back unseen with the next save (name, value): an answer the editor already gave.
  std::vector<std::pair<std::string, std::string>> carried = {};
};
std::string item_form(const Views &views, const SiteCopy &site, const Bar &bar,
                      const ItemForm &form);

// "Delete X?" with one button that posts to `action`.
struct Confirmation {
  std::string eyebrow, heading, question, action, back, problem;
};
std::string confirm(const Views &views, const SiteCopy &site, const Bar &bar,
                    const Confirmation &confirmation);

// The edit log, a page at a time: each entry with its field-by-field change.
// `filter`: the words it is narrowed to, empty for none.
std::string edit_log(const Views &views, const SiteCopy &site, const Bar &bar,
                     const Paged<LoggedChange> &entries, const std::string &filter);

} // namespace verdict::desk
