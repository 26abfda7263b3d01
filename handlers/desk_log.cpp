// The editor's desk's edit log: every change any editor made, newest first, with what the item
// was before and after (store/desk.cpp writes an entry in the same transaction as the change).
#include "handlers/desk_forms.h"

namespace verdict::handlers {

// GET /admin/log — the edit log, a page at a time.   page=N
void show_edit_log(App &app, const Request &req, Response &res, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  send_html(res, desk::edit_log(app.views, app.store.site_copy(), bar_for(session, "log"),
                                app.store.edit_log(*span)));
}

} // namespace verdict::handlers
