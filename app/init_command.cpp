#include "app/init_command.h"

#include <filesystem>
#include <iostream>
#include <string>

#include "app/command_writes.h"
#include "app/editor_commands.h"
#include "app/server.h"
#include "auth/secrets.h"
#include "base/shell_words.h"
#include "middleware/request_parsing.h"

namespace verdict {

namespace {

// The first editor's address: as given, or asked for on a terminal; empty for none yet.
std::string first_editor(const Options &options, std::istream &in, bool in_is_terminal,
                         std::ostream &said) {
  if (!options.editor.empty() || !in_is_terminal) return options.editor;
  said << "The first editor's email address (they sign in at /admin; empty: none yet): "
       << std::flush;
  std::string email;
  std::getline(in, email);
  const auto first = email.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return email.substr(first, email.find_last_not_of(" \t\r") - first + 1);
}

// Whether the new site starts with the bundled examples: as the flags say, else asked on a
// terminal (the answer must be yes to get them), else not. A production site starts empty: the
// examples are for trying the site out, and would be published to its readers.
bool with_example_content(const Options &options, std::istream &in, bool in_is_terminal,
                          std::ostream &said) {
  if (options.example_content) return *options.example_content;
  if (!in_is_terminal) return false;
  said << "Start with the bundled example comparisons, tools and reviewers, to try the site "
          "out? They are published at once. [y/N] "
       << std::flush;
  std::string answer;
  std::getline(in, answer);
  const auto first = answer.find_first_not_of(" \t\r");
  return first != std::string::npos && (answer[first] == 'y' || answer[first] == 'Y');
}

} // namespace

std::string how_to_make_a_site(const Options &options) {
  return "`" + options.program + " init --db " + shell_quoted(options.db) +
         "` makes a new site there";
}

int run_init(const Options &options, std::istream &in, bool in_is_terminal, std::ostream &said) {
  if (std::filesystem::exists(options.db)) {
    said << "verdict: " << options.db << " exists already; init makes a new site only "
         << "(`" << options.program << " serve --db " << shell_quoted(options.db)
         << "` serves this one)\n";
    return 1;
  }
  const bool examples = with_example_content(options, in, in_is_terminal, said);
  const auto email = first_editor(options, in, in_is_terminal, said);
  if (!email.empty() && !is_valid_email(email)) {
    said << "verdict: " << email << " is not an email address; nothing made\n";
    return 1;
  }
  // The editor's password asked and judged first: a refused one makes nothing.
  std::optional<std::string> password;
  if (!email.empty() && !(password = new_password(email, in, in_is_terminal, said, "nothing made")))
    return 1;
  open_site_database(options.db, examples ? StartingContent::examples : StartingContent::none);
  said << "verdict: made a new site at " << options.db
       << (examples ? ", with the bundled example comparisons, tools and reviewers\n"
                    : ", empty: nothing is published yet (--example-content makes one with the "
                      "bundled examples)\n");
  if (email.empty()) {
    said << "verdict: no editor yet: `" << options.program << " user add EMAIL --db "
         << shell_quoted(options.db) << "` adds one\n";
  } else {
    CommandWrites opened(options, "init");
    if (const auto added = opened.writes().submit(AddEditor{email, auth::hash_password(*password)});
        !added.done()) {
      said << "verdict: the site is made, without an editor (" << added.words << "): `"
           << options.program << " user add " << email << " --db " << shell_quoted(options.db)
           << "` adds one\n";
      return 1;
    }
    said << "verdict: " << email << " may now sign in at /admin\n";
  }
  said << "verdict: serve it with `" << options.program << " serve --db "
       << shell_quoted(options.db) << "`\n";
  return 0;
}

} // namespace verdict
