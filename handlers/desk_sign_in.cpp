// The editor's desk's door and front page: signing in (slowed after failures by
// auth/sign_in_throttle.h), signing out, and the desk's home with its counts and latest changes.
#include <chrono>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "handlers/desk_forms.h"
#include "middleware/request_reading.h"
#include "middleware/sessions.h"
#include "transport/cache_policy.h"

namespace verdict::handlers {

namespace {

// Where sign-in may send an editor afterwards: a desk page, never anywhere else.
std::string desk_path_or_front(const std::string &path) {
  return path.starts_with("/admin/") && is_local_return_path(path) ? path : "/admin";
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

} // namespace

// GET /admin/login — the sign-in form, or the desk for an editor already signed in.
//   next=/admin/…   where to go once signed in
void show_sign_in(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::never_kept);
  if (signed_in_editor(app, site, req)) return see_other(res, "/admin");
  desk::SignInForm form;
  form.next = desk_path_or_front(req.get_param_value("next"));
  send_html(res, desk::sign_in(app.views, site.site_copy(), form));
}

// POST /admin/login — sign an editor in (auth/sign_in_throttle.h slows failures).
//   email=…   password=…   next=/admin/…   (a known-device cookie skips the account's limits)
void sign_in(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &) {
  set_cache_policy(res, CachePolicy::never_kept);
  const auto form = parse_form(req.body, {"email", "password", "next"});
  if (!form.ok()) return bad_form(app, res, form.error);
  desk::SignInForm again{field_of(form.fields, "email"),
                         desk_path_or_front(field_of(form.fields, "next")), ""};
  const auto network = network_of(client_of(app, req));
  auto device = known_device_from_cookie(req.get_header_value("Cookie"));
  if (!auth::known_device_token_holds(app.known_device_key, device, again.email, app.clock.now()))
    device.clear();
  const auto show_again = [&](int status, std::string problem) {
    again.problem = std::move(problem);
    send_html(res, desk::sign_in(app.views, site.site_copy(), again), status);
  };
  // Charged as a failure before the password is checked, so parallel guesses cannot all
  // pass the limit while each is being checked.
  const auto charge = app.sign_in_throttle.charge(network, again.email, device);
  if (!charge.charged()) {
    res.set_header("Retry-After", std::to_string(charge.wait.seconds.count()));
    return show_again(429, throttled_message(charge.wait.held_by, charge.wait.seconds));
  }
  if (!app.password_checks.try_acquire_for(std::chrono::seconds(2))) {
    app.sign_in_throttle.take_back(charge, network, again.email, device);
    res.set_header("Retry-After", "5");
    return show_again(429, "Too many sign-ins are being checked at this moment, so yours was "
                           "not: try again in a few seconds.");
  }
  struct Release {
    std::counting_semaphore<64> &slots;
    ~Release() { slots.release(); }
  } release{app.password_checks};
  // An unknown address is checked against a hash too, so both answers take as long.
  const auto editor =
      is_valid_email(again.email) ? site.editor_by_email(again.email) : std::nullopt;
  const auto &hash = editor ? editor->password_hash : auth::hash_matching_nothing();
  if (!auth::password_matches(hash, field_of(form.fields, "password")) || !editor) {
    app.sign_in_throttle.charged_failed(network, again.email, device);
    return show_again(401, "That email address and password do not match an editor.");
  }
  app.sign_in_throttle.charged_succeeded(charge, network, again.email, device);
  // A stronger hash when the rules grew: the sign-in goes on whether or not it was kept.
  if (auth::needs_rehash(editor->password_hash))
    (void)app.writes->submit(
        SetEditorPassword{editor->email, auth::hash_password(field_of(form.fields, "password"))});
  if (const auto started = start_editor_session(app, req, res, *editor); !started.done())
    return write_not_taken(app, res, "a desk session: " + started.words);
  remember_known_device(app, req, res, *editor);
  see_other(res, again.next);
}

// POST /admin/logout — end this browser's session.   csrf
void sign_out(App &app, StoreReads &, const Request &req, Response &res, const UrlCaptures &,
              const EditorSession &) {
  if (const auto ended = end_editor_session(app, req, res); !ended.done())
    return write_not_taken(app, res, "a desk session's end: " + ended.words);
  see_other(res, "/admin/login");
}

// GET /admin — the desk's front page: how much of each kind there is, and the latest changes.
void show_desk(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
               const EditorSession &session) {
  send_html(res,
            desk::front(app.views, site.site_copy(), bar_for(session, "desk"), site.desk_counts(),
                        logged_changes(site, site.edit_log({1, 10}).items)));
}

} // namespace verdict::handlers
