// `verdict init`: a new site in one step, before it first serves: its database, with the
// bundled examples or empty, and its first editor, so the owner of a fresh server has a site
// to sign in to without knowing which commands make one.
#pragma once

#include <iosfwd>
#include <string>

#include "app/options.h"

namespace verdict {

// `in` and `in_is_terminal` stand for standard input (the editor's address and password);
// prompts and what was done (or why not) go to `said`.
int run_init(const Options &options, std::istream &in, bool in_is_terminal, std::ostream &said);

// What makes a site where none is, for the messages of commands that find no file at --db:
// "`verdict init --db PATH` makes a new site there", the binary named as the owner types it.
std::string how_to_make_a_site(const Options &options);

} // namespace verdict
