// The site as a whole: its copy, kept in the settings table so the publication's words live
// in its content; the sitemap; and the counts and figures of everything in it (/metrics, the
// desk's front page).
#include <sys/stat.h>

#include "domain/slugs.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

SiteCopy site_copy_in(sql::Db &db) {
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
}

} // namespace

SiteCopy StoreReads::site_copy() {
  // Every page, error pages included, shows the site's name: when the file cannot be read
  // (deleted or replaced under the site) the copy last read is shown rather than no page.
  try {
    auto copy = read(site_copy_in);
    std::lock_guard lock(store_.last_site_copy_mutex_);
    store_.last_site_copy_ = copy;
    return copy;
  } catch (const StoreUnavailable &) {
    std::lock_guard lock(store_.last_site_copy_mutex_);
    if (!store_.last_site_copy_) throw;
    return *store_.last_site_copy_;
  }
}

std::vector<SitemapEntry> StoreReads::sitemap_entries() {
  return read([](sql::Db &db) {
    std::vector<SitemapEntry> entries = {
        {"/", ""}, {"/comparisons", ""}, {"/tools", ""}, {"/reviewers", ""}};
    auto comparisons = db.cached(
        "SELECT ta.slug, tb.slug, c.published_on /* every row: the sitemap */ FROM comparisons c "
        "JOIN tools ta ON ta.id = c.tool_a_id JOIN tools tb ON tb.id = c.tool_b_id "
        "WHERE " PUBLISHED_BY_TODAY " ORDER BY c.published_on DESC, c.id DESC");
    while (comparisons.step())
      entries.push_back(
          {"/compare/" + pair_slug(comparisons.text(0), comparisons.text(1)), comparisons.text(2)});
    auto tools =
        db.cached("SELECT slug /* every row: the sitemap */ FROM tools ORDER BY name, slug");
    while (tools.step())
      entries.push_back({"/tools/" + tools.text(0), ""});
    auto reviewers = db.cached(
        "SELECT slug /* every row: the sitemap */ FROM reviewers ORDER BY panel_order, id");
    while (reviewers.step())
      entries.push_back({"/reviewers/" + reviewers.text(0), ""});
    return entries;
  });
}

StoreFigures StoreReads::figures() {
  StoreFigures figures = read([](sql::Db &db) {
    StoreFigures counted;
    // Sums of the tally counters: one row per tool and per compared pair, never the votes.
    auto tools =
        db.cached("SELECT ifnull(sum(community_votes), 0), "
                  "ifnull(sum(community_set_aside_network + community_set_aside_too_fast), 0) "
                  "/* every row: the tools' tallies, for /metrics */ FROM tools");
    tools.step();
    counted.tool_votes = tools.int64(0);
    counted.tool_votes_set_aside = tools.int64(1);
    auto pairs = db.cached("SELECT ifnull(sum(low_picks + high_picks), 0), "
                           "ifnull(sum(set_aside_network + set_aside_too_fast), 0) /* every row: "
                           "the pairs' tallies, for /metrics */ FROM pair_tallies");
    pairs.step();
    counted.pair_picks = pairs.int64(0);
    counted.pair_picks_set_aside = pairs.int64(1);
    return counted;
  });
  for (const auto *suffix : {"", "-wal"}) {
    struct stat info {};
    if (stat((store_.engine_.path() + suffix).c_str(), &info) == 0)
      figures.database_bytes += info.st_size;
  }
  return figures;
}

DeskCounts StoreReads::desk_counts() {
  return read([](sql::Db &db) {
    const auto count = [&db](const char *sql) {
      auto stmt = db.prepare(sql);
      stmt.step();
      return stmt.int64(0);
    };
    DeskCounts counts;
    // Each count reads a whole table (or its smallest index): the desk is opened rarely.
    counts.categories = count("SELECT count(*) /* every row: desk counts */ FROM categories");
    counts.tools = count("SELECT count(*) /* every row: desk counts */ FROM tools");
    counts.reviewers = count("SELECT count(*) /* every row: desk counts */ FROM reviewers");
    counts.reviews = count("SELECT count(*) /* every row: desk counts */ FROM reviews");
    counts.comparisons = count("SELECT count(*) /* every row: desk counts */ FROM comparisons");
    counts.published = count("SELECT count(*) /* every row: desk counts */ FROM comparisons "
                             "WHERE " PUBLISHED_BY_TODAY);
    counts.subscribers = count("SELECT count(*) /* every row: desk counts */ FROM subscribers");
    return counts;
  });
}

} // namespace verdict
