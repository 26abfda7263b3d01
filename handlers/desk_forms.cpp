// What the editor's desk's sections share that is not a template: the desk's bar, reading a
// form's fields, the note after a save, and the fields more than one section asks for.
#include "handlers/desk_forms.h"

#include <nlohmann/json.hpp>

#include "domain/slugs.h"
#include "domain/utf8.h"
#include "middleware/request_reading.h"

namespace verdict::handlers {

namespace {

// The longest an item's key (a slug, a pair, a review's tool--reviewer) is said back from an
// address: the longest a route takes.
constexpr size_t kShownKeyBytes = 530;

// Tools are offered as a list while there are few enough to scroll; past that, by address.
constexpr size_t kToolChoicesAtMost = 500;

} // namespace

desk::Bar bar_for(const EditorSession &session, const char *section) {
  return {session.email, session.csrf_token, section};
}

void bad_form(App &app, Response &res, const std::string &message) {
  send_error(app, res, 400, "That form could not be used", message);
}

Values values_in(const std::string &item_json_text) {
  Values values;
  const auto fields = nlohmann::json::parse(item_json_text, nullptr, false);
  if (!fields.is_object()) return values;
  for (const auto &[name, value] : fields.items())
    if (value.is_string()) values[name] = value.get<std::string>();
  return values;
}

std::optional<std::string> list_filter(App &app, const Request &req, Response &res) {
  auto words = parse_search_text(param_values(req, "q"));
  if (!words.ok()) {
    send_error(app, res, 400, "Those words cannot narrow the list", words.error);
    return std::nullopt;
  }
  return std::move(words.text);
}

std::string field_of(const Values &fields, const char *name) {
  const auto it = fields.find(name);
  return it == fields.end() ? std::string() : it->second;
}

void show_change_now(App &app) {
  app.page_epoch.show_now();
}

// The address names the item saved, in any bytes anyone puts there, so it is said back only
// made printable and cut short.
std::string said_back(const std::string &key) {
  return reflectable_text(key, kShownKeyBytes);
}

const desk::FormField kSlugField{
    "slug", "Address", desk::FormField::Kind::text, false,
    "The end of its page's address, e.g. codestral-2-1: lowercase letters, digits and single "
    "hyphens. Left empty, it is made from the name."};

std::string slug_typed_or_named(const Values &fields) {
  const auto typed = field_of(fields, "slug");
  return typed.empty() ? slug_from_name(field_of(fields, "name")) : typed;
}

std::string tool_said(StoreReads &site, const std::string &name, const std::string &tagline) {
  return site.tools_named(name).size() > 1 ? name + " (" + tagline + ")" : name;
}

std::string tool_name(StoreReads &site, const std::string &slug) {
  const auto tool = site.tool_content(slug);
  return tool ? tool_said(site, tool->name, tool->tagline) : slug;
}

std::string reviewer_name(StoreReads &site, const std::string &slug) {
  const auto reviewer = site.reviewer_content(slug);
  return reviewer ? reviewer->name : slug;
}

desk::FormField tool_field(StoreReads &site, const char *name, const char *label) {
  desk::FormField tool{name, label, desk::FormField::Kind::choice};
  const auto all = site.tools_by_name({1, static_cast<int>(kToolChoicesAtMost)});
  if (all.has_next) {
    tool.kind = desk::FormField::Kind::text;
    tool.hint = "The tool's address, e.g. codestral-2-1.";
  } else {
    // Two tools may share a name ("Code Llama 4"): those carry their taglines too, so the
    // editor can tell which one each is.
    std::map<std::string, int> named;
    for (const auto &t : all.items)
      ++named[t.name];
    for (const auto &t : all.items)
      tool.choices.emplace_back(t.slug, named[t.name] > 1 ? t.name + " — " + t.tagline : t.name);
  }
  return tool;
}

} // namespace verdict::handlers
