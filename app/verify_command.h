// `verdict verify URL` and `verdict verify --db PATH`: checks that the published numbers are
// exactly what the vote log says and that the log was only ever appended to. From the site over
// HTTP (its API and /transparency), or from one moment of its file (app/verify_sources.h):
//   1. the latest checkpoint's signature holds under the site's public key;
//   2. the log's first `size` entries make the checkpoint's root (base/merkle.h);
//   3. against the checkpoint seen the last time (kept in a small state file): the key is the
//      same one, and a consistency proof shows the log then is the start of the log now;
//   4. every community number the site publishes (each tool's counted ship/skip votes and
//      set-aside votes, each published pair's counted picks and set-aside picks) is what
//      replaying the log gives (domain/tallies.h) — replaying as many entries as the log held
//      when the number was read, which the site says beside it, so numbers moving under new
//      votes while verify reads are no fault.
// Each fault is named, by target for the numbers; exit 0 only when everything agrees, 1 on a
// fault, 2 when the site could not be read.
#pragma once

#include <ostream>
#include <string>

namespace verdict {

// Where to read: a site's address (http:// or https://), else a database file.
struct VerifyTarget {
  std::string site_url;
  std::string db;
};

// `state_file` keeps, per site or database, the public key, size and root of the checkpoint
// last verified; it is made when missing and updated after a verification that found no fault.
// A checkpoint older than `max_age_hours` while the log grew past it is a fault: a site that
// stops checkpointing freezes what readers can hold it to. `now` is seconds since 1970.
int run_verify(const VerifyTarget &target, const std::string &state_file, std::ostream &out,
               std::ostream &err, int max_age_hours = 48, int64_t now = 0);

} // namespace verdict
