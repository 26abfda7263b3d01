// The editor's desk: signing in and out, the desk's front page, categories and the edit log.
// Every page here but sign-in is reached through transport/guards.h's admin_page and
// admin_write, which have already found the signed-in editor and checked the form's token.
// A saved change moves the page epoch at once, so every reader sees it on their next page.
#include <chrono>

#include "auth/secrets.h"
#include "handlers/handlers.h"
#include "handlers/request_parsing.h"
#include "handlers/responses.h"
#include "render/desk.h"

namespace verdict::handlers {

namespace {

constexpr int kLogPageSize = 50;

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
  res.set_header("Cache-Control", "no-store");
  if (signed_in_editor(app, req)) return see_other(res, "/admin");
  desk::SignInForm form;
  form.next = desk_path_or_front(req.get_param_value("next"));
  send_html(res, desk::sign_in(app.views, app.store.site_copy(), form));
}

void sign_in(App &app, const Request &req, Response &res) {
  res.set_header("Cache-Control", "no-store");
  const auto form = parse_form(req.body, {"email", "password", "next"});
  if (!form.ok()) return bad_form(app, res, form.error);
  desk::SignInForm again{field_of(form, "email"), desk_path_or_front(field_of(form, "next")), ""};
  const auto client = client_of(app, req);
  const auto show_again = [&](int status, std::string problem) {
    again.problem = std::move(problem);
    send_html(res, desk::sign_in(app.views, app.store.site_copy(), again), status);
  };
  if (const auto wait = app.sign_in_throttle.wait(client, again.email); wait.count() > 0) {
    res.set_header("Retry-After", std::to_string(wait.count()));
    return show_again(429, "Too many failed sign-ins. Try again in " +
                               std::to_string((wait.count() + 59) / 60) + " minutes.");
  }
  // An unknown address is checked against a hash too, so both answers take as long.
  const auto editor =
      is_valid_email(again.email) ? app.store.editor_by_email(again.email) : std::nullopt;
  const auto &hash = editor ? editor->password_hash : auth::hash_matching_nothing();
  if (!auth::password_matches(hash, field_of(form, "password")) || !editor) {
    app.sign_in_throttle.failed(client, again.email);
    return show_again(401, "That email address and password do not match an editor.");
  }
  app.sign_in_throttle.succeeded(again.email);
  if (auth::needs_rehash(editor->password_hash))
    app.store.set_editor_password(editor->email, auth::hash_password(field_of(form, "password")));
  start_editor_session(app, req, res, *editor);
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
  const auto number = requested_page(req);
  if (!number)
    return send_error(app, res, 400, "Not a page number",
                      "The page parameter must be a whole number from 1, like ?page=2.");
  send_html(res, desk::edit_log(app.views, app.store.site_copy(), bar_for(session, "log"),
                                app.store.edit_log({*number, kLogPageSize})));
}

// Categories ------------------------------------------------------------------------------

void show_categories(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto saved = req.get_param_value("saved");
  send_html(res, desk::categories(app.views, app.store.site_copy(), bar_for(session, "categories"),
                                  app.store.categories_with_tool_counts(),
                                  saved.empty() ? "" : "Saved the category " + saved + "."));
}

void new_category(App &app, const Request &, Response &res, const EditorSession &session) {
  send_html(res, desk::category_form(app.views, app.store.site_copy(),
                                     bar_for(session, "categories"), {}));
}

void edit_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  const std::string slug = req.matches[1];
  const auto category = app.store.category(slug);
  if (!category)
    return send_error(app, res, 404, "Not found", "There is no category at this address.");
  send_html(res, desk::category_form(app.views, app.store.site_copy(),
                                     bar_for(session, "categories"), {slug, *category, {}, ""}));
}

// POST /admin/categories (new) and /admin/categories/:slug (edit)
//   name, slug   REQUIRED, by the content file's rules
void save_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  const std::string editing = req.matches.size() > 1 ? std::string(req.matches[1]) : "";
  const auto form = parse_form(req.body, {"csrf", "name", "slug"});
  if (!form.ok()) return bad_form(app, res, form.error);
  desk::CategoryForm typed{editing, {field_of(form, "slug"), field_of(form, "name")}, {}, ""};
  typed.faults = category_faults(typed.values);
  const auto show_again = [&](int status) {
    send_html(res,
              desk::category_form(app.views, app.store.site_copy(), bar_for(session, "categories"),
                                  typed),
              status);
  };
  if (!typed.faults.empty()) return show_again(400);
  try {
    if (editing.empty())
      app.store.create_category(typed.values, session.email);
    else
      app.store.update_category(editing, typed.values, session.email);
  } catch (const AlreadyExists &e) {
    typed.faults.emplace_back("slug", "is taken: another category has this address");
    return show_again(409);
  } catch (const NotFound &) {
    return send_error(app, res, 404, "Not found", "There is no category at this address.");
  }
  show_change_now(app);
  see_other(res, "/admin/categories?saved=" + typed.values.slug);
}

void confirm_category_deletion(App &app, const Request &req, Response &res,
                               const EditorSession &session) {
  const std::string slug = req.matches[1];
  const auto category = app.store.category(slug);
  if (!category)
    return send_error(app, res, 404, "Not found", "There is no category at this address.");
  send_html(res, desk::confirm(app.views, app.store.site_copy(), bar_for(session, "categories"),
                               {"Category", "Delete " + category->name,
                                "The category " + category->name +
                                    " will be deleted. The edit log keeps what it was.",
                                "/admin/categories/" + slug + "/delete", "/admin/categories", ""}));
}

void delete_category(App &app, const Request &req, Response &res, const EditorSession &session) {
  const std::string slug = req.matches[1];
  const auto form = parse_form(req.body, {"csrf"});
  if (!form.ok()) return bad_form(app, res, form.error);
  const auto category = app.store.category(slug);
  if (!category)
    return send_error(app, res, 404, "Not found", "There is no category at this address.");
  try {
    app.store.delete_category(slug, session.email);
  } catch (const Refused &e) {
    return send_html(res,
                     desk::confirm(app.views, app.store.site_copy(), bar_for(session, "categories"),
                                   {"Category", "Delete " + category->name,
                                    "The category " + category->name + " cannot be deleted yet.",
                                    "/admin/categories/" + slug + "/delete", "/admin/categories",
                                    std::string(e.what()) + "."}),
                     409);
  }
  show_change_now(app);
  see_other(res, "/admin/categories");
}

} // namespace verdict::handlers
