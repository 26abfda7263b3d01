// The editor's desk: signing in and out, the desk's front page, categories and the edit log.
// Every page here but sign-in is reached through middleware/guards.h's admin_page and
// admin_write, which have already found the signed-in editor and checked the form's token.
// A saved change moves the page epoch at once, so every reader sees it on their next page.
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "domain/csv.h"
#include "domain/slugs.h"
#include "domain/utf8.h"
#include "handlers/handlers.h"
#include "middleware/request_parsing.h"
#include "middleware/responses.h"
#include "render/desk.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

// A page of a desk list: the log, tools, reviews, comparisons, subscribers.
constexpr int kLogPageSize = 50;
// The longest an item's key (a slug, a pair, a review's tool--reviewer) is said back from an
// address: the longest a route takes.
constexpr size_t kShownKeyBytes = 530;

desk::Bar bar_for(const EditorSession &session, const char *section) {
  return {session.email, session.csrf_token, section};
}

// Where sign-in may send an editor afterwards: a desk page, never anywhere else.
std::string desk_path_or_front(const std::string &path) {
  return path.starts_with("/admin/") && is_local_return_path(path) ? path : "/admin";
}

void bad_form(App &app, Response &res, const std::string &message) {
  send_error(app, res, 400, "That form could not be used", message);
}

std::string field_of(const FormParse &form, const char *name) {
  const auto it = form.fields.find(name);
  return it == form.fields.end() ? std::string() : it->second;
}

// After a change: every reader's next page shows it, not one page epoch later.
void show_change_now(App &app) {
  app.page_epoch.show_now();
}

} // namespace

void show_sign_in(App &app, const Request &req, Response &res) {
  set_single_header(res, "Cache-Control", "no-store");
  if (signed_in_editor(app, req)) return see_other(res, "/admin");
  desk::SignInForm form;
  form.next = desk_path_or_front(req.get_param_value("next"));
  send_html(res, desk::sign_in(app.views, app.store.site_copy(), form));
}

// Why sign-in is held back, and where the editor can still sign in from.
std::string throttled_message(auth::SignInThrottle::HeldBy held_by, std::chrono::seconds wait) {
  using HeldBy = auth::SignInThrottle::HeldBy;
  const auto minutes = std::to_string((wait.count() + 59) / 60);
  switch (held_by) {
  case HeldBy::account_from_network:
    return "Too many failed sign-ins for this address from your network. Try again in " + minutes +
           " minutes, or from a browser that has signed in here before.";
  case HeldBy::network:
    return "Too many failed sign-ins from your network. Try again in " + minutes + " minutes.";
  case HeldBy::account:
    return "Too many failed sign-ins for this address from many networks. A browser that has "
           "signed in here before can sign in now; others can try again in " +
           minutes + " minutes.";
  case HeldBy::device:
  case HeldBy::nothing:
    break;
  }
  return "Too many failed sign-ins from this browser. Try again in " + minutes + " minutes.";
}

// POST /admin/login — sign an editor in (auth/sign_in_throttle.h slows failures).
//   email=…   password=…   next=/admin/…   (a known-device cookie skips the account's limits)
void sign_in(App &app, const Request &req, Response &res) {
  set_single_header(res, "Cache-Control", "no-store");
  const auto form = parse_form(req.body, {"email", "password", "next"});
  if (!form.ok()) return bad_form(app, res, form.error);
  desk::SignInForm again{field_of(form, "email"), desk_path_or_front(field_of(form, "next")), ""};
  const auto network = network_of(client_of(app, req));
  auto device = known_device_from_cookie(req.get_header_value("Cookie"));
  if (!auth::known_device_token_holds(app.known_device_key, device, again.email, app.clock()))
    device.clear();
  const auto show_again = [&](int status, std::string problem) {
    again.problem = std::move(problem);
    send_html(res, desk::sign_in(app.views, app.store.site_copy(), again), status);
  };
  if (const auto wait = app.sign_in_throttle.wait(network, again.email, device);
      wait.seconds.count() > 0) {
    res.set_header("Retry-After", std::to_string(wait.seconds.count()));
    return show_again(429, throttled_message(wait.held_by, wait.seconds));
  }
  // An unknown address is checked against a hash too, so both answers take as long.
  const auto editor =
      is_valid_email(again.email) ? app.store.editor_by_email(again.email) : std::nullopt;
  const auto &hash = editor ? editor->password_hash : auth::hash_matching_nothing();
  if (!auth::password_matches(hash, field_of(form, "password")) || !editor) {
    app.sign_in_throttle.failed(network, again.email, device);
    return show_again(401, "That email address and password do not match an editor.");
  }
  app.sign_in_throttle.succeeded(network, again.email);
  if (auth::needs_rehash(editor->password_hash))
    app.store.set_editor_password(editor->email, auth::hash_password(field_of(form, "password")));
  start_editor_session(app, req, res, *editor);
  remember_known_device(app, req, res, *editor);
  see_other(res, again.next);
}

