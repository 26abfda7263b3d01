// `verdict backup`: a consistent copy of the site while it serves, to a file named, or into a
// folder of dated copies of which only the newest are kept (what a nightly timer runs:
// deploy/verdict-backup.timer).
#pragma once

#include <iosfwd>

#include "app/options.h"

namespace verdict {

// What was written (and removed) is said to `said`.
int run_backup(const Options &options, std::ostream &said);

} // namespace verdict
