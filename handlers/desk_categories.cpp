// The editor's desk's categories: their list with each one's tool count, and the section table
// (handlers/desk_forms.h) that gives their forms, checks and store calls.
#include "handlers/desk_forms.h"

namespace verdict::handlers {

namespace {

const Section<ContentCategory> &categories() {
  static const Section<ContentCategory> section{
      "category",
      "Categories",
      "/admin/categories",
      [](App &) {
        return std::vector<desk::FormField>{{"name", "Name"}, kSlugField};
      },
      [](const Values &v) {
        return ContentCategory{slug_typed_or_named(v), field_of(v, "name")};
      },
      category_faults,
      [](App &, const ContentCategory &c) { return c.name; },
      [](App &app, const std::string &key) { return app.store.category(key); },
      [](const ContentCategory &c, const std::string &editor) -> Write {
        return CreateCategory{c, editor};
      },
      [](const std::string &key, const ContentCategory &c, const std::string &editor) -> Write {
        return UpdateCategory{key, c, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        return DeleteCategory{key, editor};
      },
      [](App &, const ContentCategory &) { return std::string(); },
      [](const ContentCategory &c) { return c.slug; },
      {},
      "",
      "",
      [](App &app, const ContentCategory &c, const std::string &editing) {
        std::vector<std::string> namesakes;
        for (const auto &listing : app.store.categories_with_tool_counts())
          if (listing.category.name == c.name && listing.category.slug != editing)
            namesakes.push_back(listing.category.slug);
        return namesakes;
      },
      "Readers tell categories apart by name: give this one a name of its own, or save again "
      "to keep this one."};
  return section;
}

} // namespace

const Section<ContentCategory> &category_section() {
  return categories();
}

// GET /admin/categories — every category, with how many tools each holds.
void show_categories(App &app, const Request &req, Response &res, const UrlCaptures &,
                     const EditorSession &session) {
  desk::ItemList list;
  list.plural = "Categories";
  list.list_path = "/admin/categories";
  list.new_label = "New category";
  list.columns = {"Address", "Tools"};
  list.saved = saved_note(app, req, categories());
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
void new_category(App &app, const Request &, Response &res, const UrlCaptures &,
                  const EditorSession &session) {
  show_new_item(app, res, session, categories());
}
void edit_category(App &app, const Request &, Response &res, const UrlCaptures &url,
                   const EditorSession &session) {
  show_item(app, res, url, session, categories());
}
void save_category(App &app, const Request &req, Response &res, const UrlCaptures &url,
                   const EditorSession &session) {
  save_item(app, req, res, url, session, categories());
}
void confirm_category_deletion(App &app, const Request &, Response &res, const UrlCaptures &url,
                               const EditorSession &session) {
  confirm_item_deletion(app, res, url, session, categories());
}
void delete_category(App &app, const Request &req, Response &res, const UrlCaptures &url,
                     const EditorSession &session) {
  delete_item(app, req, res, url, session, categories());
}

} // namespace verdict::handlers
