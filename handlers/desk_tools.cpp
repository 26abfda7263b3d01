// The editor's desk's tools: their list by name, and the section table (handlers/desk_forms.h)
// that gives their form, checks, store calls and what deleting one takes with it.
#include "domain/dates.h"
#include "domain/numbers.h"
#include "handlers/desk_forms.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

const Section<ContentTool> &tools() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentTool> section{
      "tool",
      "Tools",
      "/admin/tools",
      [](StoreReads &site) {
        desk::FormField category{"category", "Category", Kind::choice};
        for (const auto &listing : site.categories_with_tool_counts())
          category.choices.emplace_back(listing.category.slug, listing.category.name);
        desk::FormField entry{"entry", "Pricing model", Kind::choice};
        for (const auto &kind : kEntryKinds)
          entry.choices.emplace_back(kind, kind);
        return std::vector<desk::FormField>{
            {"name", "Name"},
            kSlugField,
            category,
            {"tagline", "Tagline", Kind::text, true,
             "One line under the name, at most 300 characters."},
            {"description", "Description"},
            entry,
            {"vendor", "Vendor", Kind::text, false},
            {"url", "Website", Kind::text, false, "An http:// or https:// address."},
            {"pricing_notes", "Pricing read", Kind::text, false,
             "What it costs, in the editor's words."},
            {"pricing_checked_on", "Pricing checked on", Kind::date, false,
             "The day the pricing was read; after " + count_phrase(kStaleAfterDays, "day", "days") +
                 " readers are told it may be stale."},
            {"pricing_source", "Pricing source", Kind::text, false,
             "The page the pricing was read from."}};
      },
      [](const Values &v) {
        return ContentTool{slug_typed_or_named(v),       field_of(v, "name"),
                           field_of(v, "category"),      field_of(v, "tagline"),
                           field_of(v, "description"),   field_of(v, "entry"),
                           field_of(v, "vendor"),        field_of(v, "url"),
                           field_of(v, "pricing_notes"), field_of(v, "pricing_checked_on"),
                           field_of(v, "pricing_source")};
      },
      tool_faults,
      [](StoreReads &site, const ContentTool &t) { return tool_said(site, t.name, t.tagline); },
      [](StoreReads &site, const std::string &key) { return site.tool_content(key); },
      [](const ContentTool &t, const std::string &editor) -> Write {
        return CreateTool{t, editor};
      },
      [](const std::string &key, const ContentTool &t, const std::string &editor) -> Write {
        return UpdateTool{key, t, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        return DeleteTool{key, editor};
      },
      [](StoreReads &site, const ContentTool &t) {
        const auto tool = site.tool_by_slug(t.slug);
        if (!tool) return std::string();
        return ", with its " + std::to_string(tool->panel.total) + " panel reviews, " +
               std::to_string(tool->community.total) +
               " reader votes and every comparison it is in";
      },
      [](const ContentTool &t) { return t.slug; },
      {},
      "",
      "",
      [](StoreReads &site, const ContentTool &t, const std::string &editing) {
        std::vector<std::string> namesakes;
        for (const auto &namesake : site.tools_named(t.name))
          if (namesake.slug != editing)
            namesakes.push_back(namesake.slug + ": “" + namesake.tagline + "”");
        return namesakes;
      },
      "Readers tell two tools with one name apart by their taglines: if this is another tool, "
      "give it a tagline that says how it differs, then save again to keep the name."};
  return section;
}

} // namespace

const Section<ContentTool> &tool_section() {
  return tools();
}

// GET /admin/tools — every tool by name, a page at a time.   page=N   q=words to narrow to
void show_tools_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  const auto filter = list_filter(app, req, res);
  if (!filter) return;
  const auto page =
      filter->empty() ? site.tools_by_name(*span) : site.tools_holding(*filter, *span);
  desk::ItemList list;
  list.plural = "Tools";
  list.list_path = "/admin/tools";
  list.find_label = "Find tools by name, address, tagline or vendor";
  list.filter = *filter;
  list.new_label = "New tool";
  list.columns = {"Category", "Pricing model", "Reviews"};
  list.saved = saved_note(site, req, tools());
  list.pagination = pages::pagination(app.views, desk::list_address(list.list_path, *filter),
                                      page.number, page.has_next);
  for (const auto &tool : page.items)
    list.rows.push_back({tool.slug,
                         tool_said(site, tool.name, tool.tagline),
                         {tool.category.name, tool.entry, std::to_string(tool.panel.total)}});
  send_html(res, desk::item_list(app.views, site.site_copy(), bar_for(session, "tool"), list));
}

// GET /admin/tools/new, /admin/tools/:slug; POST /admin/tools (create), /admin/tools/:slug
// (save)   name, slug, category, tagline, description, entry, vendor, url, pricing_notes,
// pricing_checked_on, pricing_source   csrf
// GET and POST /admin/tools/:slug/delete   csrf
void new_tool(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
              const EditorSession &session) {
  show_new_item(app, site, res, session, tools());
}
void edit_tool(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &url,
               const EditorSession &session) {
  show_item(app, site, res, url, session, tools());
}
void save_tool(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url, const EditorSession &session) {
  save_item(app, site, req, res, url, session, tools());
}
void confirm_tool_deletion(App &app, StoreReads &site, const Request &, Response &res,
                           const UrlCaptures &url, const EditorSession &session) {
  confirm_item_deletion(app, site, res, url, session, tools());
}
void delete_tool(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session) {
  delete_item(app, site, req, res, url, session, tools());
}

} // namespace verdict::handlers
