// A handler as the route table runs it: given the App and its page's reads. Built twice by
// CTest (tests/CMakeLists.txt): as it is, it must build (a handler reads through what it is
// given, and writes by submitting); with HANDLER_WRITES_AROUND_SUBMIT, it must not, because
// what a handler sees of the store (StoreReads, and App::store) has no way to write.
#include "middleware/app.h"
#include "middleware/guards.h"

namespace verdict {

void a_handler(App &app, StoreReads &site, const httplib::Request &, httplib::Response &,
               const UrlCaptures &) {
  (void)site.tool_by_slug("codestral-2-1");
  (void)app.store.site_copy();
  (void)app.writes->submit(DeleteTool{"codestral-2-1", "editor@example.com"});
#ifdef HANDLER_WRITES_AROUND_SUBMIT
  site.write_then([](sql::Db &) { return WriteResult::written(); }, [](const WriteResult &) {});
#endif
#ifdef HANDLER_WRITES_THROUGH_APP
  app.store.write([](sql::Db &) {});
#endif
}

[[maybe_unused]] const guards::Page kIsAPage = a_handler;

} // namespace verdict
