// verdict: the whole publication in one executable. See `verdict --help`.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/backup_command.h"
#include "app/cluster_command.h"
#include "app/command_writes.h"
#include "app/digest_command.h"
#include "app/doctor_command.h"
#include "app/editor_commands.h"
#include "app/init_command.h"
#include "app/options.h"
#include "app/server.h"
#include "app/verify_command.h"
#include "auth/log_signing.h"
#include "domain/clock.h"
#include "domain/content.h"
#include "domain/csv.h"
#include "store/maintenance.h"
#include "store/store.h"

#ifndef VERDICT_VERSION
#define VERDICT_VERSION "0.0.0"
#endif

namespace {

using namespace verdict;

bool exists(const std::string &path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

// Every command but init (and serve --demo) refuses a path that holds no site, rather than
// make one there: a mistyped path must not become a new site the owner is told was changed.
void require_database(const Options &options) {
  const auto &path = options.db;
  if (!exists(path))
    throw std::runtime_error("no database at " + path + " (is the path right?): " +
                             how_to_make_a_site(options) + " (a backup is put back by copying it)");
}

int run_import(const Options &options) {
  std::ifstream file(options.files[0], std::ios::binary);
  if (!file) {
    std::cerr << "verdict: cannot read " << options.files[0] << "\n";
    return 1;
  }
  std::stringstream text;
  text << file.rdbuf();
  const auto parsed = parse_content(text.str());
  if (!parsed.errors.empty()) {
    for (const auto &error : parsed.errors)
      std::cerr << options.files[0] << ": " << error << "\n";
    std::cerr << "verdict: nothing imported (" << parsed.errors.size() << " errors)\n";
    return 1;
  }
  const auto summary =
      CommandWrites(options, "import").writes().submit_or_throw(ImportContent{parsed.content});
  std::cerr << "verdict: imported " << options.files[0] << ": " << describe(summary) << "\n";
  return 0;
}

// A write like any other: on a cluster node it goes through the stream, so every node's file
// holds the same checkpoint.
int run_checkpoint(const Options &options) {
  CommandWrites command(options, "checkpoint");
  command.writes().submit_or_throw(MakeCheckpoint{true});
  const auto checkpoint = command.store().latest_checkpoint();
  if (!checkpoint) throw std::runtime_error("the checkpoint was not made");
  std::cout << "checkpoint: " << checkpoint->size << " entries, root "
            << merkle::hex(checkpoint->root) << ", signed by "
            << auth::public_key_of(command.keys().log_signing_key()) << "\n";
  return 0;
}

int run_export(const Options &options) {
  require_database(options);
  Store store(options.db);
  const auto json = content_to_json(store.export_content());
  if (options.files.empty()) {
    std::cout << json;
    return 0;
  }
  const auto &path = options.files[0];
  if (exists(path) && !options.force) {
    std::cerr << "verdict: " << path << " exists; pass --force to overwrite it\n";
    return 1;
  }
  // Written beside it and renamed into place: a write that fails (a full disk) leaves no
  // half file at `path`, and an existing one given --force stays whole until the new one is.
  const auto partial = path + ".partial-" + std::to_string(::getpid());
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  if (!out || std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    std::cerr << "verdict: cannot write " << path << "\n";
    return 1;
  }
  return 0;
}

int run_log(const Options &options) {
  require_database(options);
  Store store(options.db);
  const auto page = store.edit_log({options.page, 50});
  if (page.items.empty())
    std::cout << (options.page == 1 ? "Nothing has been changed at the desk yet.\n"
                                    : "The edit log has fewer pages.\n");
  for (const auto &entry : page.items) {
    std::cout << entry.at << "  " << entry.editor << " " << entry.action << " " << entry.kind << " "
              << entry.subject << "\n";
    if (!entry.before.empty()) std::cout << "  before: " << entry.before << "\n";
    if (!entry.after.empty()) std::cout << "  after:  " << entry.after << "\n";
  }
  if (page.has_next) std::cout << "(more: verdict log --page " << options.page + 1 << ")\n";
  return 0;
}

int run(const Options &options, const std::vector<std::string> &args) {
  if (options.command == "help") {
    std::cout << (options.help_topic.empty() ? usage() : usage(options.help_topic));
    return 0;
  }
  if (options.command == "version") {
    std::cout << "verdict " << VERDICT_VERSION << "\n";
    return 0;
  }
  if (options.command == "backup") {
    require_database(options);
    return run_backup(options, std::cerr);
  }
  if (options.command == "check") {
    require_database(options);
    const auto problems = check_database(options.db);
    for (const auto &problem : problems)
      std::cerr << "verdict check: " << problem << "\n";
    if (problems.empty()) std::cout << "ok\n";
    return problems.empty() ? 0 : 1;
  }
  if (options.command == "checkpoint") {
    require_database(options);
    return run_checkpoint(options);
  }
  if (options.command == "verify") {
    VerifyTarget target{options.files.empty() ? "" : options.files[0], options.db};
    if (target.site_url.empty()) require_database(options);
    const char *home = std::getenv("HOME");
    const auto state = !options.state_file.empty() ? options.state_file
                       : home                      ? std::string(home) + "/.verdict-verify.json"
                                                   : std::string(".verdict-verify.json");
    return run_verify(target, state, std::cout, std::cerr, options.max_age_hours);
  }
  if (options.command == "user") {
    require_database(options);
    return run_user_command(options, std::cin, isatty(STDIN_FILENO) == 1, std::cout, std::cerr);
  }
  if (options.command == "cluster" && options.files[0] == "key")
    return run_cluster_key(options, std::cout, std::cerr);
  if (options.command == "cluster") return run_cluster_status(options, std::cout, std::cerr);
  if (options.command == "init")
    return run_init(options, std::cin, isatty(STDIN_FILENO) == 1, std::cerr);
  if (options.command == "import") {
    require_database(options);
    return run_import(options);
  }
  if (options.command == "export") return run_export(options);
  if (options.command == "log") return run_log(options);
  if (options.command == "doctor")
    return run_doctor(
        args, [](const char *name) { return std::getenv(name); }, options, std::cout);
  if (options.command == "digest")
    return run_digest(options, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
  if (options.command == "subscribers") {
    require_database(options);
    std::cout << subscribers_csv(Store(options.db).all_subscribers());
    return 0;
  }
  return serve(options);
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto options = parse_options(args, [](const char *name) { return std::getenv(name); });
  // Started by systemd (INVOCATION_ID) as a user of its own, not root: the owner reading the
  // journal runs the hints' commands as that user.
  std::string service_user;
  if (std::getenv("INVOCATION_ID") && geteuid() != 0)
    if (const auto *user = getpwuid(geteuid())) service_user = user->pw_name;
  if (argc > 0) options.program = program_as_typed(argv[0], std::getenv("PATH"), service_user);
  if (!options.error.empty()) {
    std::cerr << "verdict: " << options.error << "\n\n" << usage(options.command);
    return 2;
  }
  try {
    return run(options, args);
  } catch (const std::exception &e) {
    std::cerr << "verdict: " << e.what() << "\n";
    return 1;
  }
}
