// Words put into the commands the binary tells its owner to run (a path in "run `verdict init
// --db PATH`"): a path with a space, a quote or a `$` in it must reach the shell as one word,
// unchanged, when the owner pastes the command.
#pragma once

#include <string>
#include <string_view>

namespace verdict {

// `word` as the POSIX shell reads back exactly: as it is when it holds only characters no
// shell treats specially, else in single quotes (each ' written '\'').
inline std::string shell_quoted(std::string_view word) {
  constexpr std::string_view plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789@%+=:,./-_";
  if (!word.empty() && word.find_first_not_of(plain) == std::string_view::npos)
    return std::string(word);
  std::string quoted = "'";
  for (const char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

} // namespace verdict
