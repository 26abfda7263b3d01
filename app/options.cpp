#include "app/options.h"

#include <algorithm>
#include <charconv>

#include "handlers/request_parsing.h"

namespace verdict {

namespace {

bool parse_int(const std::string &text, int low, int high, int &out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    return false;
  out = value;
  return true;
}

// The site's public address: http(s)://host[:port], without a path; a trailing "/" is dropped.
void set_base_url(Options &options, std::string url, const char *given_as) {
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  const auto scheme_end = url.find("://");
  const auto scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  const auto host = scheme_end == std::string::npos ? "" : url.substr(scheme_end + 3);
  if ((scheme != "http" && scheme != "https") || !is_plain_host(host)) {
    options.error = std::string(given_as) +
                    " must be the site's address, like https://verdict.example (no path)";
    return;
  }
  options.base_url = url;
}

// Every command, with what `verdict help COMMAND` says of it.
struct Command {
  const char *name;
  const char *synopsis; // one line of the overview
  const char *detail;   // what the command's own help adds
};

const std::vector<Command> &commands() {
  static const std::vector<Command> table = {
      {"serve", "verdict [serve] [--db PATH] [--port N] [--bind ADDR] [flags]",
       "Serves the site. A database that does not exist is created with the bundled content.\n"
       "  --db PATH            the site's database (default ./verdict.db; env VERDICT_DB)\n"
       "  --port N             default 8080; 0 picks a free port and prints it (VERDICT_PORT)\n"
       "  --bind ADDR          default 127.0.0.1 (VERDICT_BIND)\n"
       "  --threads N          request workers, 1-4096, default 64 (VERDICT_THREADS)\n"
       "  --rate-limit N       writes per client per minute, default 30; 0 turns it off\n"
       "  --trusted-proxy ADDR the reverse proxy whose X-Forwarded-For names the client\n"
       "  --base-url URL       the site's public address, e.g. https://verdict.example: canonical\n"
       "                       links, the sitemap and robots.txt name it (VERDICT_BASE_URL)\n"
       "  --access-log         one line per request on stderr\n"},
      {"import", "verdict import --db PATH FILE",
       "Applies a content file (JSON, the format `export` writes) in one transaction: rows are\n"
       "matched by slug, created or updated, and nothing is deleted. Says what it created and\n"
       "what it updated. Into a database that does not exist it creates a site holding the\n"
       "file's content only. An invalid file changes nothing; each fault is named by its place.\n"},
      {"export", "verdict export --db PATH [FILE] [--force]",
       "Writes all content as JSON to FILE, or to standard output. An existing FILE is kept\n"
       "unless --force is given.\n"},
      {"check", "verdict check --db PATH",
       "Checks the database's integrity and its keys; prints ok, or each fault and exits 1.\n"},
      {"backup", "verdict backup --db PATH OUT",
       "Writes a consistent copy of the database to OUT (which must not exist) while the site\n"
       "runs.\n"},
      {"user", "verdict user add|list|remove|passwd [EMAIL] --db PATH",
       "Manages the editors who may sign in at /admin.\n"
       "  user add EMAIL       adds an editor (on a new database, made as `serve` makes it)\n"
       "  user list            names every editor\n"
       "  user remove EMAIL    removes an editor and signs them out everywhere\n"
       "  user passwd EMAIL    sets a new password and signs them out everywhere\n"
       "The password is asked twice on the terminal, or read as one line from standard input\n"
       "when that is not a terminal; never from a flag. It must be at least 10 characters.\n"},
      {"subscribers", "verdict subscribers export --db PATH",
       "Writes the weekly digest's subscribers as CSV (email, subscribed_at) to standard\n"
       "output, as a spreadsheet opens it.\n"},
      {"log", "verdict log --db PATH [--page N]",
       "Prints the edit log, newest first, 50 changes a page: when, who, what was done to\n"
       "what, and the item before and after (as the content file writes it).\n"},
      {"help", "verdict help [COMMAND]", "Says how to use verdict, or one of its commands.\n"},
      {"version", "verdict --version", "Prints the version.\n"},
  };
  return table;
}

const Command *command_named(const std::string &name) {
  for (const auto &command : commands())
    if (name == command.name) return &command;
  return nullptr;
}

} // namespace

std::string usage() {
  std::string text;
  for (const auto &command : commands())
    text += (text.empty() ? "Usage: " : "       ") + std::string(command.synopsis) + "\n";
  text += "\n`verdict help COMMAND` (or `verdict COMMAND --help`) says more about one.\n";
  return text;
}

std::string usage(const std::string &name) {
  const auto *command = command_named(name);
  if (!command) return usage();
  return "Usage: " + std::string(command->synopsis) + "\n\n" + command->detail;
}

Options parse_options(const std::vector<std::string> &args,
                      const std::function<const char *(const char *)> &getenv) {
  Options options;
  if (const char *db = getenv("VERDICT_DB")) options.db = db;
  if (const char *bind = getenv("VERDICT_BIND")) options.bind = bind;
  if (const char *base = getenv("VERDICT_BASE_URL"))
    set_base_url(options, base, "VERDICT_BASE_URL");
  if (const char *port = getenv("VERDICT_PORT"); port && !parse_int(port, 0, 65535, options.port))
    options.error = "VERDICT_PORT must be a port number (0-65535; 0 picks a free one)";
  if (const char *threads = getenv("VERDICT_THREADS");
      threads && !parse_int(threads, 1, 4096, options.threads))
    options.error = "VERDICT_THREADS must be a number from 1 to 4096";

  size_t i = 0;
  const bool named = !args.empty() && command_named(args[0]);
  if (named) options.command = args[i++];
  if (options.command == "help") {
    if (i < args.size()) options.help_topic = args[i++];
    if (i < args.size()) options.error = "help takes at most one COMMAND";
    if (!options.help_topic.empty() && !command_named(options.help_topic))
      options.error = "no command " + options.help_topic;
    return options;
  }

  for (; i < args.size() && options.error.empty(); ++i) {
    const auto &arg = args[i];
    const auto value = [&](const char *flag) -> const std::string * {
      if (i + 1 >= args.size()) {
        options.error = std::string(flag) + " needs a value";
        return nullptr;
      }
      return &args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      // `verdict import --help` is `verdict help import`; a bare --help, the overview.
      if (named) options.help_topic = options.command;
      options.command = "help";
      options.error.clear();
      return options;
    } else if (arg == "--version") {
      options.command = "version";
      return options;
    } else if (arg == "--db") {
      if (auto v = value("--db")) options.db = *v;
    } else if (arg == "--bind") {
      if (auto v = value("--bind")) options.bind = *v;
    } else if (arg == "--port") {
      if (auto v = value("--port"); v && !parse_int(*v, 0, 65535, options.port))
        options.error = "--port must be a port number (0-65535; 0 picks a free one)";
    } else if (arg == "--threads") {
      if (auto v = value("--threads"); v && !parse_int(*v, 1, 4096, options.threads))
        options.error = "--threads must be a number from 1 to 4096";
    } else if (arg == "--rate-limit") {
      if (auto v = value("--rate-limit"); v && !parse_int(*v, 0, 1000000, options.rate_limit))
        options.error = "--rate-limit must be a number of writes per minute (0 turns it off)";
    } else if (arg == "--base-url") {
      if (auto v = value("--base-url")) set_base_url(options, *v, "--base-url");
    } else if (arg == "--trusted-proxy") {
      if (auto v = value("--trusted-proxy")) options.trusted_proxy = *v;
    } else if (arg == "--page") {
      if (auto v = value("--page"); v && !parse_int(*v, 1, 10000000, options.page))
        options.error = "--page must be a page number from 1";
    } else if (arg == "--force") {
      options.force = true;
    } else if (arg == "--access-log") {
      options.access_log = true;
    } else if (!arg.empty() && arg[0] == '-') {
      options.error = "unknown flag " + arg;
    } else {
      options.files.push_back(arg);
    }
  }
  if (!options.error.empty()) return options;

  const auto n = options.files.size();
  if (options.command == "serve" && n != 0) options.error = "serve takes no arguments";
  if (options.command == "backup" && n != 1) options.error = "backup needs one OUT file";
  if (options.command == "check" && n != 0) options.error = "check takes no arguments";
  if (options.command == "import" && n != 1) options.error = "import needs one FILE";
  if (options.command == "export" && n > 1) options.error = "export takes at most one FILE";
  if (options.command == "user") {
    static const std::vector<std::string> actions = {"add", "list", "remove", "passwd"};
    if (n == 0 || std::find(actions.begin(), actions.end(), options.files[0]) == actions.end())
      options.error = "user needs one of add, list, remove, passwd";
    else if (options.files[0] == "list" ? n != 1 : n != 2)
      options.error = "user " + options.files[0] +
                      (options.files[0] == "list" ? " takes no EMAIL" : " needs one EMAIL");
    else if (n == 2 && !is_valid_email(options.files[1]))
      options.error = options.files[1] + " is not an email address";
  }
  if (options.command == "log" && n != 0) options.error = "log takes no arguments";
  if (options.command == "subscribers" && (n != 1 || options.files[0] != "export"))
    options.error = "subscribers needs export";
  if (options.page != 1 && options.command != "log") options.error = "--page is only for log";
  if (options.force && options.command != "export") options.error = "--force is only for export";
  return options;
}

} // namespace verdict
