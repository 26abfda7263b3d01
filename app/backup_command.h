// `verdict backup`: a consistent copy of the site while it serves, to a file named, or into a
// folder of dated copies of which only the newest are kept (what a nightly timer runs:
// deploy/verdict-backup.timer).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/options.h"

namespace verdict {

// What was written (and removed) is said to `said`.
int run_backup(const Options &options, std::ostream &said);

// When each dated copy in `folder` was made, read from its name (seconds since 1970, UTC);
// empty when the folder holds none or is not there.
std::vector<int64_t> copies_made_at(const std::string &folder);

} // namespace verdict