void sign_out(App &app, const Request &req, Response &res, const EditorSession &) {
  end_editor_session(app, req, res);
  see_other(res, "/admin/login");
}

void show_desk(App &app, const Request &, Response &res, const EditorSession &session) {
  send_html(res, desk::front(app.views, app.store.site_copy(), bar_for(session, "desk"),
                             app.store.desk_counts(), app.store.edit_log({1, 10}).items));
}

void show_edit_log(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto span = list_page(app, req, res, kLogPageSize);
  if (!span) return;
  send_html(res, desk::edit_log(app.views, app.store.site_copy(), bar_for(session, "log"),
                                app.store.edit_log(*span)));
}

// Sections ---------------------------------------------------------------------------------
// Each kind of content is a section of the desk with the same pages: a list, a form to create
// one, a form to edit one, and a confirmed deletion. What differs is described by a Section.

namespace {

using Values = std::map<std::string, std::string>;

// An item's fields by name, as the content file writes them: a form's values when editing it.
template <class Item> Values values_of(const Item &item) {
  const auto fields = nlohmann::json::parse(item_json(item));
  Values values;
  for (const auto &[name, value] : fields.items())
    values[name] = value.template get<std::string>();
  return values;
}

template <class Item> struct Section {
  const char *noun;      // "tool"
  const char *plural;    // "Tools"
  const char *list_path; // "/admin/tools"
  std::function<std::vector<desk::FormField>(App &)> fields;
  std::function<Item(const Values &)> from_values;
  std::function<FieldFaults(const Item &)> faults;
  std::function<std::string(const Item &)> name_of;
  std::function<std::optional<Item>(App &, const std::string &key)> read;
  std::function<void(App &, const Item &, const std::string &editor)> create;
  std::function<void(App &, const std::string &key, const Item &, const std::string &editor)>
      update;
  std::function<void(App &, const std::string &key, const std::string &editor)> remove;
  // What deleting it takes with it, said on the confirm page.
  std::function<std::string(App &, const Item &)> deletion_note;
  std::function<std::string(const Item &)> key_of;
  // Where the item can be seen as readers will see it; none when not set.
  std::function<std::string(const Item &)> preview_path = {};
};

template <class Item>
desk::ItemForm form_for(App &app, const Section<Item> &section, const std::string &editing,
                        const Values &values) {
  desk::ItemForm form;
  form.noun = section.noun;
  form.list_path = section.list_path;
  form.editing = editing;
  form.fields = section.fields(app);
  form.values = values;
  return form;
}

template <class Item> void not_found_in(App &app, Response &res, const Section<Item> &section) {
  send_error(app, res, 404, "Not found",
             std::string("There is no ") + section.noun + " at this address.");
}

template <class Item>
void show_new_item(App &app, Response &res, const EditorSession &session,
                   const Section<Item> &section) {
  send_html(res, desk::item_form(app.views, app.store.site_copy(), bar_for(session, section.noun),
                                 form_for(app, section, "", {})));
}

template <class Item>
void show_item(App &app, const Request &req, Response &res, const EditorSession &session,
               const Section<Item> &section) {
  const std::string key = req.matches[1];
  const auto item = section.read(app, key);
  if (!item) return not_found_in(app, res, section);
  auto form = form_for(app, section, key, values_of(*item));
  form.title = section.name_of(*item);
  if (section.preview_path) form.preview = section.preview_path(*item);
  send_html(
      res, desk::item_form(app.views, app.store.site_copy(), bar_for(session, section.noun), form));
}

// POST to the list's address (a new item) or to an item's (its changes): the form's fields by
// the content file's rules, written with an edit log entry, or the form again with each fault.
template <class Item>
void save_item(App &app, const Request &req, Response &res, const EditorSession &session,
               const Section<Item> &section) {
  const std::string editing = req.matches.size() > 1 ? std::string(req.matches[1]) : "";
  const auto fields = section.fields(app);
  std::vector<std::string_view> allowed = {"csrf"}, multi_line;
  for (const auto &field : fields) {
    allowed.push_back(field.name);
    if (field.kind == desk::FormField::Kind::long_text) multi_line.push_back(field.name);
  }
  const auto parsed = parse_form(req.body, allowed, multi_line);
  if (!parsed.ok()) return bad_form(app, res, parsed.error);
  auto values = parsed.fields;
  values.erase("csrf");
  const auto item = section.from_values(values);
  auto form = form_for(app, section, editing, values);
  form.title = section.name_of(item);
  form.faults = section.faults(item);
  const auto show_again = [&](int status) {
    send_html(
        res,
        desk::item_form(app.views, app.store.site_copy(), bar_for(session, section.noun), form),
        status);
  };
  if (!form.faults.empty()) return show_again(400);
  try {
    if (editing.empty())
      section.create(app, item, session.email);
    else
      section.update(app, editing, item, session.email);
  } catch (const AlreadyExists &) {
    form.faults.emplace_back("slug", std::string("is taken: another ") + section.noun +
                                         " has this address");
    return show_again(409);
  } catch (const NotFound &e) {
    if (!editing.empty() && !section.read(app, editing)) return not_found_in(app, res, section);
    form.problem = std::string(e.what()) + "."; // something it names has gone meanwhile
    return show_again(409);
  }
  show_change_now(app);
  see_other(res, std::string(section.list_path) + "?saved=" + section.key_of(item));
}

template <class Item>
desk::Confirmation deletion_of(App &app, const Section<Item> &section, const std::string &key,
                               const Item &item) {
  const auto name = section.name_of(item);
  return {std::string("Deleting a ") + section.noun,
          "Delete " + name,
          "The " + std::string(section.noun) + " " + name + " will be deleted" +
              section.deletion_note(app, item) + ". The edit log keeps what it was.",
          std::string(section.list_path) + "/" + key + "/delete",
          section.list_path,
          ""};
}

template <class Item>
void confirm_item_deletion(App &app, const Request &req, Response &res,
                           const EditorSession &session, const Section<Item> &section) {
  const std::string key = req.matches[1];
  const auto item = section.read(app, key);
  if (!item) return not_found_in(app, res, section);
  send_html(res, desk::confirm(app.views, app.store.site_copy(), bar_for(session, section.noun),
                               deletion_of(app, section, key, *item)));
}

template <class Item>
void delete_item(App &app, const Request &req, Response &res, const EditorSession &session,
                 const Section<Item> &section) {
  const std::string key = req.matches[1];
  const auto parsed = parse_form(req.body, {"csrf"});
  if (!parsed.ok()) return bad_form(app, res, parsed.error);
  const auto item = section.read(app, key);
  if (!item) return not_found_in(app, res, section);
  try {
    section.remove(app, key, session.email);
  } catch (const Refused &e) {
    auto refused = deletion_of(app, section, key, *item);
    refused.question = "The " + std::string(section.noun) + " " + section.name_of(*item) +
                       " cannot be deleted yet.";
    refused.problem = std::string(e.what()) + ".";
    return send_html(
        res,
        desk::confirm(app.views, app.store.site_copy(), bar_for(session, section.noun), refused),
        409);
  }
  show_change_now(app);
  see_other(res, section.list_path);
}

std::string field(const Values &values, const char *name) {
  const auto it = values.find(name);
  return it == values.end() ? std::string() : it->second;
}

// The note a list shows after a save: the address names the item saved, in any bytes anyone
// puts there, so it is said back only made printable and cut short.
std::string saved_note(const Request &req, const char *noun) {
  const auto saved = req.get_param_value("saved");
  return saved.empty() ? ""
                       : std::string("Saved the ") + noun + " " +
                             reflectable_text(saved, kShownKeyBytes) + ".";
}

const desk::FormField kSlugField{
    "slug", "Address", desk::FormField::Kind::text, true,
    "Its part of the page's address: lowercase letters, digits and single hyphens."};

const Section<ContentCategory> &categories() {
  static const Section<ContentCategory> section{
      "category",
      "Categories",
      "/admin/categories",
      [](App &) {
        return std::vector<desk::FormField>{{"name", "Name"}, kSlugField};
      },
      [](const Values &v) {
        return ContentCategory{field(v, "slug"), field(v, "name")};
      },
      category_faults,
      [](const ContentCategory &c) { return c.name; },
      [](App &app, const std::string &key) { return app.store.category(key); },
      [](App &app, const ContentCategory &c, const std::string &editor) {
        app.store.create_category(c, editor);
      },
      [](App &app, const std::string &key, const ContentCategory &c, const std::string &editor) {
        app.store.update_category(key, c, editor);
      },
      [](App &app, const std::string &key, const std::string &editor) {
        app.store.delete_category(key, editor);
      },
      [](App &, const ContentCategory &) { return std::string(); },
      [](const ContentCategory &c) { return c.slug; }};
  return section;
}

const Section<ContentTool> &tools() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentTool> section{
      "tool",
      "Tools",
      "/admin/tools",
      [](App &app) {
        desk::FormField category{"category", "Category", Kind::choice};
        for (const auto &listing : app.store.categories_with_tool_counts())
          category.choices.emplace_back(listing.category.slug, listing.category.name);
        desk::FormField entry{"entry", "Way in", Kind::choice};
        for (const auto &kind : kEntryKinds)
          entry.choices.emplace_back(kind, kind);
        return std::vector<desk::FormField>{
            {"name", "Name"},
            kSlugField,
            category,
            {"tagline", "Tagline", Kind::text, true,
             "One line under the name, at most 300 characters."},
            {"description", "Description", Kind::long_text},
            entry,
            {"vendor", "Vendor", Kind::text, false},
            {"url", "Website", Kind::text, false, "An http:// or https:// address."},
            {"pricing_notes", "Pricing read", Kind::long_text, false,
             "What it costs, in the editor's words."},
            {"pricing_checked_on", "Pricing checked on", Kind::date, false,
             "The day the pricing was read, YYYY-MM-DD; after 90 days readers are told it may be "
             "stale."},
            {"pricing_source", "Pricing source", Kind::text, false,
             "The page the pricing was read from."}};
      },
      [](const Values &v) {
        return ContentTool{field(v, "slug"),          field(v, "name"),
                           field(v, "category"),      field(v, "tagline"),
                           field(v, "description"),   field(v, "entry"),
                           field(v, "vendor"),        field(v, "url"),
                           field(v, "pricing_notes"), field(v, "pricing_checked_on"),
                           field(v, "pricing_source")};
      },
      tool_faults,
      [](const ContentTool &t) { return t.name; },
      [](App &app, const std::string &key) { return app.store.tool_content(key); },
      [](App &app, const ContentTool &t, const std::string &editor) {
        app.store.create_tool(t, editor);
      },
      [](App &app, const std::string &key, const ContentTool &t, const std::string &editor) {
        app.store.update_tool(key, t, editor);
      },
      [](App &app, const std::string &key, const std::string &editor) {
        app.store.delete_tool(key, editor);
      },
      [](App &app, const ContentTool &t) {
        const auto tool = app.store.tool_by_slug(t.slug);
        if (!tool) return std::string();
        return ", with its " + std::to_string(tool->panel.total) + " panel reviews, " +
               std::to_string(tool->community.total) +
               " reader votes and every comparison it is in";
      },
      [](const ContentTool &t) { return t.slug; }};
  return section;
}

