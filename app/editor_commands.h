// `verdict user add|list|remove|passwd`: the people who may sign in at /admin, managed by
// the owner from the server's shell. A password is never a flag (it would sit in the shell's
// history and in `ps`): it is asked twice on the terminal without echo, or read as one line
// from standard input when that is not a terminal (a script's pipe).
#pragma once

#include <iosfwd>

#include "app/options.h"

namespace verdict {

// `in` and `in_is_terminal` stand for standard input; the list goes to `out`, prompts and
// what was done (or why not) to `said`.
int run_user_command(const Options &options, std::istream &in, bool in_is_terminal,
                     std::ostream &out, std::ostream &said);

} // namespace verdict
