// The editor's desk's comparisons of two tools: their list, drafts first, the section table
// (handlers/desk_forms.h) that gives their form, checks and store calls, and the previews of a
// comparison's page as readers would see it, with its text as saved or as the form holds it.
#include "domain/dates.h"
#include "domain/slugs.h"
#include "handlers/desk_forms.h"
#include "middleware/sessions.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

// A comparison as the desk names it: "Cursor Background Agent vs Codestral 2.1".
std::string comparison_name(StoreReads &site, const ContentComparison &comparison) {
  return tool_name(site, comparison.a) + " vs " + tool_name(site, comparison.b);
}

const Section<ContentComparison> &comparisons() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentComparison> section{
      "comparison",
      "Comparisons",
      "/admin/comparisons",
      [](StoreReads &site) {
        return std::vector<desk::FormField>{
            tool_field(site, "a", "First tool"),
            tool_field(site, "b", "Second tool"),
            {"published_on", "Published on", Kind::date, false,
             "Empty keeps it a draft, unlisted; a date publishes it on the front page."},
            {"intro", "Intro", Kind::text, false, "What the comparison is about."},
            {"bottom_line", "Bottom line", Kind::text, false,
             "The editor's answer to \"which one should you ship with?\", shown first on the "
             "page: one line per tool, \"Ship with … if …\". Needed to publish (a draft can "
             "wait); at most 2000 characters. Preview shows it as readers will."}};
      },
      [](const Values &v) {
        return ContentComparison{field_of(v, "a"), field_of(v, "b"), field_of(v, "published_on"),
                                 field_of(v, "intro"), field_of(v, "bottom_line")};
      },
      comparison_faults,
      comparison_name,
      [](StoreReads &site, const std::string &key) { return site.comparison_content(key); },
      [](const ContentComparison &c, const std::string &editor) -> Write {
        return CreateComparison{c, editor};
      },
      [](const std::string &key, const ContentComparison &c, const std::string &editor) -> Write {
        return UpdateComparison{key, c, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        return DeleteComparison{key, editor};
      },
      [](StoreReads &, const ContentComparison &) {
        return std::string(": its page stays, as a pair the editor has not picked");
      },
      [](const ContentComparison &c) { return pair_slug(c.a, c.b); },
      [](const ContentComparison &c) {
        return "/admin/comparisons/" + pair_slug(c.a, c.b) + "/preview";
      },
      "A pair has one comparison, in either order: edit that one from the list, or pick "
      "another pair.",
      "/admin/preview/comparison"};
  return section;
}

} // namespace

const Section<ContentComparison> &comparison_section() {
  return comparisons();
}

// GET /admin/comparisons — drafts first, then the published, newest first.   page=N
//   q=words to narrow to
void show_comparisons_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                              const UrlCaptures &, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  const auto filter = list_filter(app, req, res);
  if (!filter) return;
  const auto page = site.comparisons_at_desk(*span, *filter);
  desk::ItemList list;
  list.plural = "Comparisons";
  list.list_path = "/admin/comparisons";
  list.find_label = "Find comparisons by either tool's name or words of the intro or bottom line";
  list.filter = *filter;
  list.new_label = "New comparison";
  list.columns = {"Published", "Bottom line"};
  list.saved = saved_note(site, req, comparisons());
  list.pagination = pages::pagination(app.views, desk::list_address(list.list_path, *filter),
                                      page.number, page.has_next);
  for (const auto &c : page.items)
    list.rows.push_back({pair_slug(c.a, c.b),
                         comparison_name(site, c),
                         {c.published_on.empty() ? "Draft" : c.published_on,
                          c.bottom_line.empty() ? "None yet" : "Written"},
                         comparisons().preview_path(c)});
  send_html(res,
            desk::item_list(app.views, site.site_copy(), bar_for(session, "comparison"), list));
}

