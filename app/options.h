// The command line: `verdict [serve] [flags]`, `verdict backup|check|import|export …`.
// Parsing is a pure function of argv and the environment so every flag is unit-tested.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace verdict {

struct Options {
  std::string command = "serve"; // serve, import, export, check, backup, digest, help, version…
  // This binary as the owner ran it, for hints that name a command that works where they are:
  // "verdict" when the shell found it on the PATH, else the path they typed ("build/verdict").
  std::string program = "verdict";
  std::string db = "verdict.db";
  bool db_named = false; // --db or VERDICT_DB was given (cluster key carries that site's secrets)
  std::string bind = "127.0.0.1";
  int port = 8080;
  int threads = 64;
  bool access_log = false;
  bool demo = false;   // serve: a missing --db is made with the bundled content (--demo)
  int rate_limit = 30; // writes per client per minute; 0 turns the limit off
  // serve: votes reach the log and the numbers in a batch at the end of each period of this
  // many minutes (docs/NUMBERS.md); 0, each with itself (--publish-votes-every).
  int publish_votes_every_minutes = 60;
  std::string trusted_proxy;      // the reverse proxies whose X-Forwarded-For is believed (a list)
  std::string base_url;           // the site's public address, for absolute links; may be empty
  std::string metrics_token;      // a bearer token that shows /metrics' desk figures; may be empty
  std::vector<std::string> files; // command arguments: backup OUT, import FILE, export [FILE]
  bool force = false;             // export: overwrite an existing FILE
  // init: the bundled example comparisons, tools and reviewers (--example-content) or none
  // (--empty); neither named: asked on a terminal, else none.
  std::optional<bool> example_content;
  std::string backup_folder; // backup: a dated copy into this folder (--into)
  int backups_kept = 14;     // backup --into: the newest copies kept there (--keep)
  std::string editor;        // init: the first editor's address (--editor)
  int page = 1;              // log: which page of the edit log
  std::string help_topic;    // help: the command asked about (empty: all of them)
  // The weekly digest's mail (serve: confirmation mails; digest: the digest).
  std::string smtp_url;           // smtp://HOST:PORT or smtps://HOST:PORT; empty: no mail
  bool smtp_starttls = false;     // smtp:// must switch to TLS (STARTTLS) before anything else
  std::string smtp_user;          // log in as this; the password is VERDICT_SMTP_PASSWORD's
  std::string smtp_password;      // from the environment only, never a flag
  std::string mail_from;          // --from / --smtp-from: the address mails come from
  std::string unsubscribe_mailto; // List-Unsubscribe's mailto: address (default: mail_from)
  int since_days = 0;             // digest: --since Nd or Nh, in whole days
  std::string dry_run_dir;        // digest: write .eml files here instead of sending
  std::string state_file;         // verify: the checkpoints seen before (--state; default in HOME)
  int max_age_hours = 48;         // verify: how old the newest checkpoint may be (--max-age)
  // serve and cluster: the NATS servers of a cluster's stream of writes (--cluster), and
  // serve: this node's name in it (--node). Empty: a lone server, no NATS.
  std::vector<std::string> cluster;
  std::string node;
  // How a node reaches the NATS servers and seals its writes (docs/CLUSTER.md): the cluster's
  // key file (--cluster-key; required with --cluster), a NATS credentials file
  // (--cluster-creds), and TLS: the servers' CA (--cluster-ca) and this node's certificate
  // and key (--cluster-tls-cert, --cluster-tls-key). `cluster key --out FILE` writes a key.
  std::string cluster_key_file, cluster_creds, cluster_ca, cluster_tls_cert, cluster_tls_key;
  std::string key_out; // cluster key: the new key file
  // doctor: the service's settings file (--settings; default /etc/default/verdict), the
  // nightly backups' folder (--backups; default beside the database), and a CA for the site's
  // certificate instead of the system's (--tls-ca: a private CA).
  std::string settings_file, backups_folder, tls_ca;
  std::string error; // set when the command line is not usable
};

// `getenv` supplies VERDICT_DB, VERDICT_PORT, VERDICT_BIND, VERDICT_THREADS, VERDICT_BASE_URL,
// VERDICT_PUBLISH_VOTES_EVERY, VERDICT_METRICS_TOKEN, VERDICT_CLUSTER, VERDICT_NODE and the mail's
// VERDICT_SMTP* variables, used when the matching flag is absent; VERDICT_SMTP_PASSWORD is the only
// way to give the SMTP password.
Options parse_options(const std::vector<std::string> &args,
                      const std::function<const char *(const char *)> &getenv);

// The binary as the owner types it to run another command where they are, for hints: the
// name alone when `path_variable` (PATH) finds this very file under it (`/usr/bin/verdict` →
// `verdict`), else `argv0` as typed (`build/verdict`); led by `sudo -u USER ` when the site
// runs as a service's own user (`service_user` non-empty), whose files the owner's commands
// must be run as.
std::string program_as_typed(const std::string &argv0, const char *path_variable,
                             const std::string &service_user);

// Whether `url` (scheme://host[:port]…) names this machine: 127.0.0.1, localhost or [::1].
bool is_this_machine(const std::string &url);

// Every command in a line each; and one command's whole help.
std::string usage();
std::string usage(const std::string &command);

} // namespace verdict