const Section<ContentReviewer> &reviewers() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentReviewer> section{
      "reviewer",
      "Reviewers",
      "/admin/reviewers",
      [](App &) {
        return std::vector<desk::FormField>{
            {"name", "Name"},
            kSlugField,
            {"lens", "Lens", Kind::text, true,
             "What this persona weighs first, e.g. \"ships fast, fixes later\"."},
            {"bio", "About", Kind::long_text, false}};
      },
      [](const Values &v) {
        return ContentReviewer{field(v, "slug"), field(v, "name"), field(v, "lens"),
                               field(v, "bio")};
      },
      reviewer_faults,
      [](const ContentReviewer &r) { return r.name; },
      [](App &app, const std::string &key) { return app.store.reviewer_content(key); },
      [](App &app, const ContentReviewer &r, const std::string &editor) {
        app.store.create_reviewer(r, editor);
      },
      [](App &app, const std::string &key, const ContentReviewer &r, const std::string &editor) {
        app.store.update_reviewer(key, r, editor);
      },
      [](App &app, const std::string &key, const std::string &editor) {
        app.store.delete_reviewer(key, editor);
      },
      [](App &app, const ContentReviewer &r) {
        const auto reviewer = app.store.reviewer_by_slug(r.slug);
        return reviewer ? ", with their " + std::to_string(reviewer->verdicts.total) + " reviews"
                        : std::string();
      },
      [](const ContentReviewer &r) { return r.slug; }};
  return section;
}

