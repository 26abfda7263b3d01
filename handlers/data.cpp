// Open data: the published tallies, the vote log's replay (domain/tallies.h says what each
// figure is) as the file keeps it with each vote, so anyone can check the pages' numbers
// against the log. Kept and given again like the API (page cache, ETags, 304s), readable from
// any site, licensed CC BY 4.0.
#include "domain/tallies.h"
#include "handlers/handlers.h"
#include "render/tallies.h"

namespace verdict::handlers {

namespace {

// The tallies per day as the file keeps them and every tool's slug, from the page's one moment
// of the file.
open_data::PublishedTallies published_tallies(StoreReads &site) {
  auto kept = site.tallies_by_day();
  open_data::PublishedTallies tallies;
  tallies.log_entries = kept.log_entries;
  tallies.targets = std::move(kept.targets);
  tallies.slugs = site.tool_slugs();
  return tallies;
}

} // namespace

// GET /data/tallies.csv — one line per target per UTC day with a vote event.
void data_tallies_csv(App &, StoreReads &site, const Request &, Response &res,
                      const UrlCaptures &) {
  // Written as the rows are read: the file of a large site is tens of thousands of them.
  open_data::TalliesCsv csv(site.tool_slugs());
  site.each_tally_day(
      [&csv](const VoteTarget &target, const DayTally &day) { csv.add(target, day); });
  res.body = std::move(csv).text(); // moved: set_content would copy its megabytes
  res.set_header("Content-Type", "text/csv; charset=utf-8");
}

// GET /data/tallies.json — the same figures by target, with the licence and the definition.
void data_tallies_json(App &, StoreReads &site, const Request &, Response &res,
                       const UrlCaptures &) {
  res.set_content(open_data::tallies_json(published_tallies(site)),
                  "application/json; charset=utf-8");
}

} // namespace verdict::handlers
