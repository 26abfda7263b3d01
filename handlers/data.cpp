// Open data: the published tallies, replayed from the vote log (domain/tallies.h says what
// each figure is), so anyone can check the pages' numbers against the log. Kept and given
// again like the API (page cache, ETags, 304s), readable from any site, licensed CC BY 4.0.
#include "domain/tallies.h"
#include "handlers/handlers.h"
#include "render/tallies.h"

namespace verdict::handlers {

namespace {

// One replay of the whole log and every tool's slug, from the page's one moment of the file.
open_data::PublishedTallies published_tallies(App &app) {
  TallyReplay replay;
  open_data::PublishedTallies tallies;
  tallies.log_entries = app.store.vote_events([&](const VoteEvent &e) { replay.add(e); });
  tallies.targets = std::move(replay).finish();
  for (const auto &tool : app.store.tools_by_name())
    tallies.slugs.emplace(tool.id, tool.slug);
  return tallies;
}

} // namespace

// GET /data/tallies.csv — one line per target per UTC day with a vote event.
void data_tallies_csv(App &app, const Request &, Response &res) {
  res.set_content(open_data::tallies_csv(published_tallies(app)), "text/csv; charset=utf-8");
}

// GET /data/tallies.json — the same figures by target, with the licence and the definition.
void data_tallies_json(App &app, const Request &, Response &res) {
  res.set_content(open_data::tallies_json(published_tallies(app)),
                  "application/json; charset=utf-8");
}

} // namespace verdict::handlers
