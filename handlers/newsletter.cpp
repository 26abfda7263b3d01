// The weekly digest's sign-up and leaving: the form, the confirmation link (double opt-in),
// the page shown after signing up, and the unsubscribe link every mail carries, which also
// takes the mail client's one-click POST (RFC 8058). Mails themselves are sent elsewhere (the
// server's confirmation mailer, `verdict digest`); nothing here waits for an SMTP server.
//
// Nothing a visitor is told reveals whether an address is on the list: a confirmed address,
// or one that left, that signs up again gets the same answer as a new one.
#include "auth/mail_tokens.h"
#include "auth/secrets.h"
#include "domain/counting.h"
#include "domain/subscription.h"
#include "handlers/handlers.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "render/pages.h"
#include "transport/cache_policy.h"

namespace verdict::handlers {

namespace {

// How long /subscribed opens after the sign-up that led there.
constexpr int64_t kMarkerSeconds = 10 * 60;

void no_store(Response &res) {
  set_cache_policy(res, CachePolicy::never_kept);
}

// A page about one sign-up, never kept by any cache.
void send_private_html(Response &res, std::string html, int status = 200) {
  send_html(res, std::move(html), status);
  no_store(res);
}

void send_message(App &app, StoreReads &site, Response &res, int status, const std::string &heading,
                  const std::string &text, bool offer_the_form) {
  const auto copy = site.site_copy();
  send_private_html(res,
                    offer_the_form
                        ? pages::message(app.views, copy, copy.newsletter_title, heading, text,
                                         "/subscribe", "Subscribe again")
                        : pages::message(app.views, copy, copy.newsletter_title, heading, text),
                    status);
}

// The subscriber an unsubscribe link names, when its token is the one made for them.
std::optional<Subscriber> subscriber_of_token(App &app, StoreReads &site,
                                              const std::string &token) {
  const auto id = auth::unsubscribe_token_id(token);
  if (!id) return std::nullopt;
  auto subscriber = site.subscriber(*id);
  if (!subscriber || !auth::unsubscribe_token_matches(app.newsletter.unsubscribe_key, token,
                                                      subscriber->id, subscriber->email))
    return std::nullopt;
  return subscriber;
}

// The value without the spaces and line ends a sender may leave after it.
std::string_view without_trailing_space(std::string_view value) {
  while (!value.empty() && std::string_view(" \t\r\n").find(value.back()) != std::string_view::npos)
    value.remove_suffix(1);
  return value;
}

void unknown_unsubscribe_link(App &app, StoreReads &site, Response &res) {
  send_message(app, site, res, 404, "This unsubscribe link is not known",
               "It may have been copied only in part, or the address was erased from the list "
               "already. Nothing was changed.",
               false);
}

void say_unsubscribed(App &app, StoreReads &site, Response &res, const std::string &token) {
  const auto copy = site.site_copy();
  send_private_html(res, pages::unsubscribed(app.views, copy, "You are unsubscribed",
                                             "No more " + copy.newsletter_title +
                                                 " will be sent to this address. If that was a "
                                                 "mistake, one click undoes it.",
                                             token));
}

} // namespace

// POST /subscribe — ask for the weekly digest: the address is kept as pending and owed a
// confirmation mail, within the rations of domain/subscription.h. Answers 303 to /subscribed
// with a marker that only a sign-up gets.
//   email=…   REQUIRED
void subscribe(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &) {
  const auto form = parse_form(req.body, {"email"});
  if (!form.ok()) return send_error(app, res, 400, "That request could not be used", form.error);
  const auto email = form.fields.count("email") ? form.fields.at("email") : "";
  if (!is_valid_email(email))
    return send_private_html(res,
                             pages::subscribe(app.views, site.site_copy(), email,
                                              "That email address does not look right: it needs "
                                              "one @ and a domain such as example.com."),
                             400);
  const auto now = app.clock.now();
  const auto network = network_of(client_of(app, req));
  // The rations are taken before the write, so every node of a cluster applies one answer.
  const auto ration = app.confirmation_rations.take(email, network, now);
  const auto requested = app.writes->submit(RequestSubscription{email, ration.mail()});
  if (!requested.done()) return write_not_taken(app, res, "a sign-up: " + requested.words);
  const auto outcome = *requested.made_by<RequestSubscription>();
  // Held back by the sender's own network's share: they are told so, and when to try again.
  if (outcome == SubscriptionRequest::mail_rationed && ration.held_by_senders_share()) {
    const auto domain = ration.held_by == auth::ConfirmationRations::HeldBy::domain_from_network
                            ? mailbox_domain_of(email)
                            : std::string();
    res.set_header("Retry-After", std::to_string(std::max<int64_t>(ration.room_at - now, 1)));
    return send_private_html(res,
                             pages::subscribe(app.views, site.site_copy(), email,
                                              senders_share_used_text(domain, now, ration.room_at)),
                             429);
  }
  // Otherwise the page below is the same whatever happened, a mailbox's ration included: the
  // form never tells who is on the list, nor how much mail an address was sent.
  if (outcome == SubscriptionRequest::mail_queued) app.newsletter.mail_queued();
  see_other(res, "/subscribed?m=" +
                     auth::subscribed_marker(app.newsletter.marker_key, now + kMarkerSeconds));
}

// GET /subscribed?m=MARKER — where a sign-up lands; without a fresh marker from one, there is
// nothing to show.
void show_subscribed(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &) {
  if (!auth::subscribed_marker_holds(app.newsletter.marker_key, req.get_param_value("m"),
                                     app.clock.now()))
    return send_message(app, site, res, 404, "Nothing to show here",
                        "This page is shown right after signing up for the weekly digest.", true);
  if (!app.newsletter.sends_mail)
    return send_message(app, site, res, 200, "Kept, not confirmed yet",
                        "This site cannot send mail yet, so no confirmation mail went out. The "
                        "address is kept as pending: the digest goes only to confirmed addresses, "
                        "and the confirmation mail is sent once the site's mail is set up.",
                        false);
  send_message(app, site, res, 200, "Check your inbox",
               "Unless this address is on the list already, was sent a confirmation mail lately, "
               "or asked never to be mailed again, a confirmation mail is on its way to it. The "
               "digest starts once you follow its "
               "link, which works for " +
                   confirmation_lifetime_text() +
                   ". Every issue has a one-click unsubscribe. An address that unsubscribed "
                   "comes back through the undo button its unsubscribe link offers.",
               false);
}

namespace {

// The page for a confirmation link that cannot confirm.
void confirmation_refused(App &app, StoreReads &site, Response &res, ConfirmationCheck check) {
  switch (check) {
  case ConfirmationCheck::used:
    return send_message(app, site, res, 410, "This link was used already",
                        "The address is confirmed: the weekly digest is on its way each week.",
                        false);
  case ConfirmationCheck::expired:
    return send_message(app, site, res, 410, "This link has expired",
                        "Confirmation links work for " + confirmation_lifetime_text() +
                            ". Sign up again and a new one is sent.",
                        true);
  default:
    return send_message(app, site, res, 404, "This confirmation link is not known",
                        "It may have been copied only in part, or a newer mail replaced it. Sign "
                        "up again and a new one is sent.",
                        true);
  }
}

} // namespace

// GET /confirm/:token — the confirmation mail's link: a page whose one button confirms.
void show_confirmation(App &app, StoreReads &site, const Request &, Response &res,
                       const UrlCaptures &url) {
  const std::string &token = url[0];
  const auto check = site.confirmation(auth::secret_hash(token), app.clock.now());
  if (check != ConfirmationCheck::confirmable) return confirmation_refused(app, site, res, check);
  send_private_html(res, pages::confirm(app.views, site.site_copy(), token));
}

// POST /confirm/:token — confirms the address. Answered with the page itself rather than a
// redirect: the outcome belongs to this one request, and sending it again only hears that
// the link was used.
void confirm_subscription(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url) {
  const std::string &token = url[0];
  const auto form = parse_form(req.body, {});
  if (!form.ok()) return send_error(app, res, 400, "That request could not be used", form.error);
  const auto confirmed = app.writes->submit(ConfirmSubscription{auth::secret_hash(token)});
  if (!confirmed.done()) return write_not_taken(app, res, "a confirmation: " + confirmed.words);
  const auto check = *confirmed.made_by<ConfirmSubscription>();
  if (check != ConfirmationCheck::confirmable) return confirmation_refused(app, site, res, check);
  send_message(app, site, res, 200, "You're on the list",
               "The address is confirmed. The next weekly digest will reach your inbox; every "
               "issue has a one-click unsubscribe.",
               false);
}

// GET /unsubscribe/:token — the link in every mail: unsubscribes in this one request. Mail
// scanners open links too, so the page offers to undo it; a HEAD changes nothing.
void unsubscribe_by_link(App &app, StoreReads &site, const Request &req, Response &res,
                         const UrlCaptures &url) {
  const std::string &token = url[0];
  const auto subscriber = subscriber_of_token(app, site, token);
  if (!subscriber) return unknown_unsubscribe_link(app, site, res);
  if (req.method != "HEAD")
    if (const auto left = app.writes->submit(Unsubscribe{subscriber->id}); !left.done())
      return write_not_taken(app, res, "an unsubscription: " + left.words);
  say_unsubscribed(app, site, res, token);
}

// POST /unsubscribe/:token — RFC 8058's one-click unsubscribe, sent by the reader's mail
// program from List-Unsubscribe; the token in the address is the authority.
//   List-Unsubscribe=One-Click   REQUIRED (as a form or multipart/form-data)
void unsubscribe_one_click(App &app, StoreReads &site, const Request &req, Response &res,
                           const UrlCaptures &url) {
  const std::string &token = url[0];
  // Read as a form, as mail programs send it: other fields and a line end after the value
  // (some senders end the body with CRLF) do not matter, only List-Unsubscribe's value.
  const auto value = req.has_file("List-Unsubscribe")
                         ? req.get_file_value("List-Unsubscribe").content
                         : form_field(req.body, "List-Unsubscribe");
  const bool one_click = without_trailing_space(value) == "One-Click";
  if (!one_click)
    return send_error(app, res, 400, "That request could not be used",
                      "This address takes the one-click unsubscribe of RFC 8058: a POST of "
                      "List-Unsubscribe=One-Click. To unsubscribe in a browser, open the link.");
  const auto subscriber = subscriber_of_token(app, site, std::string(token));
  if (!subscriber) return unknown_unsubscribe_link(app, site, res);
  if (const auto left = app.writes->submit(Unsubscribe{subscriber->id}); !left.done())
    return write_not_taken(app, res, "an unsubscription: " + left.words);
  say_unsubscribed(app, site, res, std::string(token));
}

// POST /unsubscribe/:token/undo — the unsubscribed page's undo button: the address gets back
// the status it had. One that was confirmed gets the digest again: following the mail's link
// and pressing the button proves the reader holds the mailbox, which is all a confirmation
// proves. One that never confirmed waits for confirmation again; the token only says a mail
// went to the address, not that its owner asked for the digest.
void undo_unsubscribe(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url) {
  const std::string &token = url[0];
  const auto form = parse_form(req.body, {});
  if (!form.ok()) return send_error(app, res, 400, "That request could not be used", form.error);
  const auto subscriber = subscriber_of_token(app, site, std::string(token));
  if (!subscriber) return unknown_unsubscribe_link(app, site, res);
  const auto undone = app.writes->submit(Resubscribe{subscriber->id});
  if (!undone.done()) return write_not_taken(app, res, "an undone unsubscription: " + undone.words);
  switch (*undone.made_by<Resubscribe>()) {
  case Resubscription::confirmed:
    return send_private_html(res, pages::unsubscribed(app.views, site.site_copy(),
                                                      "You're back on the list",
                                                      "The weekly digest will reach this address "
                                                      "again. Every issue has a one-click "
                                                      "unsubscribe."));
  case Resubscription::pending:
    return send_message(app, site, res, 200, "Waiting for confirmation again",
                        "This address had not confirmed its subscription, so it is back to "
                        "waiting for confirmation: no digest goes to it until it does. Sign up "
                        "again for a new confirmation mail.",
                        true);
  case Resubscription::unchanged:
    return send_message(app, site, res, 200, "Nothing to undo",
                        "This address is not unsubscribed, so nothing was changed.", false);
  }
}

} // namespace verdict::handlers
