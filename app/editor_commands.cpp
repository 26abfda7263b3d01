#include "app/editor_commands.h"

#include <termios.h>
#include <unistd.h>

#include <iostream>
#include <optional>

#include "app/command_writes.h"
#include "app/server.h"
#include "auth/secrets.h"
#include "base/shell_words.h"
#include "store/store.h"

namespace verdict {

namespace {

// Turns the terminal's echo off while a password is typed, and back on however it ends.
class NoEcho {
public:
  NoEcho() : on_(tcgetattr(STDIN_FILENO, &saved_) == 0) {
    if (!on_) return;
    auto quiet = saved_;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  ~NoEcho() {
    if (on_) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  NoEcho(const NoEcho &) = delete;
  NoEcho &operator=(const NoEcho &) = delete;

private:
  termios saved_{};
  bool on_;
};

std::optional<std::string> read_line(std::istream &in) {
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

} // namespace

std::optional<std::string> new_password(const std::string &email, std::istream &in, bool terminal,
                                        std::ostream &said, std::string_view not_done) {
  std::optional<std::string> password;
  if (terminal) {
    NoEcho quiet;
    said << "New password for " << email << ": " << std::flush;
    password = read_line(in);
    said << "\nThe same again: " << std::flush;
    const auto again = read_line(in);
    said << "\n";
    if (password && again != password) {
      said << "verdict: the two passwords differ; " << not_done << "\n";
      return std::nullopt;
    }
  } else {
    password = read_line(in);
  }
  if (!password) {
    said << "verdict: no password given (type it, or pipe it as one line); " << not_done << "\n";
    return std::nullopt;
  }
  if (const auto problem = auth::password_problem(*password); !problem.empty()) {
    said << "verdict: the password " << problem << "; " << not_done << "\n";
    return std::nullopt;
  }
  return password;
}

int run_user_command(const Options &options, std::istream &in, bool in_is_terminal,
                     std::ostream &out, std::ostream &said) {
  const auto &action = options.files[0];
  if (action == "list") {
    Store store(options.db);
    const auto editors = store.editors();
    if (editors.empty())
      said << "no editors yet: `" << options.program << " user add EMAIL --db "
           << shell_quoted(options.db) << "` adds one\n";
    for (const auto &editor : editors)
      out << editor.email << "  added " << editor.created_at << "\n";
    return 0;
  }
  const auto &email = options.files[1];
  if (action == "add") {
    // On the site that is there (main.cpp refuses a missing file: a mistyped path must not
    // become a new site the editor is told they may sign in to).
    CommandWrites opened(options, "user");
    if (opened.store().editor_by_email(email)) {
      said << "verdict: " << email << " is already an editor (`" << options.program
           << " user passwd` changes their password)\n";
      return 1;
    }
    const auto password = new_password(email, in, in_is_terminal, said, "nothing changed");
    if (!password) return 1;
    if (const auto added = opened.writes().submit(AddEditor{email, auth::hash_password(*password)});
        !added.done()) {
      said << "verdict: " << email << " was not added: " << added.words << "\n";
      return 1;
    }
    said << "verdict: " << email << " may now sign in at /admin\n";
    return 0;
  }
  CommandWrites opened(options, "user");
  if (!opened.store().editor_by_email(email)) {
    said << "verdict: " << email << " is not an editor (`verdict user list` names them)\n";
    return 1;
  }
  if (action == "remove") {
    if (const auto removed = opened.writes().submit(RemoveEditor{email}); !removed.done()) {
      said << "verdict: " << email << " was not removed: " << removed.words << "\n";
      return 1;
    }
    said << "verdict: " << email << " is no longer an editor, and is signed out everywhere\n";
    return 0;
  }
  const auto password = new_password(email, in, in_is_terminal, said, "nothing changed");
  if (!password) return 1;
  if (const auto changed =
          opened.writes().submit(SetEditorPassword{email, auth::hash_password(*password)});
      !changed.done()) {
    said << "verdict: " << email << "'s password was not changed: " << changed.words << "\n";
    return 1;
  }
  said << "verdict: " << email << "'s password is changed, and they are signed out everywhere\n";
  return 0;
}

} // namespace verdict
