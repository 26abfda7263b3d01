// `verdict user add|list|remove|passwd`: the people who may sign in at /admin, managed by
// the owner from the server's shell. A password is never a flag (it would sit in the shell's
// history and in `ps`): it is asked twice on the terminal without echo, or read as one line
// from standard input when that is not a terminal (a script's pipe).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "app/options.h"

namespace verdict {

// `in` and `in_is_terminal` stand for standard input; the list goes to `out`, prompts and
// what was done (or why not) to `said`.
int run_user_command(const Options &options, std::istream &in, bool in_is_terminal,
                     std::ostream &out, std::ostream &said);

// A new password for `email`, asked as `user add` asks it (twice on a terminal, else one line
// of `in`) and judged (auth::password_problem); none after saying why, ending with `not_done`
// ("nothing changed", "nothing made").
std::optional<std::string> new_password(const std::string &email, std::istream &in, bool terminal,
                                        std::ostream &said, std::string_view not_done);

} // namespace verdict