// A review's part of its desk address: its tool's and reviewer's slugs, joined by "--", which
// no slug holds.
constexpr std::string_view kReviewKeyJoin = "--";

std::string review_key(const ContentReview &review) {
  return review.tool + std::string(kReviewKeyJoin) + review.reviewer;
}

std::optional<std::pair<std::string, std::string>> review_of_key(const std::string &key) {
  const auto join = key.find(kReviewKeyJoin);
  if (join == std::string::npos) return std::nullopt;
  return std::pair{key.substr(0, join), key.substr(join + kReviewKeyJoin.size())};
}

// Tools are offered as a list while there are few enough to scroll; past that, by address.
constexpr size_t kToolChoicesAtMost = 500;

desk::FormField tool_field(App &app, const char *name, const char *label) {
  desk::FormField tool{name, label, desk::FormField::Kind::choice};
  const auto all = app.store.tools_by_name({1, static_cast<int>(kToolChoicesAtMost)});
  if (all.has_next) {
    tool.kind = desk::FormField::Kind::text;
    tool.hint = "The tool's address, e.g. codestral-2-1.";
  } else {
    for (const auto &t : all.items)
      tool.choices.emplace_back(t.slug, t.name);
  }
  return tool;
}

const Section<ContentReview> &reviews() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentReview> section{
      "review",
      "Reviews",
      "/admin/reviews",
      [](App &app) {
        const auto tool = tool_field(app, "tool", "Tool");
        desk::FormField reviewer{"reviewer", "Reviewer", Kind::choice};
        for (const auto &r : app.store.reviewers())
          reviewer.choices.emplace_back(r.slug, r.name + " (" + r.lens + ")");
        desk::FormField verdict{"verdict", "Verdict", Kind::choice};
        verdict.choices = {{verdict_word(Verdict::ship), "Ship"}, {verdict_word(Verdict::skip), "Skip"}};
        return std::vector<desk::FormField>{tool,
                                            reviewer,
                                            verdict,
                                            {"quote", "Quote", Kind::long_text, true,
                                             "The reviewer's words, as the page shows them."}};
      },
      [](const Values &v) {
        return ContentReview{field(v, "tool"), field(v, "reviewer"), field(v, "verdict"),
                             field(v, "quote")};
      },
      review_faults,
      [](const ContentReview &r) { return r.reviewer + " on " + r.tool; },
      [](App &app, const std::string &key) -> std::optional<ContentReview> {
        const auto parts = review_of_key(key);
        if (!parts) return std::nullopt;
        return app.store.review_content(parts->first, parts->second);
      },
      [](App &app, const ContentReview &r, const std::string &editor) {
        app.store.create_review(r, editor);
      },
      [](App &app, const std::string &key, const ContentReview &r, const std::string &editor) {
        const auto parts = review_of_key(key);
        if (!parts) throw NotFound("there is no such review");
        app.store.update_review(parts->first, parts->second, r, editor);
      },
      [](App &app, const std::string &key, const std::string &editor) {
        const auto parts = review_of_key(key);
        if (!parts) throw NotFound("there is no such review");
        app.store.delete_review(parts->first, parts->second, editor);
      },
      [](App &, const ContentReview &) { return std::string(); },
      review_key};
  return section;
}

