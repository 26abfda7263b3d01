// `verdict verify --db PATH`: checks that the published numbers are exactly what the vote log
// says and that the log was only ever appended to. In one moment of the file:
//   1. the latest checkpoint's signature holds under the site's public key;
//   2. the log's first `size` entries make the checkpoint's root (base/merkle.h);
//   3. against the checkpoint seen the last time (kept in a small state file): the key is the
//      same one, and a consistency proof shows the log then is the start of the log now;
//   4. every community number (each tool's counted ship/skip votes and set-aside votes, each
//      pair's counted picks and set-aside picks) is what replaying the whole log gives
//      (domain/tallies.h).
// Each fault is named, by target for the numbers; exit 0 only when everything agrees.
#pragma once

#include <ostream>
#include <string>

namespace verdict {

// `state_file` keeps, per database, the public key, size and root of the checkpoint last
// verified; it is made when missing and updated after a verification that found no fault.
int run_verify(const std::string &db, const std::string &state_file, std::ostream &out,
               std::ostream &err);

} // namespace verdict
