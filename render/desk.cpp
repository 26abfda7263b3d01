#include "render/desk.h"

#include <algorithm>

#include "domain/dates.h"
#include "render/page_parts.h"
#include "render/pages.h"

namespace verdict::desk {

namespace {

using kainjow::mustache::list;

Data flag(bool value) {
  return value ? Data::type::bool_true : Data::type::bool_false;
}

std::string bar_html(const Views &views, const Bar &bar) {
  Data data;
  data.set("email", bar.email);
  data.set("csrf", bar.csrf);
  data.set("at_" + bar.section, flag(true));
  return views.fragment("admin_bar", data);
}

// A desk page: the bar, then the page; never a page a search engine should list.
std::string desk_page(const Views &views, const SiteCopy &site, const Bar &bar,
                      std::string_view view, Data data, const std::string &title,
                      const std::string &path) {
  data.set("bar", bar_html(views, bar));
  return views.page(view, data, {title + " · Editor's desk · " + site.site_name, title, path},
                    site);
}

// `text` as a sentence: its first letter capital, a full stop at its end.
std::string sentence_of(std::string text) {
  if (!text.empty() && text.front() >= 'a' && text.front() <= 'z') text.front() -= 'a' - 'A';
  if (!text.empty() && text.back() != '.') text += '.';
  return text;
}

// One field of a desk form, with its value and its fault, if any.
Data field_data(const FormField &field, const std::map<std::string, std::string> &values,
                const FieldFaults &faults) {
  const auto found = values.find(field.name);
  const auto value = found == values.end() ? std::string() : found->second;
  Data data;
  data.set("name", field.name);
  data.set("label", field.label);
  data.set("value", value);
  data.set("required", flag(field.required));
  if (!field.hint.empty()) data.set("hint", field.hint);
  switch (field.kind) {
  case FormField::Kind::long_text:
    data.set("textarea", flag(true));
    break;
  case FormField::Kind::choice: {
    Data options{list{}};
    for (const auto &[choice, label] : field.choices) {
      Data option;
      option.set("value", choice);
      option.set("label", label);
      option.set("selected", flag(choice == value));
      options.push_back(option);
    }
    data.set("options", options);
    data.set("choices", flag(true));
    break;
  }
  case FormField::Kind::date:
  case FormField::Kind::text:
    data.set("input", flag(true));
    data.set("type", field.kind == FormField::Kind::date ? "date" : "text");
    break;
  }
  // Set either way: a field without a fault must not show the form's own problem, which a
  // section left unset here would find in the form's context.
  data.set("problem", flag(false));
  for (const auto &[key, fault] : faults)
    if (key == field.name) {
      data.set("problem", field.label + " " + fault + ".");
      break;
    }
  return data;
}

// One change, as the log and the desk's front page show it.
// A value the log shows; a field an update emptied or first filled reads "(empty)" there.
constexpr const char *kNoValue = "(empty)";

Data entry_data(const LoggedChange &change) {
  const auto &entry = change.entry;
  Data item;
  item.set("at", entry.at); // for machines (the time element's datetime)
  item.set("at_shown", utc_time_shown(entry.at));
  item.set("editor", entry.editor);
  item.set("action", entry.action);
  item.set("kind", entry.kind);
  item.set("item", change.item);
  // A creation has only values after, a deletion only values before; an update both.
  const bool had = !entry.before.empty(), has = !entry.after.empty();
  Data fields{list{}};
  for (const auto &field : change.fields) {
    Data shown;
    shown.set("label", field.label);
    if (had) shown.set("before", field.before.empty() ? kNoValue : field.before);
    if (has) shown.set("after", field.after.empty() ? kNoValue : field.after);
    fields.push_back(shown);
  }
  item.set("fields", fields);
  item.set("has_fields", flag(!change.fields.empty()));
  return item;
}

} // namespace

std::string sign_in(const Views &views, const SiteCopy &site, const SignInForm &form) {
  Data data;
  data.set("email", form.email);
  data.set("next", form.next);
  if (!form.problem.empty()) data.set("problem", form.problem);
  return views.page("admin_sign_in", data,
                    {"Sign in · Editor's desk · " + site.site_name, "Sign in to the editor's desk.",
                     "/admin/login"},
                    site);
}

std::string front(const Views &views, const SiteCopy &site, const Bar &bar,
                  const DeskCounts &counts, const std::vector<LoggedChange> &latest) {
  Data data;
  data.set("site_name", site.site_name);
  Data items{list{}};
  const auto count = [&items](int64_t n, const char *one, const char *many, const char *path) {
    Data item;
    item.set("count", std::to_string(n));
    item.set("label", n == 1 ? one : many);
    item.set("path", path);
    items.push_back(item);
  };
  count(counts.categories, "category", "categories", "/admin/categories");
  count(counts.tools, "tool", "tools", "/admin/tools");
  count(counts.reviewers, "reviewer", "reviewers", "/admin/reviewers");
  count(counts.reviews, "review", "reviews", "/admin/reviews");
  count(counts.published, "comparison published", "comparisons published", "/admin/comparisons");
  count(counts.subscribers, "subscriber", "subscribers", "/admin/subscribers");
  data.set("counts", items);
  Data changes{list{}};
  for (const auto &change : latest)
    changes.push_back(entry_data(change));
  data.set("changes", changes);
  data.set("has_changes", flag(!latest.empty()));
  return desk_page(views, site, bar, "admin_desk", data, "Desk", "/admin");
}

std::string list_address(const std::string &list_path, const std::string &filter) {
  return filter.empty() ? list_path : list_path + "?q=" + pages::parts::query_value(filter);
}

std::string item_list(const Views &views, const SiteCopy &site, const Bar &bar,
                      const ItemList &shown) {
  Data data;
  data.set("heading", shown.plural);
  if (!shown.new_label.empty()) {
    data.set("new_path", shown.list_path + "/new");
    data.set("new_label", shown.new_label);
  }
  if (!shown.lead.empty()) data.set("lead", shown.lead);
  if (!shown.extra_link.empty()) {
    data.set("extra_link", shown.extra_link);
    data.set("extra_label", shown.extra_label);
  }
  data.set("editable", flag(shown.editable));
  data.set("list_path", shown.list_path);
  if (!shown.find_label.empty()) data.set("find_label", shown.find_label);
  if (!shown.filter.empty()) data.set("filter", shown.filter);
  Data columns{list{}};
  for (const auto &column : shown.columns)
    columns.push_back(Data("column", column));
  data.set("columns", columns);
  Data rows{list{}};
  for (const auto &item : shown.rows) {
    Data row;
    row.set("name", item.name);
    row.set("edit_path", shown.list_path + "/" + item.key);
    row.set("delete_path", shown.list_path + "/" + item.key + "/delete");
    if (!item.preview_path.empty()) row.set("preview_path", item.preview_path);
    Data cells{list{}};
    for (size_t i = 0; i < item.cells.size(); ++i) {
      Data cell;
      cell.set("cell", item.cells[i]);
      cell.set("column", i < shown.columns.size() ? shown.columns[i] : "");
      cells.push_back(cell);
    }
    row.set("cells", cells);
    rows.push_back(row);
  }
  data.set("rows", rows);
  data.set("has_rows", flag(!shown.rows.empty()));
  if (!shown.saved.empty()) data.set("saved", shown.saved);
  data.set("pagination", shown.pagination);
  return desk_page(views, site, bar, "admin_list", data, shown.plural, shown.list_path);
}

std::string item_form(const Views &views, const SiteCopy &site, const Bar &bar,
                      const ItemForm &form) {
  const bool creating = form.editing.empty();
  const auto heading = creating ? "New " + form.noun : form.title;
  const auto path = creating ? form.list_path + "/new" : form.list_path + "/" + form.editing;
  Data data;
  data.set("eyebrow", creating ? "Editor's desk" : "Editing a " + form.noun);
  data.set("heading", heading);
  data.set("action", creating ? form.list_path : path);
  data.set("csrf", bar.csrf);
  data.set("submit", creating ? "Create " + form.noun : "Save changes");
  data.set("back", form.list_path);
  // A fault of no field the form shows goes at the top, so no fault is ever silent.
  auto problem = form.problem;
  for (const auto &[key, fault] : form.faults) {
    const bool shown = std::any_of(form.fields.begin(), form.fields.end(),
                                   [&key](const FormField &field) { return field.name == key; });
    if (!shown) problem += (problem.empty() ? "" : " ") + sentence_of(key + " " + fault);
  }
  if (!problem.empty()) data.set("problem", problem);
  // Faults beside fields may be far down a long form: the top says the save failed and links
  // to each field to change, unless a problem said there already speaks for the form.
  Data faulty{list{}};
  size_t faulty_count = 0;
  for (const auto &field : form.fields)
    if (std::any_of(form.faults.begin(), form.faults.end(),
                    [&field](const auto &fault) { return fault.first == field.name; })) {
      Data link;
      link.set("name", field.name);
      link.set("label", field.label);
      faulty.push_back(link);
      ++faulty_count;
    }
  if (problem.empty() && faulty_count > 0) {
    data.set("fault_summary",
             faulty_count == 1 ? std::string("Not saved: one field needs a change, said beside it:")
                               : "Not saved: " + std::to_string(faulty_count) +
                                     " fields need a change, said beside each:");
    data.set("faulty_fields", faulty);
  }
  if (!form.preview_action.empty()) data.set("preview_action", form.preview_action);
  Data fields{list{}};
  for (const auto &field : form.fields)
    fields.push_back(field_data(field, form.values, form.faults));
  data.set("fields", fields);
  Data carried{list{}};
  for (const auto &[name, value] : form.carried) {
    Data field;
    field.set("name", name);
    field.set("value", value);
    carried.push_back(field);
  }
  data.set("carried", carried);
  data.set("marks_required", flag(std::any_of(form.fields.begin(), form.fields.end(),
                                              [](const FormField &f) { return f.required; })));
  return desk_page(views, site, bar, "admin_form", data, heading, path);
}

std::string confirm(const Views &views, const SiteCopy &site, const Bar &bar,
                    const Confirmation &confirmation) {
  Data data;
  data.set("eyebrow", confirmation.eyebrow);
  data.set("heading", confirmation.heading);
  data.set("question", confirmation.question);
  data.set("action", confirmation.action);
  data.set("back", confirmation.back);
  data.set("csrf", bar.csrf);
  data.set("submit", confirmation.heading);
  if (!confirmation.problem.empty()) data.set("problem", confirmation.problem);
  return desk_page(views, site, bar, "admin_confirm", data, confirmation.heading,
                   confirmation.action);
}

std::string edit_log(const Views &views, const SiteCopy &site, const Bar &bar,
                     const Paged<LoggedChange> &entries, const std::string &filter) {
  Data data;
  Data items{list{}};
  for (const auto &entry : entries.items)
    items.push_back(entry_data(entry));
  data.set("entries", items);
  data.set("has_entries", flag(!entries.items.empty()));
  if (!filter.empty()) data.set("filter", filter);
  data.set("pagination", pages::pagination(views, list_address("/admin/log", filter),
                                           entries.number, entries.has_next));
  return desk_page(views, site, bar, "admin_log", data, "Edit log", "/admin/log");
}

} // namespace verdict::desk