const Section<ContentComparison> &comparisons() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentComparison> section{
      "comparison",
      "Comparisons",
      "/admin/comparisons",
      [](App &app) {
        return std::vector<desk::FormField>{
            tool_field(app, "a", "First tool"),
            tool_field(app, "b", "Second tool"),
            {"published_on", "Published on", Kind::date, false,
             "Empty keeps it a draft, unlisted; a date publishes it on the front page."},
            {"intro", "Intro", Kind::long_text, false, "What the comparison is about."},
            {"bottom_line", "Bottom line", Kind::long_text, false,
             "The editor's answer to \"which one should you ship with?\", shown at the top of "
             "the page; at most 2000 characters."}};
      },
      [](const Values &v) {
        return ContentComparison{field(v, "a"), field(v, "b"), field(v, "published_on"),
                                 field(v, "intro"), field(v, "bottom_line")};
      },
      comparison_faults,
      [](const ContentComparison &c) { return c.a + " vs " + c.b; },
      [](App &app, const std::string &key) { return app.store.comparison_content(key); },
      [](App &app, const ContentComparison &c, const std::string &editor) {
        app.store.create_comparison(c, editor);
      },
      [](App &app, const std::string &key, const ContentComparison &c, const std::string &editor) {
        app.store.update_comparison(key, c, editor);
      },
      [](App &app, const std::string &key, const std::string &editor) {
        app.store.delete_comparison(key, editor);
      },
      [](App &, const ContentComparison &) {
        return std::string(": its page stays, as a pair the editor has not picked");
      },
      [](const ContentComparison &c) { return pair_slug(c.a, c.b); },
      [](const ContentComparison &c) {
        return "/admin/comparisons/" + pair_slug(c.a, c.b) + "/preview";
      }};
  return section;
}

} // namespace

