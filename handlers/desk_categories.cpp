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
      [](StoreReads &) {
        return std::vector<desk::FormField>{{"name", "Name"}, kSlugField};
      },
      [](const Values &v) {
        return ContentCategory{slug_typed_or_named(v), field_of(v, "name")};
      },
      category_faults,
      [](StoreReads &, const ContentCategory &c) { return c.name; },
      [](StoreReads &site, const std::string &key) { return site.category(key); },
      [](const ContentCategory &c, const std::string &editor) -> Write {
        return CreateCategory{c, editor};
      },
      [](const std::string &key, const ContentCategory &c, const std::string &editor) -> Write {
        return UpdateCategory{key, c, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        return DeleteCategory{key, editor};
      },
      [](StoreReads &, const ContentCategory &) { return std::string(); },
      [](const ContentCategory &c) { return c.slug; },
      {},
      "",
      "",
      [](StoreReads &site, const ContentCategory &c, const std::string &editing) {
        std::vector<std::string> namesakes;
        for (const auto &listing : site.categories_with_tool_counts())
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
void show_categories(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &, const EditorSession &session) {
  desk::ItemList list;
  list.plural = "Categories";
  list.list_path = "/admin/categories";
  list.new_label = "New category";
  list.columns = {"Address", "Tools"};
  list.saved = saved_note(site, req, categories());
  for (const auto &listing : site.categories_with_tool_counts())
    list.rows.push_back({listing.category.slug,
                         listing.category.name,
                         {listing.category.slug, std::to_string(listing.tools)}});
  send_html(res, desk::item_list(app.views, site.site_copy(), bar_for(session, "category"), list));
}

// GET /admin/categories/new, /admin/categories/:slug; POST /admin/categories (create),
// /admin/categories/:slug (save)   name, slug   csrf
// GET and POST /admin/categories/:slug/delete   csrf
void new_category(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
                  const EditorSession &session) {
  show_new_item(app, site, res, session, categories());
}
void edit_category(App &app, StoreReads &site, const Request &, Response &res,
                   const UrlCaptures &url, const EditorSession &session) {
  show_item(app, site, res, url, session, categories());
}
void save_category(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session) {
  save_item(app, site, req, res, url, session, categories());
}
void confirm_category_deletion(App &app, StoreReads &site, const Request &, Response &res,
                               const UrlCaptures &url, const EditorSession &session) {
  confirm_item_deletion(app, site, res, url, session, categories());
}
void delete_category(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session) {
  delete_item(app, site, req, res, url, session, categories());
}

} // namespace verdict::handlers
