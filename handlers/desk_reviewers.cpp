// The editor's desk's reviewers, the panel's personas: their list in panel order, and the
// section table (handlers/desk_forms.h) that gives their form, checks and store calls.
#include "handlers/desk_forms.h"

namespace verdict::handlers {

namespace {

const Section<ContentReviewer> &reviewers() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentReviewer> section{
      "reviewer",
      "Reviewers",
      "/admin/reviewers",
      [](StoreReads &) {
        return std::vector<desk::FormField>{
            {"name", "Name"},
            kSlugField,
            {"lens", "Lens", Kind::text, true,
             "What this persona weighs first, e.g. \"ships fast, fixes later\"."},
            {"bio", "About", Kind::text, false}};
      },
      [](const Values &v) {
        return ContentReviewer{slug_typed_or_named(v), field_of(v, "name"), field_of(v, "lens"),
                               field_of(v, "bio")};
      },
      reviewer_faults,
      [](StoreReads &, const ContentReviewer &r) { return r.name; },
      [](StoreReads &site, const std::string &key) { return site.reviewer_content(key); },
      [](const ContentReviewer &r, const std::string &editor) -> Write {
        return CreateReviewer{r, editor};
      },
      [](const std::string &key, const ContentReviewer &r, const std::string &editor) -> Write {
        return UpdateReviewer{key, r, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        return DeleteReviewer{key, editor};
      },
      [](StoreReads &site, const ContentReviewer &r) {
        const auto reviewer = site.reviewer_by_slug(r.slug);
        return reviewer ? ", with their " + std::to_string(reviewer->verdicts.total) + " reviews"
                        : std::string();
      },
      [](const ContentReviewer &r) { return r.slug; },
      {},
      "",
      "",
      [](StoreReads &site, const ContentReviewer &r, const std::string &editing) {
        std::vector<std::string> namesakes;
        for (const auto &namesake : site.reviewers())
          if (namesake.name == r.name && namesake.slug != editing)
            namesakes.push_back(namesake.slug + ": " + namesake.lens);
        return namesakes;
      },
      "Readers tell reviewers apart by name: if this is another persona, give it a name of its "
      "own, or save again to keep this one."};
  return section;
}

} // namespace

const Section<ContentReviewer> &reviewer_section() {
  return reviewers();
}

// GET /admin/reviewers — the panel, in panel order.
void show_reviewers_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                            const UrlCaptures &, const EditorSession &session) {
  desk::ItemList list;
  list.plural = "Reviewers";
  list.list_path = "/admin/reviewers";
  list.new_label = "New reviewer";
  list.columns = {"Lens", "Reviews"};
  list.saved = saved_note(site, req, reviewers());
  for (const auto &reviewer : site.reviewers())
    list.rows.push_back(
        {reviewer.slug, reviewer.name, {reviewer.lens, std::to_string(reviewer.verdicts.total)}});
  send_html(res, desk::item_list(app.views, site.site_copy(), bar_for(session, "reviewer"), list));
}

// GET /admin/reviewers/new, /admin/reviewers/:slug; POST /admin/reviewers (create),
// /admin/reviewers/:slug (save)   name, slug, lens, bio   csrf
// GET and POST /admin/reviewers/:slug/delete   csrf
void new_reviewer(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
                  const EditorSession &session) {
  show_new_item(app, site, res, session, reviewers());
}
void edit_reviewer(App &app, StoreReads &site, const Request &, Response &res,
                   const UrlCaptures &url, const EditorSession &session) {
  show_item(app, site, res, url, session, reviewers());
}
void save_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session) {
  save_item(app, site, req, res, url, session, reviewers());
}
void confirm_reviewer_deletion(App &app, StoreReads &site, const Request &, Response &res,
                               const UrlCaptures &url, const EditorSession &session) {
  confirm_item_deletion(app, site, res, url, session, reviewers());
}
void delete_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session) {
  delete_item(app, site, req, res, url, session, reviewers());
}

} // namespace verdict::handlers