// GET /admin/categories — every category, with how many tools each holds.
void show_categories(App &app, const Request &req, Response &res, const EditorSession &session) {
  desk::ItemList list;
  list.plural = "Categories";
  list.list_path = "/admin/categories";
  list.new_label = "New category";
  list.columns = {"Address", "Tools"};
  list.saved = saved_note(req, "category");
  for (const auto &listing : app.store.categories_with_tool_counts())
    list.rows.push_back({listing.category.slug,
                         listing.category.name,
                         {listing.category.slug, std::to_string(listing.tools)}});
  send_html(res,
            desk::item_list(app.views, app.store.site_copy(), bar_for(session, "category"), list));
}

// GET /admin/categories/new, /admin/categories/:slug; POST /admin/categories (create),
// /admin/categories/:slug (save)   name, slug   csrf
// GET and POST /admin/categories/:slug/delete   csrf
void new_category(App &app, const Request &, Response &res, const EditorSession &session) {
  show_new_item(app, res, session, categories());
}
void edit_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  show_item(app, req, res, session, categories());
}
void save_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  save_item(app, req, res, session, categories());
}
void confirm_category_deletion(App &app, const Request &req, Response &res,
                               const EditorSession &session) {
  confirm_item_deletion(app, req, res, session, categories());
}
void delete_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  delete_item(app, req, res, session, categories());
}

// GET /admin/tools — every tool by name, a page at a time.   page=N
void show_tools_at_desk(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto span = list_page(app, req, res, kLogPageSize);
  if (!span) return;
  const auto page = app.store.tools_by_name(*span);
  desk::ItemList list;
  list.plural = "Tools";
  list.list_path = "/admin/tools";
  list.new_label = "New tool";
  list.columns = {"Category", "Way in", "Reviews"};
  list.saved = saved_note(req, "tool");
  list.pagination = pages::pagination(app.views, "/admin/tools", page.number, page.has_next);
  for (const auto &tool : page.items)
    list.rows.push_back(
        {tool.slug, tool.name, {tool.category.name, tool.entry, std::to_string(tool.panel.total)}});
  send_html(res, desk::item_list(app.views, app.store.site_copy(), bar_for(session, "tool"), list));
}

// GET /admin/tools/new, /admin/tools/:slug; POST /admin/tools (create), /admin/tools/:slug
// (save)   name, slug, category, tagline, description, entry, vendor, url, pricing_notes,
// pricing_checked_on, pricing_source   csrf
// GET and POST /admin/tools/:slug/delete   csrf
void new_tool(App &app, const Request &, Response &res, const EditorSession &session) {
  show_new_item(app, res, session, tools());
}
void edit_tool(App &app, const Request &req, Response &res, const EditorSession &session) {
  show_item(app, req, res, session, tools());
}
void save_tool(App &app, const Request &req, Response &res, const EditorSession &session) {
  save_item(app, req, res, session, tools());
}
void confirm_tool_deletion(App &app, const Request &req, Response &res,
                           const EditorSession &session) {
  confirm_item_deletion(app, req, res, session, tools());
}
void delete_tool(App &app, const Request &req, Response &res, const EditorSession &session) {
  delete_item(app, req, res, session, tools());
}

// GET /admin/reviewers — the panel, in panel order.
void show_reviewers_at_desk(App &app, const Request &req, Response &res,
                            const EditorSession &session) {
  desk::ItemList list;
  list.plural = "Reviewers";
  list.list_path = "/admin/reviewers";
  list.new_label = "New reviewer";
  list.columns = {"Lens", "Reviews"};
  list.saved = saved_note(req, "reviewer");
  for (const auto &reviewer : app.store.reviewers())
    list.rows.push_back(
        {reviewer.slug, reviewer.name, {reviewer.lens, std::to_string(reviewer.verdicts.total)}});
  send_html(res,
            desk::item_list(app.views, app.store.site_copy(), bar_for(session, "reviewer"), list));
}

