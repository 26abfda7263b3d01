// `verdict digest`: the weekly digest sent to every confirmed subscriber over SMTP, or
// written as .eml files with --dry-run. See `verdict help digest`.
#pragma once

#include <iosfwd>

#include "app/options.h"

namespace verdict {

// What was done goes to `out`; the progress line ("sent 12/40") to `progress`, rewritten in
// place when it is a terminal, a line every tenth of the way otherwise. Returns the exit code:
// 0 when every mail went out (or there was nothing to send), 1 when any send failed.
int run_digest(const Options &options, std::ostream &out, std::ostream &progress,
               bool progress_is_terminal);

} // namespace verdict
