// The command line: `verdict [serve] [flags]`, `verdict backup|check|import|export …`.
// Parsing is a pure function of argv and the environment so every flag is unit-tested.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace verdict {

struct Options {
  std::string command = "serve"; // serve, import, export, check, backup, help, version
  std::string db = "verdict.db";
  std::string bind = "127.0.0.1";
  int port = 8080;
  int threads = 64;
  bool access_log = false;
  int rate_limit = 30;            // writes per client per minute; 0 turns the limit off
  std::string trusted_proxy;      // address of the reverse proxy whose X-Forwarded-For is believed
  std::string base_url;           // the site's public address, for absolute links; may be empty
  std::vector<std::string> files; // command arguments: backup OUT, import FILE, export [FILE]
  bool force = false;             // export: overwrite an existing FILE
  int page = 1;                   // log: which page of the edit log
  std::string help_topic;         // help: the command asked about (empty: all of them)
  std::string error;              // set when the command line is not usable
};

// `getenv` supplies VERDICT_DB, VERDICT_PORT, VERDICT_BIND and VERDICT_THREADS, used when
// the matching flag is absent.
Options parse_options(const std::vector<std::string> &args,
                      const std::function<const char *(const char *)> &getenv);

// Every command in a line each; and one command's whole help.
std::string usage();
std::string usage(const std::string &command);

} // namespace verdict