// GET /admin/reviewers/new, /admin/reviewers/:slug; POST /admin/reviewers (create),
// /admin/reviewers/:slug (save)   name, slug, lens, bio   csrf
// GET and POST /admin/reviewers/:slug/delete   csrf
void new_reviewer(App &app, const Request &, Response &res, const EditorSession &session) {
  show_new_item(app, res, session, reviewers());
}
void edit_reviewer(App &app, const Request &req, Response &res, const EditorSession &session) {
  show_item(app, req, res, session, reviewers());
}
void save_reviewer(App &app, const Request &req, Response &res, const EditorSession &session) {
  save_item(app, req, res, session, reviewers());
}
void confirm_reviewer_deletion(App &app, const Request &req, Response &res,
                               const EditorSession &session) {
  confirm_item_deletion(app, req, res, session, reviewers());
}
void delete_reviewer(App &app, const Request &req, Response &res, const EditorSession &session) {
  delete_item(app, req, res, session, reviewers());
}

// GET /admin/reviews — every review, newest first, a page at a time.   page=N
void show_reviews_at_desk(App &app, const Request &req, Response &res,
                          const EditorSession &session) {
  const auto span = list_page(app, req, res, kLogPageSize);
  if (!span) return;
  const auto page = app.store.reviews_at_desk(*span);
  desk::ItemList list;
  list.plural = "Reviews";
  list.list_path = "/admin/reviews";
  list.new_label = "New review";
  list.columns = {"Verdict", "Quote"};
  list.saved = saved_note(req, "review");
  list.pagination = pages::pagination(app.views, "/admin/reviews", page.number, page.has_next);
  for (const auto &review : page.items)
    list.rows.push_back({review_key(review),
                         review.reviewer + " on " + review.tool,
                         {review.verdict, review.quote}});
  send_html(res,
            desk::item_list(app.views, app.store.site_copy(), bar_for(session, "review"), list));
}

// GET /admin/reviews/new, /admin/reviews/:tool--:reviewer; POST /admin/reviews (create),
// /admin/reviews/:tool--:reviewer (save)   tool, reviewer, verdict, quote   csrf
// GET and POST /admin/reviews/:tool--:reviewer/delete   csrf
void new_review(App &app, const Request &, Response &res, const EditorSession &session) {
  show_new_item(app, res, session, reviews());
}
void edit_review(App &app, const Request &req, Response &res, const EditorSession &session) {
  show_item(app, req, res, session, reviews());
}
void save_review(App &app, const Request &req, Response &res, const EditorSession &session) {
  save_item(app, req, res, session, reviews());
}
void confirm_review_deletion(App &app, const Request &req, Response &res,
                             const EditorSession &session) {
  confirm_item_deletion(app, req, res, session, reviews());
}
void delete_review(App &app, const Request &req, Response &res, const EditorSession &session) {
  delete_item(app, req, res, session, reviews());
}

// GET /admin/subscribers — how many, and who, newest first.   page=N
void show_subscribers(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto span = list_page(app, req, res, kLogPageSize);
  if (!span) return;
  const auto page = app.store.subscribers(*span);
  const auto counts = app.store.subscriber_counts();
  const auto count = counts.total();
  desk::ItemList list;
  list.plural = "Subscribers";
  list.list_path = "/admin/subscribers";
  list.columns = {"Subscribed", "Status"};
  list.saved = req.get_param_value("erased").empty() ? "" : "The address is erased.";
  list.pagination = pages::pagination(app.views, "/admin/subscribers", page.number, page.has_next);
  list.editable = false;
  list.lead = std::to_string(count) + (count == 1 ? " address is" : " addresses are") +
              " on the weekly digest's list: " + std::to_string(counts.confirmed) +
              " confirmed (they get the digest), " + std::to_string(counts.pending) +
              " waiting for confirmation, " + std::to_string(counts.unsubscribed) +
              " unsubscribed.";
  list.extra_link = "/admin/subscribers.csv";
  list.extra_label = "Export the list (CSV)";
  for (const auto &subscriber : page.items)
    list.rows.push_back({std::to_string(subscriber.id),
                         subscriber.email,
                         {subscriber.subscribed_at,
                          subscriber.mail_problem.empty()
                              ? subscriber.status
                              : subscriber.status + ": its confirmation mail was given up (" +
                                    subscriber.mail_problem + ")"}});
  send_html(
      res, desk::item_list(app.views, app.store.site_copy(), bar_for(session, "subscriber"), list));
}

// GET /admin/subscribers.csv — the whole list as a spreadsheet opens it.
void export_subscribers(App &app, const Request &, Response &res, const EditorSession &) {
  res.set_content(subscribers_csv(app.store.all_subscribers()), "text/csv; charset=utf-8");
  res.set_header("Content-Disposition", "attachment; filename=\"subscribers.csv\"");
}

