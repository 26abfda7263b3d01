// The editor's desk's subscribers to the weekly digest: their list with the counts by status,
// its export as CSV, and erasing one address (the edit log records that one was erased, not
// which).
#include "domain/csv.h"
#include "handlers/desk_forms.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

// The sign-ups the mail rations turned away (none of them kept), for the list's lead.
std::string held_back_text(const auth::ConfirmationRations::HeldBack &held) {
  if (held.total() == 0) return {};
  return " Since this server started, the confirmation-mail rations turned away " +
         std::to_string(held.total()) + (held.total() == 1 ? " sign-up" : " sign-ups") +
         " (kept nowhere; each was told so or answered as usual): " + std::to_string(held.network) +
         " past their network's hourly share, " + std::to_string(held.domain_from_network) +
         " past their network's share for one domain, " + std::to_string(held.mailbox) +
         " to a mailbox mailed twice that day.";
}

} // namespace

// GET /admin/subscribers — how many, and who, newest first.   page=N   q=words to narrow to
void show_subscribers(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  const auto filter = list_filter(app, req, res);
  if (!filter) return;
  const auto page = site.subscribers(*span, *filter);
  const auto counts = site.subscriber_counts();
  const auto count = counts.total();
  desk::ItemList list;
  list.plural = "Subscribers";
  list.list_path = "/admin/subscribers";
  list.columns = {"Subscribed", "Status"};
  list.saved = req.get_param_value("erased").empty() ? "" : "The address is erased.";
  list.find_label = "Find subscribers by address";
  list.filter = *filter;
  list.pagination = pages::pagination(app.views, desk::list_address(list.list_path, *filter),
                                      page.number, page.has_next);
  list.editable = false;
  list.lead = std::to_string(count) + (count == 1 ? " address is" : " addresses are") +
              " on the weekly digest's list: " + std::to_string(counts.confirmed) +
              " confirmed (they get the digest), " + std::to_string(counts.pending) +
              " waiting for confirmation, " + std::to_string(counts.unsubscribed) +
              " unsubscribed." + held_back_text(app.confirmation_rations.held_back());
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
  send_html(res,
            desk::item_list(app.views, site.site_copy(), bar_for(session, "subscriber"), list));
}

// GET /admin/subscribers.csv — the whole list as a spreadsheet opens it.
void export_subscribers(App &, StoreReads &site, const Request &, Response &res,
                        const UrlCaptures &, const EditorSession &) {
  res.set_content(subscribers_csv(site.all_subscribers()), "text/csv; charset=utf-8");
  res.set_header("Content-Disposition", "attachment; filename=\"subscribers.csv\"");
}

namespace {

std::optional<Subscriber> subscriber_at(App &app, StoreReads &site, Response &res,
                                        const std::string &id) {
  const auto subscriber =
      id.size() <= 18 ? site.subscriber(std::stoll(id)) : std::optional<Subscriber>();
  if (!subscriber)
    send_error(app, res, 404, "Not found", "There is no subscriber at this address.");
  return subscriber;
}

} // namespace

// GET /admin/subscribers/:id/delete — are you sure?
void confirm_subscriber_erasure(App &app, StoreReads &site, const Request &, Response &res,
                                const UrlCaptures &url, const EditorSession &session) {
  const auto subscriber = subscriber_at(app, site, res, url[0]);
  if (!subscriber) return;
  const auto id = std::to_string(subscriber->id);
  send_html(res, desk::confirm(app.views, site.site_copy(), bar_for(session, "subscriber"),
                               {"Erasing a subscriber", "Erase " + subscriber->email,
                                subscriber->email +
                                    " will be taken off the list and forgotten: the edit log "
                                    "records that one address was erased, not which.",
                                "/admin/subscribers/" + id + "/delete", "/admin/subscribers", ""}));
}

// POST /admin/subscribers/:id/delete   csrf
void erase_subscriber(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url, const EditorSession &session) {
  const auto parsed = parse_form(req.body, {"csrf"});
  if (!parsed.ok()) return bad_form(app, res, parsed.error);
  const auto subscriber = subscriber_at(app, site, res, url[0]);
  if (!subscriber) return;
  const auto erased = app.writes->submit(EraseSubscriber{subscriber->id, session.email});
  if (erased.not_taken()) return write_not_taken(app, res, "an erasure: " + erased.words);
  // Erased meanwhile (another tab, another editor) is erased all the same.
  see_other(res, "/admin/subscribers?erased=1");
}

} // namespace verdict::handlers
