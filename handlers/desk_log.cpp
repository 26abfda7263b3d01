// The editor's desk's edit log: every change any editor made, newest first, field by field
// (store/edit_log.cpp writes an entry in the same transaction as the change, with the item as
// the content file writes it before and after; here each entry is said in the desk's words).
#include "handlers/desk_forms.h"

namespace verdict::handlers {

namespace {

// The label of a field's value as the form offers it: a choice's label (a category's name for
// its address), or the value itself.
std::string shown_value(const desk::FormField &field, const std::string &value) {
  for (const auto &[choice, label] : field.choices)
    if (choice == value) return label;
  return value;
}

// Reads a section's form fields once per page, however many entries of its kind there are.
class LogReader {
public:
  explicit LogReader(StoreReads &site) : site_(site) {}

  desk::LoggedChange operator()(const EditEntry &entry) {
    if (entry.kind == "category") return read(category_section(), entry);
    if (entry.kind == "reviewer") return read(reviewer_section(), entry);
    if (entry.kind == "tool") return read(tool_section(), entry);
    if (entry.kind == "review") return read(review_section(), entry);
    if (entry.kind == "comparison") return read(comparison_section(), entry);
    return {entry, entry.subject, {}}; // a subscriber's erasure names no one
  }

private:
  template <class Item>
  desk::LoggedChange read(const Section<Item> &section, const EditEntry &entry) {
    auto &fields = fields_[section.noun];
    if (fields.empty()) fields = form_fields_of(site_, section);
    desk::LoggedChange change{entry, entry.subject, {}};
    // The item as it was left (or as it went): its name as the desk says it. An entry that
    // carries no item (a publication's own line) names the item as it stands now.
    const auto &shown = entry.after.empty() ? entry.before : entry.after;
    if (!shown.empty())
      change.item = section.name_of(site_, section.from_values(values_in(shown)));
    else if (const auto now = section.read(site_, entry.subject))
      change.item = section.name_of(site_, *now);
    for (const auto &[name, before, after] : field_changes(entry.before, entry.after)) {
      const auto field = std::ranges::find(fields, name, &desk::FormField::name);
      if (field == fields.end()) {
        change.fields.push_back({name, before, after});
        continue;
      }
      change.fields.push_back(
          {field->label, shown_value(*field, before), shown_value(*field, after)});
    }
    return change;
  }

  StoreReads &site_;
  std::map<std::string, std::vector<desk::FormField>> fields_; // by section noun
};

} // namespace

std::vector<desk::LoggedChange> logged_changes(StoreReads &site,
                                               const std::vector<EditEntry> &entries) {
  LogReader reader(site);
  std::vector<desk::LoggedChange> changes;
  for (const auto &entry : entries)
    changes.push_back(reader(entry));
  return changes;
}

// GET /admin/log — the edit log, a page at a time.   page=N   q=words to narrow to
void show_edit_log(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  const auto filter = list_filter(app, req, res);
  if (!filter) return;
  const auto entries = site.edit_log(*span, *filter);
  send_html(res,
            desk::edit_log(app.views, site.site_copy(), bar_for(session, "log"),
                           {logged_changes(site, entries.items), entries.number, entries.has_next},
                           *filter));
}

} // namespace verdict::handlers