// GET /admin/comparisons/new, /admin/comparisons/:pair; POST /admin/comparisons (create),
// /admin/comparisons/:pair (save)   a, b, published_on, intro, bottom_line   csrf
// GET and POST /admin/comparisons/:pair/delete   csrf
void new_comparison(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
                    const EditorSession &session) {
  show_new_item(app, site, res, session, comparisons());
}
void edit_comparison(App &app, StoreReads &site, const Request &, Response &res,
                     const UrlCaptures &url, const EditorSession &session) {
  show_item(app, site, res, url, session, comparisons());
}
void save_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session) {
  save_item(app, site, req, res, url, session, comparisons());
}
void confirm_comparison_deletion(App &app, StoreReads &site, const Request &, Response &res,
                                 const UrlCaptures &url, const EditorSession &session) {
  confirm_item_deletion(app, site, res, url, session, comparisons());
}
void delete_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url, const EditorSession &session) {
  delete_item(app, site, req, res, url, session, comparisons());
}

namespace {

// The banner above a comparison's preview: where its text stands for readers today.
DeskPreview preview_banner(const Comparison &c, bool unsaved, const std::string &back) {
  DeskPreview preview;
  if (c.published_on.empty()) {
    preview.banner = "Draft — not published.";
    preview.note = "Readers see this pair without its intro, bottom line or editor's pick until "
                   "it has a publication date.";
  } else if (!c.published) {
    preview.banner = "Scheduled — not published until " + c.published_on + ".";
    preview.note = "Until that day readers see this pair without its editorial text.";
  } else {
    preview.banner = "Published.";
    preview.note = "Readers see this page now.";
  }
  if (unsaved) preview.note += " This is the form's text, not saved yet: save the form to keep it.";
  preview.back = back;
  return preview;
}

void send_preview(App &app, StoreReads &site, Response &res, ComparisonDetail &detail, bool unsaved,
                  const std::string &back) {
  auto &c = detail.comparison;
  const auto today = app.today();
  c.published = readers_see_on(c.published_on, today);
  send_html(res, pages::comparison(app.views, detail, site.site_copy(), today,
                                   vote_tokens_for(app, c), preview_banner(c, unsaved, back)));
}

} // namespace

// GET /admin/comparisons/:pair/preview — the comparison's page as readers will see it with its
// text as saved, under a banner saying whether they see it yet, with nobody's votes pressed.
void preview_comparison(App &app, StoreReads &site, const Request &, Response &res,
                        const UrlCaptures &url, const EditorSession &) {
  const std::string &pair = url[0];
  const auto record = site.comparison_content(pair);
  auto detail = record ? site.comparison_detail(pair, {}, Drafts::shown) : std::nullopt;
  if (!detail)
    return send_error(app, res, 404, "Not found", "There is no comparison at this address.");
  send_preview(app, site, res, *detail, false, "/admin/comparisons/" + pair);
}

// POST /admin/preview/comparison — the same for the comparison form's fields as they are in
// the form, saved or not (its Preview button opens it beside the form). Nothing is written.
//   a, b, published_on, intro, bottom_line   csrf
void preview_unsaved_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                                const UrlCaptures &, const EditorSession &session) {
  const auto &section = comparisons();
  const auto sent = sent_values(app, site, req, res, section);
  if (!sent) return;
  const auto item = section.from_values(sent->values);
  auto form = form_for(site, section, "", sent->values);
  form.preview_action = section.preview_action;
  form.faults = faults_in(section, item, *sent);
  if (!form.faults.empty()) {
    form.problem = "Nothing to preview yet: the form has faults, shown beside each field.";
    return send_html(
        res, desk::item_form(app.views, site.site_copy(), bar_for(session, section.noun), form),
        400);
  }
  auto detail = site.comparison_detail(pair_slug(item.a, item.b), {}, Drafts::shown);
  if (!detail)
    return send_error(app, res, 404, "Not found", "One of the two tools is not on the site.");
  detail->comparison.intro = item.intro;
  detail->comparison.bottom_line = item.bottom_line;
  detail->comparison.published_on = item.published_on;
  send_preview(app, site, res, *detail, true, section.list_path);
}

} // namespace verdict::handlers
