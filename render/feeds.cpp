#include "render/feeds.h"

#include "domain/dates.h"
#include "domain/glance.h"
#include "domain/numbers.h"
#include "domain/slugs.h"
#include "domain/utf8.h"

namespace verdict::feeds {

namespace {

using kainjow::mustache::list;

// A feed with nothing published yet still needs an `updated`: the start of Unix time says
// "never" without changing from one request to the next.
constexpr const char *kNeverUpdated = "1970-01-01T00:00:00Z";

// A publish date (YYYY-MM-DD) as an Atom date: comparisons are published by the day.
std::string atom_date(const std::string &day) {
  return day.empty() ? kNeverUpdated : day + "T00:00:00Z";
}

std::string joined_paragraphs(const std::vector<std::string> &paragraphs) {
  std::string text;
  for (const auto &paragraph : paragraphs)
    if (!paragraph.empty()) text += (text.empty() ? "" : "\n\n") + paragraph;
  return text;
}

std::string comparison_path(const Comparison &c) {
  return "/compare/" + pair_slug(c.a.slug, c.b.slug);
}

std::string title_of(const Comparison &c) {
  return c.a.name + " vs " + c.b.name;
}

// What the comparison page says first: the editor's words, then the verdict at a glance: who
// leads, as every list says it, then both sides' numbers.
std::string comparison_summary(const Comparison &c, const Glance &glance) {
  const auto leads = lead_lines(c.a.name, c.b.name, numbers_of(c));
  return joined_paragraphs(
      {c.intro, c.bottom_line.empty() ? "" : "Bottom line: " + c.bottom_line, glance.statement,
       leads.panel + ".", leads.readers + ".",
       "Panel: " + c.a.name + " " + glance.panel_a + "; " + c.b.name + " " + glance.panel_b + ".",
       "Readers: " + c.a.name + " " + glance.community_a + "; " + c.b.name + " " +
           glance.community_b + "."});
}

// What one reviewer said of the comparison's two tools, then the verdict at a glance.
std::string reviewer_summary(const Reviewer &reviewer, const FeedEntry &entry,
                             const Glance &glance) {
  std::vector<std::string> paragraphs;
  if (!glance.lenses.empty())
    paragraphs.push_back(reviewer.name + " (" + reviewer.lens + ") " + glance.lenses.front().said +
                         ".");
  for (const auto *reviews : {&entry.reviews_a, &entry.reviews_b})
    for (const auto &review : *reviews)
      paragraphs.push_back("On " + review.tool_name + ", " + verdict_word(review.verdict) +
                           ": \u201c" + review.quote + "\u201d");
  paragraphs.push_back(glance.statement);
  return joined_paragraphs(paragraphs);
}

struct Person {
  std::string name, uri;
};

Data entry_data(const std::string &id, const std::string &link, const Comparison &c,
                const Person &author, const std::string &summary) {
  Data item;
  item.set("id", xml_text(id));
  item.set("link", xml_text(link));
  item.set("title", xml_text(title_of(c)));
  item.set("published", atom_date(c.published_on));
  item.set("updated", atom_date(c.published_on));
  item.set("author_name", xml_text(author.name));
  item.set("author_uri", xml_text(author.uri));
  item.set("summary", xml_text(summary));
  return item;
}

// What a feed says of itself.
struct FeedHead {
  std::string path;      // the feed's own address, which is also its id
  std::string alternate; // the page it follows
  std::string title, subtitle;
};

std::string feed_document(const Views &views, const std::string &base, const FeedHead &head,
                          const std::string &updated, Data items, const SiteCopy &site) {
  Data feed;
  feed.set("id", xml_text(base + head.path));
  feed.set("self", xml_text(base + head.path));
  feed.set("alternate", xml_text(base + head.alternate));
  feed.set("title", xml_text(head.title));
  if (!head.subtitle.empty()) feed.set("subtitle", xml_text(head.subtitle));
  feed.set("updated", updated);
  feed.set("author_name", xml_text(site.site_name));
  feed.set("author_uri", xml_text(base + "/"));
  feed.set("entries", items);
  return views.fragment("feed", feed);
}

// Entries come newest first, so the first one's date is the feed's.
std::string updated_of(const std::vector<FeedEntry> &entries) {
  return entries.empty() ? std::string(kNeverUpdated)
                         : atom_date(entries.front().comparison.published_on);
}

// Entries as the site tells them, for the site's feed and a tool's: the same comparison is the
// same entry (same id, same words) in both.
Data comparison_entries(const std::string &base, const std::vector<FeedEntry> &entries,
                        const SiteCopy &site) {
  Data items{list{}};
  for (const auto &entry : entries) {
    const auto &c = entry.comparison;
    const auto link = base + comparison_path(c);
    items.push_back(entry_data(link, link, c, {site.site_name, base + "/"},
                               comparison_summary(c, glance_of(c, {}, {}))));
  }
  return items;
}

} // namespace

std::string tool_path(std::string_view tool_slug) {
  return "/tools/" + std::string(tool_slug) + "/feed.xml";
}

std::string reviewer_path(std::string_view reviewer_slug) {
  return "/reviewers/" + std::string(reviewer_slug) + "/feed.xml";
}

std::string site_title(const SiteCopy &site) {
  return site.site_name + " — latest comparisons";
}

std::string tool_title(const Tool &tool, const SiteCopy &site) {
  return tool.name + " — comparisons · " + site.site_name;
}

std::string reviewer_title(const Reviewer &reviewer, const SiteCopy &site) {
  return reviewer.name + ", " + reviewer.lens + " — comparisons · " + site.site_name;
}

std::string site_feed(const Views &views, const std::string &base,
                      const std::vector<FeedEntry> &entries, const SiteCopy &site) {
  return feed_document(views, base,
                       {std::string(kSitePath), "/", site_title(site), site.site_tagline},
                       updated_of(entries), comparison_entries(base, entries, site), site);
}

std::string tool_feed(const Views &views, const std::string &base, const ToolFeed &feed,
                      const SiteCopy &site) {
  const auto &tool = feed.tool;
  return feed_document(
      views, base,
      {tool_path(tool.slug), "/tools/" + tool.slug, tool_title(tool, site), tool.tagline},
      updated_of(feed.entries), comparison_entries(base, feed.entries, site), site);
}

std::string reviewer_feed(const Views &views, const std::string &base, const ReviewerFeed &feed,
                          const SiteCopy &site) {
  const auto &reviewer = feed.reviewer;
  const auto page = base + "/reviewers/" + reviewer.slug;
  Data items{list{}};
  for (const auto &entry : feed.entries) {
    const auto &c = entry.comparison;
    const auto link = base + comparison_path(c);
    // The reviewer's take on the comparison is an entry of its own, apart from the
    // comparison's entry in the site's feed: same link, its own id.
    items.push_back(entry_data(
        link + "#" + reviewer.slug, link, c, {reviewer.name, page},
        reviewer_summary(reviewer, entry, glance_of(c, entry.reviews_a, entry.reviews_b))));
  }
  return feed_document(views, base,
                       {reviewer_path(reviewer.slug), "/reviewers/" + reviewer.slug,
                        reviewer_title(reviewer, site), reviewer.bio},
                       updated_of(feed.entries), items, site);
}

std::string checkpoint_feed(const Views &views, const std::string &base,
                            const std::vector<Checkpoint> &checkpoints,
                            const std::string &public_key, const SiteCopy &site) {
  Data items{list{}};
  for (const auto &checkpoint : checkpoints) {
    const auto size = std::to_string(checkpoint.size);
    Data item;
    // One entry per signed checkpoint: a size may be signed again on a quiet day, at its time.
    item.set("id", xml_text(base + "/transparency/checkpoint#" + size + "-" +
                            std::to_string(checkpoint.made_at)));
    item.set("link", xml_text(base + "/transparency"));
    item.set("title", "Checkpoint: " +
                          count_phrase(static_cast<int64_t>(checkpoint.size), "entry", "entries"));
    item.set("published", rfc3339_utc(checkpoint.made_at));
    item.set("updated", rfc3339_utc(checkpoint.made_at));
    item.set("author_name", xml_text(site.site_name));
    item.set("author_uri", xml_text(base + "/"));
    item.set("summary",
             xml_text("The vote log's first " + size + " entries have the root " +
                      merkle::hex(checkpoint.root) + ". Signed with Ed25519 under the key " +
                      public_key + ", signature " + checkpoint.signature + ", over the text:\n\n" +
                      checkpoint_text(checkpoint)));
    items.push_back(item);
  }
  return feed_document(views, base,
                       {std::string(kCheckpointsPath), "/transparency",
                        std::string(kCheckpointsTitle) + " · " + site.site_name,
                        "Every checkpoint the site signs of its vote log, newest first."},
                       checkpoints.empty() ? std::string(kNeverUpdated)
                                           : rfc3339_utc(checkpoints.front().made_at),
                       items, site);
}

std::string xml_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto character = first_character(text.substr(i));
    const auto code = character.code;
    const bool allowed = character.valid && (code == 0x9 || code == 0xa || code == 0xd ||
                                             (code >= 0x20 && code != 0xfffe && code != 0xffff));
    out.append(allowed ? text.substr(i, character.length) : kReplacementCharacter);
    i += character.length;
  }
  return out;
}

} // namespace verdict::feeds
