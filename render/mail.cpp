#include "render/mail.h"

#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/slugs.h"
#include "domain/subscription.h"
#include "render/pages.h"

namespace verdict::mail {

Bodies confirmation(const Views &views, const SiteCopy &site, const std::string &confirm_url) {
  Data data;
  data.set("title", site.newsletter_title);
  data.set("site_name", site.site_name);
  data.set("confirm_url", confirm_url);
  data.set("link_lifetime", confirmation_lifetime_text());
  return {"Confirm your subscription to " + site.newsletter_title,
          views.fragment("mail_confirmation_text", data),
          views.fragment("mail_confirmation_html", data)};
}

Bodies digest(const Views &views, const SiteCopy &site, const std::vector<DigestItem> &items,
              int days, const std::string &base_url, const std::string &unsubscribe_url) {
  Data list{Data::type::list};
  for (const auto &item : items) {
    const auto &c = item.comparison;
    // The statement and both sides' numbers; the lens-by-lens lines stay on the page.
    auto entry = pages::glance_numbers(c, glance_of(c, {}, {}));
    const auto leads = lead_lines(c.a.name, c.b.name, numbers_of(c));
    entry.set("panel_lead", leads.panel);
    entry.set("readers_lead", leads.readers);
    entry.set("name", c.a.name + " vs " + c.b.name);
    entry.set("url", base_url + "/compare/" + pair_slug(c.a.slug, c.b.slug));
    entry.set("published_on", c.published_on);
    list.push_back(entry);
  }
  const auto count =
      count_phrase(static_cast<int64_t>(items.size()), "new comparison", "new comparisons");
  Data data;
  data.set("title", site.newsletter_title);
  data.set("site_name", site.site_name);
  data.set("lead", "Published in the last " + count_phrase(days, "day", "days") + ": " + count +
                       ", with the verdict at a glance.");
  data.set("items", list);
  data.set("unsubscribe_url", unsubscribe_url);
  return {site.newsletter_title + " — " + count, views.fragment("mail_digest_text", data),
          views.fragment("mail_digest_html", data)};
}

} // namespace verdict::mail