namespace {

std::optional<Subscriber> subscriber_at(App &app, const Request &req, Response &res) {
  const std::string id = req.matches[1];
  const auto subscriber =
      id.size() <= 18 ? app.store.subscriber(std::stoll(id)) : std::optional<Subscriber>();
  if (!subscriber)
    send_error(app, res, 404, "Not found", "There is no subscriber at this address.");
  return subscriber;
}

} // namespace

// GET /admin/subscribers/:id/delete — are you sure?
void confirm_subscriber_erasure(App &app, const Request &req, Response &res,
                                const EditorSession &session) {
  const auto subscriber = subscriber_at(app, req, res);
  if (!subscriber) return;
  const auto id = std::to_string(subscriber->id);
  send_html(res, desk::confirm(app.views, app.store.site_copy(), bar_for(session, "subscriber"),
                               {"Erasing a subscriber", "Erase " + subscriber->email,
                                subscriber->email +
                                    " will be taken off the list and forgotten: the edit log "
                                    "records that one address was erased, not which.",
                                "/admin/subscribers/" + id + "/delete", "/admin/subscribers", ""}));
}

// POST /admin/subscribers/:id/delete   csrf
void erase_subscriber(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto parsed = parse_form(req.body, {"csrf"});
  if (!parsed.ok()) return bad_form(app, res, parsed.error);
  const auto subscriber = subscriber_at(app, req, res);
  if (!subscriber) return;
  app.store.erase_subscriber(subscriber->id, session.email);
  see_other(res, "/admin/subscribers?erased=1");
}

// GET /admin/comparisons — drafts first, then the published, newest first.   page=N
void show_comparisons_at_desk(App &app, const Request &req, Response &res,
                              const EditorSession &session) {
  const auto span = list_page(app, req, res, kLogPageSize);
  if (!span) return;
  const auto page = app.store.comparisons_at_desk(*span);
  desk::ItemList list;
  list.plural = "Comparisons";
  list.list_path = "/admin/comparisons";
  list.new_label = "New comparison";
  list.columns = {"Published", "Bottom line"};
  list.saved = saved_note(req, "comparison");
  list.pagination = pages::pagination(app.views, "/admin/comparisons", page.number, page.has_next);
  for (const auto &c : page.items)
    list.rows.push_back({pair_slug(c.a, c.b),
                         c.a + " vs " + c.b,
                         {c.published_on.empty() ? "Draft" : c.published_on,
                          c.bottom_line.empty() ? "None yet" : "Written"}});
  send_html(
      res, desk::item_list(app.views, app.store.site_copy(), bar_for(session, "comparison"), list));
}

// GET /admin/comparisons/new, /admin/comparisons/:pair; POST /admin/comparisons (create),
// /admin/comparisons/:pair (save)   a, b, published_on, intro, bottom_line   csrf
// GET and POST /admin/comparisons/:pair/delete   csrf
void new_comparison(App &app, const Request &, Response &res, const EditorSession &session) {
  show_new_item(app, res, session, comparisons());
}
void edit_comparison(App &app, const Request &req, Response &res, const EditorSession &session) {
  show_item(app, req, res, session, comparisons());
}
void save_comparison(App &app, const Request &req, Response &res, const EditorSession &session) {
  save_item(app, req, res, session, comparisons());
}
void confirm_comparison_deletion(App &app, const Request &req, Response &res,
                                 const EditorSession &session) {
  confirm_item_deletion(app, req, res, session, comparisons());
}
void delete_comparison(App &app, const Request &req, Response &res, const EditorSession &session) {
  delete_item(app, req, res, session, comparisons());
}

// GET /admin/comparisons/:pair/preview — the comparison's page as readers will see it once
// it is published (a draft shows today's date), with nobody's votes pressed.
void preview_comparison(App &app, const Request &req, Response &res, const EditorSession &) {
  const std::string pair = req.matches[1];
  const auto record = app.store.comparison_content(pair);
  auto detail = record ? app.store.comparison_detail(pair, "") : std::nullopt;
  if (!detail)
    return send_error(app, res, 404, "Not found", "There is no comparison at this address.");
  detail->comparison.published = true;
  if (detail->comparison.published_on.empty()) detail->comparison.published_on = app.today();
  send_html(res, pages::comparison(app.views, *detail, app.store.site_copy(), app.today(),
                                   vote_tokens_for(app, detail->comparison)));
}

} // namespace verdict::handlers
