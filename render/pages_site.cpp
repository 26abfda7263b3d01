// The site's own pages: how the numbers are made (methodology), short messages (errors,
// thank-yous), the digest's sign-up, confirmation and unsubscribe pages, and the sitemap.
#include "render/pages.h"

#include "domain/counting.h"
#include "domain/dates.h"
#include "domain/numbers.h"
#include "render/feeds.h"
#include "render/page_parts.h"

namespace verdict::pages {

using kainjow::mustache::list;
using namespace parts;

std::string sitemap(const Views &views, const std::string &base,
                    const std::vector<SitemapEntry> &entries) {
  Data urls{list{}};
  for (const auto &entry : entries) {
    Data url;
    url.set("loc", base + entry.path);
    set_if(url, "lastmod", entry.last_modified);
    urls.push_back(url);
  }
  Data data;
  data.set("urls", urls);
  return views.fragment("sitemap", data);
}

std::string methodology(const Views &views, const std::vector<Reviewer> &panel,
                        const SiteCopy &site) {
  Data page;
  Data reviewers{list{}};
  std::vector<std::string> readings;
  for (const auto &reviewer : panel) {
    readings.push_back(interval_reading(reviewer.verdicts.ships, reviewer.verdicts.total,
                                        ship_rate_share_of(reviewer)));
    Data item;
    item.set("slug", reviewer.slug);
    item.set("name", reviewer.name);
    item.set("lens", reviewer.lens);
    item.set("rate", reviewer.verdicts.total == 0 ? std::string("— · no reviews yet")
                                                  : panel_summary(reviewer.verdicts));
    reviewers.push_back(item);
  }
  page.set("reviewers", reviewers);
  page.set("readings", interval_readings(views, readings));
  page.set("has_reviewers", bool_data(!panel.empty()));
  page.set("min_votes", std::to_string(kMinVotesForInterval));
  page.set("per_network", std::to_string(kCountedVotersPerNetwork));
  page.set("networks", "an IPv4 /" + std::to_string(kIpv4NetworkBits) + " or an IPv6 /" +
                           std::to_string(kIpv6NetworkBits) +
                           " (an IPv6 address that carries an IPv4 one, through 6to4, Teredo or "
                           "NAT64, is of that IPv4 address's network)");
  page.set("per_wider", std::to_string(kCountedVotersPerWiderNetwork));
  page.set("wider_networks", "IPv4 /" + std::to_string(kIpv4WiderNetworkBits) + " or IPv6 /" +
                                 std::to_string(kIpv6WiderNetworkBits));
  page.set("page_lifetime", count_phrase(kVotePageLifetimeSeconds / 3600, "hour", "hours"));
  page.set("reading_time", count_phrase(kSecondsToReadAPage, "second", "seconds"));
  page.set("set_aside_example", community_summary({24, 37}, {12, 0}));
  page.set("example_readings",
           interval_readings(views, {interval_reading(24, 37, "of readers who would ship it")}));
  return views.page("methodology", page,
                    {"Methodology · " + site.site_name,
                     "How every percentage on the site is made, and what the site never does.",
                     "/methodology"},
                    site);
}

std::string transparency(const Views &views, const std::optional<Checkpoint> &checkpoint,
                         uint64_t log_size, const std::string &public_key, const SiteCopy &site) {
  Data page;
  page.set("has_checkpoint", bool_data(checkpoint.has_value()));
  if (checkpoint) {
    // A checkpoint signed before the first vote holds none: said so, not "0 entries".
    page.set("size",
             checkpoint->size == 0
                 ? std::string("None: it was signed before the first vote")
                 : count_phrase(static_cast<int64_t>(checkpoint->size), "entry", "entries"));
    page.set("root", merkle::hex(checkpoint->root));
    page.set("made_at", utc_time_of(checkpoint->made_at));
    page.set("signature", checkpoint->signature);
  }
  page.set("log_size", count_phrase(static_cast<int64_t>(log_size), "entry", "entries"));
  page.set("public_key", public_key);
  // The command names this site as readers reach it: its --base-url, else a stand-in.
  page.set("site_url", views.base_url().empty() ? "https://this.site" : views.base_url());
  return views.page("transparency", page,
                    {"Transparency · " + site.site_name,
                     "The signed, append-only log of every vote, and how to check the numbers.",
                     "/transparency",
                     false,
                     {},
                     std::string(feeds::kCheckpointsPath),
                     std::string(feeds::kCheckpointsTitle)},
                    site);
}

std::string receipts(const Views &views, const std::vector<VoteReceipt> &receipts,
                     const std::optional<Checkpoint> &checkpoint, const SiteCopy &site) {
  Data items{list{}};
  for (const auto &receipt : receipts) {
    Data item;
    item.set("what", receipt.what);
    item.set("address", receipt.address);
    item.set("choice", receipt.verdict ? verdict_label(*receipt.verdict) : receipt.picked);
    if (receipt.waiting) { // no entry yet: nothing of the log to show
      item.set("waiting", bool_data(true));
      items.push_back(item);
      continue;
    }
    item.set("leaf", std::to_string(receipt.logged.leaf));
    item.set("hash", merkle::hex(receipt.logged.hash));
    item.set("entry", receipt.logged.entry);
    if (checkpoint && receipt.logged.leaf < checkpoint->size) {
      item.set("proof", "/transparency/proof?leaf=" + std::to_string(receipt.logged.leaf) +
                            "&size=" + std::to_string(checkpoint->size));
      item.set("checkpoint_size",
               count_phrase(static_cast<int64_t>(checkpoint->size), "entry", "entries"));
      item.set("signed", utc_time_of(checkpoint->made_at));
    }
    items.push_back(item);
  }
  Data page;
  page.set("receipts", items);
  page.set("has_receipts", bool_data(!receipts.empty()));
  return views.page("receipts", page,
                    {"Your receipts · " + site.site_name,
                     "Where each of your votes stands in the public vote log, and how to check it.",
                     "/receipts"},
                    site);
}

std::string message(const Views &views, const SiteCopy &site, const std::string &eyebrow,
                    const std::string &heading, const std::string &text, const std::string &link,
                    const std::string &link_label) {
  Data page;
  page.set("eyebrow", eyebrow);
  page.set("heading", heading);
  page.set("message", text);
  page.set("link", link);
  page.set("link_label", link_label);
  return views.page("message", page, {heading + " · " + site.site_name, text, link}, site);
}

std::string subscribe(const Views &views, const SiteCopy &site, const std::string &email,
                      const std::string &problem) {
  Data page;
  page.set("heading", problem.empty() ? site.newsletter_title : "Check the address");
  page.set("dek", problem.empty() ? site.newsletter_pitch
                                  : "The address could not be used; it is below as you typed it.");
  page.set("newsletter", newsletter(views, site, email, problem));
  return views.page(
      "subscribe", page,
      {site.newsletter_title + " · " + site.site_name, site.newsletter_lead, "/subscribe"}, site);
}

std::string confirm(const Views &views, const SiteCopy &site, const std::string &token) {
  Data page;
  page.set("title", site.newsletter_title);
  page.set("token", token);
  return views.page(
      "confirm", page,
      {"Confirm your subscription · " + site.site_name, site.newsletter_lead, "/subscribe", true},
      site);
}

std::string unsubscribed(const Views &views, const SiteCopy &site, const std::string &heading,
                         const std::string &text, const std::string &undo_token) {
  Data page;
  page.set("title", site.newsletter_title);
  page.set("heading", heading);
  page.set("message", text);
  if (!undo_token.empty()) {
    page.set("undo", true);
    page.set("token", undo_token);
  }
  return views.page("unsubscribed", page,
                    {heading + " · " + site.site_name, text, "/subscribe", true}, site);
}

} // namespace verdict::pages
