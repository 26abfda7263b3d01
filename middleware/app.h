// What every handler is given: the store, the parsed views, and the cache of pages rendered
// for visitors without cookies.
#pragma once

#include "base/addresses.h"

#include <functional>
#include <semaphore>
#include <string>

#include "auth/confirmation_rations.h"
#include "auth/sign_in_throttle.h"
#include "middleware/cost_budget.h"
#include "middleware/metrics.h"
#include "middleware/page_cache.h"
#include "middleware/rate_limit.h"
#include "render/png.h"
#include "render/views.h"
#include "store/site_writes.h"
#include "store/store.h"

namespace verdict {

// How much the costliest answers and failed sign-ins may take: the site runs on the defaults;
// a test gives smaller ones to reach them.
struct AppBudgets {
  CostBudget::Rates costly = CostBudget::kDefaultRates;
  auth::SignInThrottle::Limits sign_ins{};
};

struct App {
  // Every read, as the store's read-only view: a handler is given a page's moment of it
  // (StoreMoment) and cannot write through it.
  StoreReads &store;
  // The site's time (domain/clock.h): the system's unless a test gives its own. Everything the
  // App makes that stamps or judges a time reads this one, its writes too.
  Clock clock;
  // Every write: the store's own, or a cluster's (app/cluster_writes.h).
  StoreWrites local_writes;
  SiteWrites *writes;
  StoreKeys local_keys; // the site's secrets, when no cluster's key gives them
  const Views &views;
  // The site's date (YYYY-MM-DD): the store's (Store::set_today), so pages and the store's
  // reads (which comparisons are out yet) agree on it.
  std::string today() const { return store.today(); }
  // The version of the site anonymous readers see (writes and the date, at most max_lag
  // behind), and their pages rendered for it. No lag unless the server sets one.
  PageEpoch page_epoch;
  PageCache cache;
  PngRenderer card_images; // share cards drawn as PNG, kept until their SVG changes
  // Search result pages, kept for the page epoch by text and page number: the same search
  // again costs nothing (a search for a common word reads much of a large index).
  PageCache search_pages;
  CostBudget cost_budget;       // CPU time for the costliest answers, per network (guards::costly)
  RecentWriters recent_writers; // voters whose own pages are rendered afresh for now
  RateLimiter write_limit;
  auth::SignInThrottle sign_in_throttle; // failed sign-ins per network and per account
  // Checking a password costs an Argon2id hash of 64 MiB (auth/secrets.h): at most this many
  // at once for the whole site, so a burst of sign-ins cannot take the machine's memory; a
  // sign-in that finds none free within a moment is told to try again (429).
  std::counting_semaphore<64> password_checks{2};
  auth::ConfirmationRations confirmation_rations; // confirmation mails per mailbox, domain, network
  std::string known_device_key;   // signs the cookie of browsers editors signed in on
  RequestMetrics request_metrics; // for /metrics
  std::string
      metrics_token; // opens /metrics' desk figures to `Authorization: Bearer` (--metrics-token)
  // The transport's own figures (answers given by the reactors, open connections) as lines of
  // Prometheus' text format; set by whoever runs the server.
  std::function<std::string()> transport_figures;
  // The weekly digest's sign-ups (handlers/newsletter.cpp).
  struct Newsletter {
    bool sends_mail = false;     // an SMTP server is set, so confirmation mails go out
    std::string unsubscribe_key; // keys every mail's unsubscribe link; kept in the database
    std::string marker_key;      // signs /subscribed's marker; made anew at each start
    std::function<void()> mail_queued = [] {}; // wakes whatever sends confirmation mails
  } newsletter;
  // Reader votes (handlers/votes.cpp), under the counting rule of domain/counting.h. Both keys
  // are kept in the database, so tokens outlive a restart and networks keep their names.
  // Signs the vote log's checkpoints (auth/log_signing.h); kept in the database, made at the
  // first start, so the public key readers check against never changes.
  std::string log_signing_key;
  struct Votes {
    std::string token_key;   // signs the token each vote form carries (auth/vote_tokens.h)
    std::string network_key; // keys the hash under which a voter's network is stored
    // Each vote waits for the log's next batch (`--publish-votes-every`, docs/NUMBERS.md);
    // false, it is published with itself.
    bool batched = false;
  } votes;
  // A cluster's (app/server.cpp): readers' voter cookies are kept, and published, as keyed
  // hashes under it, so neither the stream nor a node's file holds a cookie a reader could be
  // impersonated with. Empty (a lone server): kept as they are.
  std::string voter_key;
  std::string voter_as_kept(std::string cookie_voter) const;
  // A cluster's node: why it cannot take writes or keep up now, or empty (/healthz says it,
  // so a balancer sends readers elsewhere). Unset on a lone server.
  std::function<std::string()> cluster_problem;
  bool access_log = false;        // a line per routed request on stderr
  TrustedProxies trusted_proxies; // whose X-Forwarded-For is believed (base/addresses.h)

  using Budgets = AppBudgets;
  // `site_writes` and `site_keys`: a cluster's (app/cluster_writes.h); none: the store's own.
  App(Store &store_, const Views &views_, int writes_per_minute = 0,
      std::string trusted_proxy_ = "", SiteWrites *site_writes = nullptr,
      SiteKeys *site_keys = nullptr, const Budgets &budgets = {}, Clock clock_ = {});
  App(const App &) = delete;
  App &operator=(const App &) = delete;
};

} // namespace verdict
