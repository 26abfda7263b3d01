// The editor's desk's comparisons of two tools: their list, drafts first, the section table
// (handlers/desk_forms.h) that gives their form, checks and store calls, and the preview of a
// comparison's page as readers will see it once published.
#include "domain/slugs.h"
#include "handlers/desk_forms.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

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
            {"intro", "Intro", Kind::text, false, "What the comparison is about."},
            {"bottom_line", "Bottom line", Kind::text, false,
             "The editor's answer to \"which one should you ship with?\", shown at the top of "
             "the page; at most 2000 characters."}};
      },
      [](const Values &v) {
        return ContentComparison{field_of(v, "a"), field_of(v, "b"), field_of(v, "published_on"),
                                 field_of(v, "intro"), field_of(v, "bottom_line")};
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
      },
      "A pair has one comparison, in either order: edit that one from the list, or pick "
      "another pair."};
  return section;
}

} // namespace

// GET /admin/comparisons — drafts first, then the published, newest first.   page=N
void show_comparisons_at_desk(App &app, const Request &req, Response &res,
                              const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
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
  auto detail = record ? app.store.comparison_detail(pair, {}, Drafts::shown) : std::nullopt;
  if (!detail)
    return send_error(app, res, 404, "Not found", "There is no comparison at this address.");
  detail->comparison.published = true;
  if (detail->comparison.published_on.empty()) detail->comparison.published_on = app.today();
  send_html(res, pages::comparison(app.views, *detail, app.store.site_copy(), app.today(),
                                   vote_tokens_for(app, detail->comparison)));
}

} // namespace verdict::handlers
