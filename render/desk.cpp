#include "render/desk.h"

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

// One field of a desk form: its value as typed and its fault, if any.
struct Field {
  const char *name, *label;
  std::string value;
  const char *hint = "";
  bool required = true;
};

Data field_data(const Field &field, const FieldFaults &faults) {
  Data data;
  data.set("name", field.name);
  data.set("label", field.label);
  data.set("value", field.value);
  data.set("type", "text");
  data.set("input", flag(true));
  data.set("required", flag(field.required));
  if (*field.hint) data.set("hint", field.hint);
  for (const auto &[key, fault] : faults)
    if (key == field.name) {
      data.set("problem", std::string(field.label) + " " + fault + ".");
      break;
    }
  return data;
}

// One change, as the log and the desk's front page show it.
Data entry_data(const EditEntry &entry) {
  Data item;
  item.set("at", entry.at);
  item.set("editor", entry.editor);
  item.set("action", entry.action);
  item.set("kind", entry.kind);
  item.set("subject", entry.subject);
  if (!entry.before.empty()) item.set("before", entry.before);
  if (!entry.after.empty()) item.set("after", entry.after);
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
                  const DeskCounts &counts, const std::vector<EditEntry> &latest) {
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
  count(counts.tools, "tool", "tools", "/tools");
  count(counts.reviewers, "reviewer", "reviewers", "/reviewers");
  count(counts.reviews, "review", "reviews", "/tools");
  count(counts.published, "comparison published", "comparisons published", "/comparisons");
  count(counts.subscribers, "subscriber", "subscribers", "/admin");
  data.set("counts", items);
  Data changes{list{}};
  for (const auto &entry : latest)
    changes.push_back(entry_data(entry));
  data.set("changes", changes);
  data.set("has_changes", flag(!latest.empty()));
  return desk_page(views, site, bar, "admin_desk", data, "Desk", "/admin");
}

std::string categories(const Views &views, const SiteCopy &site, const Bar &bar,
                       const std::vector<CategoryListing> &categories, const std::string &saved) {
  Data data;
  Data rows{list{}};
  for (const auto &listing : categories) {
    Data row;
    row.set("slug", listing.category.slug);
    row.set("name", listing.category.name);
    row.set("tools", std::to_string(listing.tools));
    rows.push_back(row);
  }
  data.set("categories", rows);
  data.set("has_categories", flag(!categories.empty()));
  if (!saved.empty()) data.set("saved", saved);
  return desk_page(views, site, bar, "admin_categories", data, "Categories", "/admin/categories");
}

std::string category_form(const Views &views, const SiteCopy &site, const Bar &bar,
                          const CategoryForm &form) {
  const bool creating = form.editing.empty();
  Data data;
  data.set("eyebrow", creating ? "New category" : "Category");
  data.set("heading", creating ? "New category" : form.values.name);
  data.set("action", creating ? "/admin/categories" : "/admin/categories/" + form.editing);
  data.set("csrf", bar.csrf);
  data.set("submit", creating ? "Create category" : "Save changes");
  data.set("back", "/admin/categories");
  if (!form.problem.empty()) data.set("problem", form.problem);
  Data fields{list{}};
  fields.push_back(field_data({"name", "Name", form.values.name}, form.faults));
  fields.push_back(field_data({"slug", "Address", form.values.slug,
                               "Lowercase letters, digits and single hyphens, e.g. coding-agents."},
                              form.faults));
  data.set("fields", fields);
  return desk_page(views, site, bar, "admin_form", data,
                   creating ? "New category" : form.values.name,
                   creating ? "/admin/categories/new" : "/admin/categories/" + form.editing);
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
                     const Paged<EditEntry> &entries) {
  Data data;
  Data items{list{}};
  for (const auto &entry : entries.items)
    items.push_back(entry_data(entry));
  data.set("entries", items);
  data.set("has_entries", flag(!entries.items.empty()));
  data.set("pagination", pages::pagination(views, "/admin/log", entries.number, entries.has_next));
  return desk_page(views, site, bar, "admin_log", data, "Edit log", "/admin/log");
}

} // namespace verdict::desk
