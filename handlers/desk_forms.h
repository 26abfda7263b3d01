// What the editor's desk's sections share. Each kind of content (categories, tools, reviewers,
// reviews, comparisons) is a section of the desk with the same pages: a list, a form to create
// one, a form to edit one, and a confirmed deletion. What differs is described by a Section,
// whose table lives in the section's own file (handlers/desk_tools.cpp…); the pages themselves
// are the templates below, so every section reads its forms and answers the same way.
// Every page here is reached through middleware/guards.h's admin_page and admin_write, which
// have already found the signed-in editor and checked the form's token.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/content.h"
#include "domain/writes.h"
#include "handlers/handlers.h"
#include "middleware/request_parsing.h"
#include "middleware/responses.h"
#include "render/desk.h"

namespace verdict::handlers {

// A page of a desk list: the log, tools, reviews, comparisons, subscribers.
constexpr int kDeskListPageSize = 50;

using Values = std::map<std::string, std::string>;

desk::Bar bar_for(const EditorSession &session, const char *section);

// A form that could not be read at all (an unknown field, bytes that are not text): 400.
void bad_form(App &app, Response &res, const std::string &message);

// The words a desk list is narrowed to (?q=, as its box sent them; empty: none); nothing
// (and a 400 sent) when they cannot be used.
std::optional<std::string> list_filter(App &app, const Request &req, Response &res);

// The value of the field `name`, empty when the form has none.
std::string field_of(const Values &fields, const char *name);

// After a change: every reader's next page shows it, not one page epoch later.
void show_change_now(App &app);

// An item's address field, as the sections whose items have a slug ask for it.
extern const desk::FormField kSlugField;

// The slug the editor typed, or, left empty, the one the name suggests (slug_from_name).
std::string slug_typed_or_named(const Values &fields);

// What the desk calls a tool: its name, and its tagline after it when another tool has that
// name too, so the editor can tell the two apart wherever either is named.
std::string tool_said(StoreReads &site, const std::string &name, const std::string &tagline);
// What the desk calls a tool or a reviewer an item refers to by slug: as above, or the slug
// when none has it (it went meanwhile).
std::string tool_name(StoreReads &site, const std::string &slug);
std::string reviewer_name(StoreReads &site, const std::string &slug);

// The form field by which the editor says "yes, save it with a name another item has".
constexpr const char *kSameNameField = "same_name";

// A field that picks one tool: a list of every tool while there are few, else its address.
desk::FormField tool_field(StoreReads &site, const char *name, const char *label);

// An item's fields by name from its item_json text (an edit log's before or after).
Values values_in(const std::string &item_json_text);

// An item's fields by name, as the content file writes them: a form's values when editing it.
template <class Item> Values values_of(const Item &item) {
  return values_in(item_json(item));
}

template <class Item> struct Section {
  const char *noun;      // "tool"
  const char *plural;    // "Tools"
  const char *list_path; // "/admin/tools"
  // The form's fields in order. A text field the content model keeps as paragraphs
  // (domain/content.h) becomes a textarea by itself (form_fields_of), so none says so here.
  std::function<std::vector<desk::FormField>(StoreReads &)> fields;
  std::function<Item(const Values &)> from_values;
  std::function<FieldFaults(const Item &)> faults;
  std::function<std::string(StoreReads &, const Item &)> name_of; // as the desk says it
  std::function<std::optional<Item>(StoreReads &, const std::string &key)> read;
  // The writes (domain/writes.h) that create one, update the one at `key`, and delete it, each
  // in `editor`'s name.
  std::function<Write(const Item &, const std::string &editor)> create;
  std::function<Write(const std::string &key, const Item &, const std::string &editor)> update;
  std::function<Write(const std::string &key, const std::string &editor)> remove;
  // What deleting it takes with it, said on the confirm page.
  std::function<std::string(StoreReads &, const Item &)> deletion_note;
  std::function<std::string(const Item &)> key_of;
  // Where the item can be seen as readers will see it, from the list; none when not set.
  std::function<std::string(const Item &)> preview_path = {};
  // What to do when a save meets one that exists already (for items without an address).
  const char *conflict_advice = "";
  // Where the form posts its fields, saved or not, to be seen so (opened beside the form).
  const char *preview_action = "";
  // The other items already named as this one is, each said so the editor can tell which it
  // is; for items readers tell apart by name. Saving one with such a name takes a second save.
  std::function<std::vector<std::string>(StoreReads &, const Item &, const std::string &editing)>
      namesakes = {};
  // What to do about a namesake, said after it.
  const char *namesake_advice = "";
};

// Each section, described in its own file (handlers/desk_tools.cpp…), for the pages that
// show items of every kind: the edit log.
const Section<ContentCategory> &category_section();
const Section<ContentReviewer> &reviewer_section();
const Section<ContentTool> &tool_section();
const Section<ContentReview> &review_section();
const Section<ContentComparison> &comparison_section();

// Edit log entries as the desk shows them (handlers/desk_log.cpp): each item by its name, each
// field by its form's label, a choice as the form offers it.
std::vector<desk::LoggedChange> logged_changes(StoreReads &site,
                                               const std::vector<EditEntry> &entries);

// An item's key from an address, as a page may say it back: printable, cut short.
std::string said_back(const std::string &key);

// The note a list shows after a save ("Saved the tool Codestral 2.1."), naming the item as the
// desk does; empty when there was none.
template <class Item>
std::string saved_note(StoreReads &site, const Request &req, const Section<Item> &section) {
  const auto key = req.get_param_value("saved");
  if (key.empty()) return "";
  const auto item = section.read(site, key);
  return std::string("Saved the ") + section.noun + " " +
         (item ? section.name_of(site, *item) : said_back(key)) + ".";
}

// The section's fields as its form shows and reads them.
template <class Item>
std::vector<desk::FormField> form_fields_of(StoreReads &site, const Section<Item> &section) {
  return desk::with_paragraph_fields<Item>(section.fields(site));
}

template <class Item>
desk::ItemForm form_for(StoreReads &site, const Section<Item> &section, const std::string &editing,
                        const Values &values) {
  desk::ItemForm form;
  form.noun = section.noun;
  form.list_path = section.list_path;
  form.editing = editing;
  form.fields = form_fields_of(site, section);
  form.values = values;
  return form;
}

template <class Item> void not_found_in(App &app, Response &res, const Section<Item> &section) {
  send_error(app, res, 404, "Not found",
             std::string("There is no ") + section.noun + " at this address.");
}

template <class Item>
void show_new_item(App &app, StoreReads &site, Response &res, const EditorSession &session,
                   const Section<Item> &section) {
  auto form = form_for(site, section, "", {});
  form.preview_action = section.preview_action;
  send_html(res,
            desk::item_form(app.views, site.site_copy(), bar_for(session, section.noun), form));
}

// What a section's form sent: its fields without the token, and the faults found in reading
// them (a pasted tab), to show beside their fields.
struct SentForm {
  Values values;
  FieldFaults faults;
};

// The form as sent; empty (and a 400 sent) when it cannot be read at all.
template <class Item>
std::optional<SentForm> sent_values(App &app, StoreReads &site, const Request &req, Response &res,
                                    const Section<Item> &section) {
  const auto fields = form_fields_of(site, section); // outlives the names viewed below
  std::vector<std::string_view> allowed = {"csrf", kSameNameField}, multi_line;
  for (const auto &field : fields) {
    allowed.push_back(field.name);
    if (field.kind == desk::FormField::Kind::long_text) multi_line.push_back(field.name);
  }
  auto parsed = parse_form(req.body, allowed, multi_line, ControlCharacters::field_fault);
  if (!parsed.ok()) {
    bad_form(app, res, parsed.error);
    return std::nullopt;
  }
  parsed.fields.erase("csrf");
  return SentForm{std::move(parsed.fields), std::move(parsed.field_faults)};
}

// Every fault of a form as sent: those found in reading it, then the content rules' for `item`.
template <class Item>
FieldFaults faults_in(const Section<Item> &section, const Item &item, const SentForm &sent) {
  auto faults = sent.faults;
  for (auto &fault : section.faults(item))
    faults.push_back(std::move(fault));
  return faults;
}

template <class Item>
void show_item(App &app, StoreReads &site, Response &res, const UrlCaptures &url,
               const EditorSession &session, const Section<Item> &section) {
  const std::string &key = url[0];
  const auto item = section.read(site, key);
  if (!item) return not_found_in(app, res, section);
  auto form = form_for(site, section, key, values_of(*item));
  form.title = section.name_of(site, *item);
  form.preview_action = section.preview_action;
  send_html(res,
            desk::item_form(app.views, site.site_copy(), bar_for(session, section.noun), form));
}

// POST to the list's address (a new item) or to an item's (its changes): the form's fields by
// the content file's rules, written with an edit log entry, or the form again with each fault.
template <class Item>
void save_item(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url, const EditorSession &session, const Section<Item> &section) {
  const std::string &editing = url[0]; // empty for a new item
  const auto sent = sent_values(app, site, req, res, section);
  if (!sent) return;
  const auto *values = &sent->values;
  const auto item = section.from_values(*values);
  auto form = form_for(site, section, editing, *values);
  form.preview_action = section.preview_action;
  form.title = section.name_of(site, item);
  form.faults = faults_in(section, item, *sent);
  // A slug made from the name is shown as made, so the editor sees it and may change it.
  if (const auto slug = form.values.find("slug"); slug != form.values.end() && slug->second.empty())
    slug->second = section.key_of(item);
  form.values.erase(kSameNameField);
  const auto show_again = [&](int status) {
    send_html(res,
              desk::item_form(app.views, site.site_copy(), bar_for(session, section.noun), form),
              status);
  };
  if (!form.faults.empty()) return show_again(400);
  if (section.namesakes && field_of(*values, kSameNameField).empty()) {
    const auto namesakes = section.namesakes(site, item, editing);
    if (!namesakes.empty()) {
      std::string named;
      for (const auto &namesake : namesakes)
        named += (named.empty() ? "" : "; ") + namesake;
      form.problem = std::string("Not saved yet: another ") + section.noun +
                     " has this name already (" + named + "). " + section.namesake_advice;
      form.carried.emplace_back(kSameNameField, "yes");
      return show_again(409);
    }
  }
  using Ended = WriteResult::Ended;
  const auto result =
      app.writes->submit(editing.empty() ? section.create(item, session.email)
                                         : section.update(editing, item, session.email));
  if (result.not_taken()) return write_not_taken(app, res, result.words);
  if (result.ended == Ended::already_exists) {
    // Beside the address when the form has one; else, at the top, what is there already and
    // what to do instead.
    const bool has_address =
        std::any_of(form.fields.begin(), form.fields.end(),
                    [](const desk::FormField &field) { return field.name == "slug"; });
    if (has_address)
      form.faults.emplace_back("slug", std::string("is taken: another ") + section.noun +
                                           " has this address");
    else
      form.problem = "Not saved: " + result.words + ". " + section.conflict_advice;
    return show_again(409);
  }
  if (result.ended == Ended::not_found) {
    if (!editing.empty() && !section.read(site, editing)) {
      // Deleted since the form was opened: what was typed is kept, to be created anew.
      form.editing.clear();
      form.problem = std::string("Not saved: this ") + section.noun +
                     " was deleted after the form was opened (the edit log says when). Its "
                     "fields are kept below: create it again, or leave it deleted.";
      return show_again(404);
    }
    // Something it names went after the form was opened (a category, a tool).
    form.problem = "Not saved: " + result.words +
                   " any more; it may have been deleted after the form was opened. Pick another "
                   "and save again.";
    return show_again(409);
  }
  if (result.ended == Ended::refused) {
    form.problem = "Not saved: " + result.words + ".";
    return show_again(409);
  }
  show_change_now(app);
  see_other(res, std::string(section.list_path) + "?saved=" + section.key_of(item));
}

template <class Item>
desk::Confirmation deletion_of(StoreReads &site, const Section<Item> &section,
                               const std::string &key, const Item &item) {
  const auto name = section.name_of(site, item);
  return {std::string("Deleting a ") + section.noun,
          "Delete " + name,
          "The " + std::string(section.noun) + " " + name + " will be deleted" +
              section.deletion_note(site, item) + ". The edit log keeps what it was.",
          std::string(section.list_path) + "/" + key + "/delete",
          section.list_path,
          ""};
}

template <class Item>
void confirm_item_deletion(App &app, StoreReads &site, Response &res, const UrlCaptures &url,
                           const EditorSession &session, const Section<Item> &section) {
  const std::string &key = url[0];
  const auto item = section.read(site, key);
  if (!item) return not_found_in(app, res, section);
  send_html(res, desk::confirm(app.views, site.site_copy(), bar_for(session, section.noun),
                               deletion_of(site, section, key, *item)));
}

template <class Item>
void delete_item(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session,
                 const Section<Item> &section) {
  const std::string &key = url[0];
  const auto parsed = parse_form(req.body, {"csrf"});
  if (!parsed.ok()) return bad_form(app, res, parsed.error);
  const auto item = section.read(site, key);
  if (!item) return not_found_in(app, res, section);
  const auto result = app.writes->submit(section.remove(key, session.email));
  using Ended = WriteResult::Ended;
  if (result.not_taken()) return write_not_taken(app, res, result.words);
  // Deleted meanwhile, by another tab or another editor.
  if (result.ended == Ended::not_found) return not_found_in(app, res, section);
  if (!result.done()) {
    auto refused = deletion_of(site, section, key, *item);
    refused.question = "The " + std::string(section.noun) + " " + section.name_of(site, *item) +
                       " cannot be deleted yet.";
    refused.problem = result.words + ".";
    return send_html(
        res, desk::confirm(app.views, site.site_copy(), bar_for(session, section.noun), refused),
        409);
  }
  show_change_now(app);
  see_other(res, section.list_path);
}

} // namespace verdict::handlers
