#include "app/options.h"

#include <algorithm>
#include <charconv>

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

} // namespace

std::string usage() {
  return "Usage: verdict [serve] [--db PATH] [--port N] [--bind ADDR] [--threads N] "
         "[--access-log]\n"
         "                     [--rate-limit N] [--trusted-proxy ADDR]\n"
         "       verdict backup --db PATH OUT     consistent copy while the site runs\n"
         "       verdict check --db PATH          integrity check; non-zero exit on a fault\n"
         "       verdict import --db PATH FILE    apply a content file (JSON) in one transaction\n"
         "       verdict export --db PATH [FILE]  write all content as JSON\n"
         "       verdict --help | --version\n"
         "\n"
         "Defaults: --db ./verdict.db --port 8080 --bind 127.0.0.1 --threads 64 --rate-limit 30\n"
         "--port 0 picks a free port and prints it. --rate-limit: writes per client per minute\n"
         "(0: off). --trusted-proxy: the reverse proxy whose X-Forwarded-For names the client.\n"
         "Environment (used when the flag is absent): VERDICT_DB, VERDICT_PORT, VERDICT_BIND,\n"
         "VERDICT_THREADS. A database that does not exist is created with the bundled content.\n";
}

Options parse_options(const std::vector<std::string> &args,
                      const std::function<const char *(const char *)> &getenv) {
  Options options;
  if (const char *db = getenv("VERDICT_DB")) options.db = db;
  if (const char *bind = getenv("VERDICT_BIND")) options.bind = bind;
  if (const char *port = getenv("VERDICT_PORT"); port && !parse_int(port, 0, 65535, options.port))
    options.error = "VERDICT_PORT must be a port number (0-65535; 0 picks a free one)";
  if (const char *threads = getenv("VERDICT_THREADS");
      threads && !parse_int(threads, 1, 4096, options.threads))
    options.error = "VERDICT_THREADS must be a number from 1 to 4096";

  size_t i = 0;
  static const std::vector<std::string> commands = {"serve", "backup", "check", "import", "export"};
  if (!args.empty() && std::find(commands.begin(), commands.end(), args[0]) != commands.end())
    options.command = args[i++];

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
      options.command = "help";
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
    } else if (arg == "--trusted-proxy") {
      if (auto v = value("--trusted-proxy")) options.trusted_proxy = *v;
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
  return options;
}

} // namespace verdict
