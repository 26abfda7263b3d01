// Site copy kept in the settings table, so the publication's words live in its content.
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

SiteCopy Store::site_copy() {
  return read([](sql::Db &db) {
    SiteCopy copy;
    const std::pair<const char *, std::string *> fields[] = {
        {"site_name", &copy.site_name},
        {"site_tagline", &copy.site_tagline},
        {"comparison_eyebrow", &copy.comparison_eyebrow},
        {"comparison_dek", &copy.comparison_dek},
        {"newsletter_title", &copy.newsletter_title},
        {"newsletter_lead", &copy.newsletter_lead},
        {"newsletter_pitch", &copy.newsletter_pitch}};
    auto stmt = db.cached("SELECT key, value FROM settings");
    while (stmt.step()) {
      const auto key = stmt.text(0);
      for (auto &[name, field] : fields)
        if (key == name) *field = stmt.text(1);
    }
    return copy;
  });
}

} // namespace verdict
