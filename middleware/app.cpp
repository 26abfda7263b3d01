// The App every handler is given (middleware/app.h): made once where the site starts.
#include "middleware/app.h"

#include "auth/secrets.h"
#include "domain/clock.h"
#include "domain/counting.h"

namespace verdict {

App::App(Store &store_, const Views &views_, int writes_per_minute, std::string trusted_proxy_,
         SiteWrites *site_writes, SiteKeys *site_keys, const Budgets &budgets, Clock clock_)
    : store(store_), clock(std::move(clock_)), local_writes(store_, clock),
      writes(site_writes ? site_writes : &local_writes), local_keys(store_), views(views_),
      // The date, and the hour: pages with vote forms are made again at least that often, so
      // a kept page never hands out an old vote token (domain/counting.h).
      page_epoch(
          [this] { return store.generation(); },
          [this] { return today() + " " + std::to_string(clock.now() / kVotePageRenewalSeconds); },
          std::chrono::milliseconds(0)),
      cost_budget(budgets.costly), write_limit(writes_per_minute),
      sign_in_throttle(budgets.sign_ins), trusted_proxies(trusted_proxy_) {
  // The database's key, so links in mails sent by `verdict digest` work here too.
  SiteKeys &keys = site_keys ? *site_keys : local_keys;
  newsletter.unsubscribe_key = keys.site_secret("unsubscribe", auth::random_secret());
  newsletter.marker_key = auth::random_secret();
  votes.token_key = keys.site_secret("vote_tokens", auth::random_secret());
  votes.network_key = keys.site_secret("voter_networks", auth::random_secret());
  known_device_key = keys.site_secret("known_devices", auth::random_secret());
  log_signing_key = keys.log_signing_key();
}

std::string App::voter_as_kept(std::string cookie_voter) const {
  if (voter_key.empty() || cookie_voter.empty()) return cookie_voter;
  // The cookie's first 12 hex digits (when it was issued: ids issued together still sort
  // together, store/votes.cpp) and 80 bits of its keyed hash, the length a voter id has.
  return cookie_voter.substr(0, 12) + auth::keyed_hash(voter_key, cookie_voter).substr(0, 20);
}

} // namespace verdict
