// The command line and the environment: every command, every flag and its variable, each
// checked once into Options with the words a mistake gets. Over 500 lines because the
// commands' table (commands()) is the binary's whole usage text, kept beside the checks that
// hold it to its word; each flag's parser is a short function above it.
#include "app/options.h"

#include "base/addresses.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "cluster/write_stream.h"
#include "domain/subscription.h"
#include "middleware/request_parsing.h"

namespace verdict {

namespace {

constexpr const char *kPublishEveryError =
    "--publish-votes-every must be a number of minutes from 1 to 1440 (0 publishes each vote at "
    "once)";

bool parse_int(const std::string &text, int low, int high, int &out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    return false;
  out = value;
  return true;
}

// The site's public address: http(s)://host[:port], without a path; a trailing "/" is dropped.
// One or more reverse proxies, addresses or networks (base/addresses.h), checked now so a
// typing mistake stops the start instead of leaving every reader at the proxy's address.
void set_trusted_proxy(Options &options, const std::string &list, const char *given_as) {
  try {
    TrustedProxies{list};
    options.trusted_proxy = list;
  } catch (const std::invalid_argument &e) {
    options.error = std::string(given_as) + ": " + e.what();
  }
}

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

// A bearer token for /metrics: long enough not to be guessed, and only characters a header
// carries as they are.
void set_metrics_token(Options &options, const std::string &token, const char *given_as) {
  const bool plain =
      std::all_of(token.begin(), token.end(), [](char c) { return c > ' ' && c < 127; });
  if (token.size() < 16 || token.size() > 256 || !plain) {
    options.error = std::string(given_as) +
                    " must be 16 to 256 visible characters, no spaces (e.g. openssl rand -hex 32)";
    return;
  }
  options.metrics_token = token;
}

// A cluster's NATS servers: nats://[USER:PASSWORD@]HOST:PORT (or tls://), comma-separated,
// each named once.
void set_cluster(Options &options, const std::string &urls, const char *given_as) {
  std::vector<std::string> servers;
  size_t start = 0;
  for (;;) {
    const auto comma = urls.find(',', start);
    const auto url =
        urls.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto scheme = url.starts_with("nats://") ? 7u : url.starts_with("tls://") ? 6u : 0u;
    // The host starts after the user and password, when given.
    const auto at = url.rfind('@');
    const auto host = at == std::string::npos ? scheme : at + 1;
    const auto colon = url.rfind(':');
    const bool port_ok = colon != std::string::npos && colon + 1 < url.size() &&
                         std::all_of(url.begin() + static_cast<long>(colon) + 1, url.end(),
                                     [](char c) { return c >= '0' && c <= '9'; });
    if (scheme == 0 || (at != std::string::npos && at < scheme + 1) || colon <= host || !port_ok ||
        std::any_of(url.begin(), url.end(), [](char c) { return c <= ' ' || c >= 127; })) {
      options.error = std::string(given_as) +
                      " must be nats://[USER:PASSWORD@]HOST:PORT (or tls://…), or several "
                      "joined by commas; \"" +
                      cluster::without_password(url) + "\" is not one";
      return;
    }
    if (std::find(servers.begin(), servers.end(), url) == servers.end()) servers.push_back(url);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  options.cluster = servers;
}

// A node's name: what `verdict cluster status` lists it by, and part of each write's id.
void set_node(Options &options, const std::string &name, const char *given_as) {
  const bool plain = !name.empty() && name.size() <= 64 && name.front() != '-' &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                     });
  if (!plain) {
    options.error = std::string(given_as) +
                    " must be 1 to 64 of a-z, 0-9 and -, not starting with -, like web-1";
    return;
  }
  options.node = name;
}

// The SMTP server: smtp://host[:port] (STARTTLS with --smtp-starttls) or smtps://host[:port].
void set_smtp_url(Options &options, const std::string &url, const char *given_as) {
  const auto scheme_end = url.find("://");
  const auto scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  auto host = scheme_end == std::string::npos ? "" : url.substr(scheme_end + 3);
  if (!host.empty() && host.back() == '/') host.pop_back();
  if ((scheme != "smtp" && scheme != "smtps") || !is_plain_host(host)) {
    options.error = std::string(given_as) +
                    " must be the mail server's address, like smtp://127.0.0.1:25 or "
                    "smtps://mail.example:465";
    return;
  }
  options.smtp_url = scheme + "://" + host;
}

void set_address(Options &options, std::string &field, const std::string &address,
                 const char *given_as) {
  if (!is_valid_email(address)) {
    options.error = std::string(given_as) + " must be an email address";
    return;
  }
  field = address;
}

} // namespace

bool is_this_machine(const std::string &url) {
  const auto host = url.substr(url.find("://") + 3);
  for (const auto *local : {"127.0.0.1", "localhost", "[::1]"})
    if (host == local || host.rfind(std::string(local) + ":", 0) == 0) return true;
  return false;
}

namespace {

// Links in mails: RFC 8058's one-click unsubscribe is for https addresses only, so a site
// that mails is https, but for a site on this machine (a test, a look before going live).
bool mail_links_may_use(const std::string &base_url) {
  return base_url.rfind("https://", 0) == 0 || is_this_machine(base_url);
}
constexpr const char *kMailNeedsHttps =
    "--base-url must be https:// for mail: one-click unsubscribe (RFC 8058) takes https "
    "addresses only (http:// only for 127.0.0.1, localhost or [::1])";

// Every missing option said at once, not one a run: "WHO needs A; B; and C".
std::string needs(const std::string &who, const std::vector<std::string> &missing) {
  auto said = who + " needs " + missing.front();
  for (size_t more = 1; more < missing.size(); ++more)
    said += (more + 1 == missing.size() ? "; and " : "; ") + missing[more];
  return said;
}

// What serve and digest refuse in the mail server's login: a user without its password, a
// password without its user, or a password that would cross the network unencrypted (plain
// smtp:// to another machine without --smtp-starttls). Empty when the login is sound.
std::string mail_login_fault(const Options &options) {
  if (!options.smtp_user.empty() && options.smtp_password.empty())
    return "--smtp-user needs its password in VERDICT_SMTP_PASSWORD (never a flag)";
  if (!options.smtp_password.empty() && options.smtp_user.empty())
    return "VERDICT_SMTP_PASSWORD is set but no --smtp-user (VERDICT_SMTP_USER) to log in";
  if (!options.smtp_user.empty() && !options.smtp_starttls &&
      options.smtp_url.rfind("smtp://", 0) == 0 && !is_this_machine(options.smtp_url))
    return "--smtp-user would send the password unencrypted: use smtps:// or "
           "--smtp-starttls (plain smtp:// only to a server on this machine)";
  return {};
}

// Every command, with what `verdict help COMMAND` says of it.
struct Command {
  const char *name;
  const char *synopsis; // how it is called
  const char *detail;   // what the command's own help adds
  const char *summary;  // what it does, in one line of the overview
};

const std::vector<Command> &commands() {
  static const std::vector<Command> table = {
      {"serve", "verdict [serve] [--db PATH] [--port N] [--bind ADDR] [flags]",
       "Serves the site in --db. A missing file is an error (a site that was there is never\n"
       "replaced by an empty one): make a site with `verdict init`, or ask for the demo.\n"
       "  --db PATH            the site's database (default ./verdict.db; env VERDICT_DB)\n"
       "  --demo               when there is no file at all, make one with the bundled content\n"
       "  --port N             default 8080; 0 picks a free port and prints it (VERDICT_PORT)\n"
       "  --bind ADDR          default 127.0.0.1 (VERDICT_BIND)\n"
       "  --threads N          request workers, 1-4096, default 64 (VERDICT_THREADS)\n"
       "  --rate-limit N       writes per client per minute, default 30; 0 turns it off\n"
       "  --publish-votes-every MINUTES  votes join the vote log and the numbers together, in\n"
       "                       a shuffled batch, at the end of each period: default 60 (on the\n"
       "                       hour), 1-1440; 0 publishes each vote at once, in the order they\n"
       "                       came, which lets the log's order link one reader's votes\n"
       "                       (VERDICT_PUBLISH_VOTES_EVERY)\n"
       "  --trusted-proxy LIST the reverse proxies whose X-Forwarded-For names the client:\n"
       "                       addresses or networks, comma-separated, e.g. 127.0.0.1 or\n"
       "                       10.0.0.0/8,2001:db8::/32 (VERDICT_TRUSTED_PROXY)\n"
       "  --base-url URL       the site's public address, e.g. https://verdict.example: canonical\n"
       "                       links, the sitemap and robots.txt name it (VERDICT_BASE_URL)\n"
       "  --access-log         one line per request on stderr\n"
       "  --metrics-token T    /metrics shows the desk's figures to `Authorization: Bearer T`\n"
       "                       (16+ characters; better VERDICT_METRICS_TOKEN, which ps cannot\n"
       "                       show); without it only to requests from this machine\n"
       "The weekly digest's confirmation mails (without --smtp a sign-up is kept as pending):\n"
       "  --smtp URL           smtp://HOST:PORT or smtps://HOST:PORT (VERDICT_SMTP); needs\n"
       "                       --smtp-from and --base-url\n"
       "  --smtp-from ADDR     the address mails come from (VERDICT_SMTP_FROM)\n"
       "  --smtp-starttls      switch smtp:// to TLS before anything is sent "
       "(VERDICT_SMTP_STARTTLS=1)\n"
       "  --smtp-user USER     log in as USER (VERDICT_SMTP_USER); the password is read from\n"
       "                       VERDICT_SMTP_PASSWORD only, never a flag\n"
       "  --unsubscribe-mailto ADDR  the mailbox List-Unsubscribe's mailto: names (default:\n"
       "                       --smtp-from; VERDICT_UNSUBSCRIBE_MAILTO)\n"
       "One node of a cluster (docs/CLUSTER.md): every node serves reads from its own --db, a\n"
       "copy of one site's file, and every write goes through NATS JetStream to all of them:\n"
       "  --cluster URLS       nats://USER:PASSWORD@HOST:PORT[,…] (or tls://…), the NATS\n"
       "                       servers (VERDICT_CLUSTER; keep the password out of ps: set it "
       "there)\n"
       "  --node NAME          this node's name in the cluster, a-z 0-9 and - (VERDICT_NODE)\n"
       "  --cluster-key FILE   the cluster's key, from `verdict cluster key`: every write is\n"
       "                       sealed with it (VERDICT_CLUSTER_KEY; required)\n"
       "  --cluster-creds FILE a NATS credentials file instead of a password "
       "(VERDICT_CLUSTER_CREDS)\n"
       "  --cluster-ca FILE    the CA of the NATS servers' certificates: TLS, and a server it\n"
       "                       did not sign is refused (VERDICT_CLUSTER_CA)\n"
       "  --cluster-tls-cert FILE, --cluster-tls-key FILE   this node's certificate, for servers\n"
       "                       that ask for one (VERDICT_CLUSTER_TLS_CERT, "
       "VERDICT_CLUSTER_TLS_KEY)\n",
       "serve the site (the command when none is named)"},
      {"cluster",
       "verdict cluster status --cluster URLS --cluster-key FILE | verdict cluster key --out FILE "
       "[--db PATH]",
       "status: says how far each node of the cluster has applied the stream of writes: its\n"
       "applied sequence, its lag behind the stream's last write, when it last said so, the\n"
       "entries it skipped as not sealed with the cluster's key, and what stops it, if anything;\n"
       "a report that does not open with the cluster's key is shown as forged. It makes nothing.\n"
       "  --cluster URLS       nats://[USER:PASSWORD@]HOST:PORT[,…], the cluster's NATS servers\n"
       "                       (VERDICT_CLUSTER), with --cluster-creds, --cluster-ca as for serve\n"
       "  --cluster-key FILE   the cluster's key, to check each report (VERDICT_CLUSTER_KEY)\n"
       "key: writes a new cluster key to FILE (mode 600; never over an existing file), to copy\n"
       "to every node as --cluster-key. With --db PATH, the site's own secrets go into it, so a\n"
       "site served alone before keeps its readers' links and its vote log's signing key.\n",
       "say how far each node of a cluster has applied its writes"},
      {"init", "verdict init --db PATH [--empty | --example-content] [--editor EMAIL]",
       "Makes a new site at PATH, which must not exist yet, and its first editor: empty (the\n"
       "site's name and copy only), or with the bundled example comparisons, tools and\n"
       "reviewers when --example-content is given (asked on a terminal when neither is). The\n"
       "editor's address is --editor EMAIL, or asked for on a terminal (left empty: none yet);\n"
       "the password is asked twice on the terminal, or read as one line from standard input.\n"
       "Every other command refuses a file that is not there. Then `verdict serve --db PATH`.\n"
       "  --empty              no example content: the front page says nothing is published yet\n"
       "  --example-content    the bundled examples, to try the site out (not for production)\n"
       "  --editor EMAIL       the first editor, who signs in at /admin\n",
       "make a new site (empty, or the examples) and its first editor"},
      {"import", "verdict import --db PATH FILE",
       "Applies a content file (JSON, the format `export` writes) in one transaction: rows are\n"
       "matched by slug, created or updated, and nothing is deleted. Says what it created and\n"
       "what it updated. Into a database that does not exist it creates a site holding the\n"
       "file's content only. An invalid file changes nothing; each fault is named by its place.\n"
       "On a node of a cluster, --cluster URLS --node NAME (or VERDICT_CLUSTER, VERDICT_NODE)\n"
       "send it through the cluster to every node.\n",
       "apply a content file (JSON) to the database"},
      {"export", "verdict export --db PATH [FILE] [--force]",
       "Writes all content as JSON to FILE, or to standard output. An existing FILE is kept\n"
       "unless --force is given.\n",
       "write all content as JSON"},
      {"check", "verdict check --db PATH",
       "Checks the database's integrity and its keys; prints ok, or each fault and exits 1.\n",
       "check the database's integrity and keys"},
      {"checkpoint", "verdict checkpoint --db PATH",
       "Signs a checkpoint of the vote log now (its size and root; /transparency), as the site\n"
       "does once a day on its own. Safe while the site serves. On a node of a cluster,\n"
       "--cluster URLS --node NAME (or VERDICT_CLUSTER, VERDICT_NODE) send it through the\n"
       "cluster, and every node's file holds it.\n",
       "sign a checkpoint of the vote log now"},
      {"verify", "verdict verify (URL | --db PATH) [--state FILE] [--max-age HOURS]",
       "Checks that the published numbers are what the vote log says, reading the site at URL\n"
       "(http:// or https://: its API and /transparency, as any reader can) or its database\n"
       "file: the latest checkpoint's signature, that the log makes its root, that the log\n"
       "seen last time (kept in FILE, default ~/.verdict-verify.json) is the start of the log\n"
       "now under the same key, and that replaying the log gives every tool's and published\n"
       "pair's community numbers, each read at a log no smaller than the newest checkpoint (once\n"
       "it is a minute old) or the one seen before, and the log's leaves 0 onwards with none\n"
       "left out. It says how old the newest checkpoint is and how many\n"
       "entries none covers yet; a site that shows no checkpoint, or an older or smaller one,\n"
       "than the one seen before is a fault, and so is a newest checkpoint older than HOURS\n"
       "(default 48; one is made daily) with entries after it. Names each fault and exits 1;\n"
       "exits 2 when the site could not be read, 0 when everything agrees.\n",
       "check that published numbers are what the vote log says"},
      {"backup", "verdict backup --db PATH (OUT | --into DIR [--keep N])",
       "Writes a consistent copy of the database to OUT (which must not exist) while the site\n"
       "runs. With --into, the copy is DIR/verdict-YYYYMMDD-HHMMSS.db (UTC; DIR is made if\n"
       "need be), checked as `verdict check` does (a copy that fails is removed, exit 1), and\n"
       "only the newest N copies there are kept: what a nightly timer runs.\n"
       "  --into DIR           the folder of dated copies\n"
       "  --keep N             how many to keep, 1-10000, default 14 (VERDICT_BACKUP_KEEP)\n",
       "write a consistent copy of the database while the site runs"},
      {"user", "verdict user add|list|remove|passwd [EMAIL] --db PATH",
       "Manages the editors who may sign in at /admin.\n"
       "  user add EMAIL       adds an editor (to a site `init` made: a path with none is "
       "refused)\n"
       "  user list            names every editor\n"
       "  user remove EMAIL    removes an editor and signs them out everywhere\n"
       "  user passwd EMAIL    sets a new password and signs them out everywhere\n"
       "The password is asked twice on the terminal, or read as one line from standard input\n"
       "when that is not a terminal; never from a flag. It must be at least 10 characters.\n"
       "On a node of a cluster, --cluster URLS --node NAME (or VERDICT_CLUSTER, VERDICT_NODE)\n"
       "send the change through the cluster to every node.\n",
       "add, list, remove editors or set their passwords"},
      {"subscribers", "verdict subscribers export --db PATH",
       "Writes the weekly digest's subscribers as CSV (email, subscribed_at, status: pending,\n"
       "confirmed or unsubscribed) to standard output, as a spreadsheet opens it.\n",
       "export the digest's subscribers as CSV"},
      {"digest",
       "verdict digest --db PATH --since 7d --base-url URL --from ADDR (--smtp URL | --dry-run "
       "DIR)",
       "Mails the comparisons published in the last days (--since 7d, or 48h: whole days,\n"
       "today included) to every confirmed subscriber: titles, the verdict at a glance and\n"
       "links under --base-url, as plain text and HTML, with a one-click unsubscribe. A\n"
       "digest is recorded when first made, with who is owed it; running again (after a\n"
       "failure, say) first finishes that digest as it was made, for those still owed it, and\n"
       "only then makes a new one, of what no digest held. Nobody gets a comparison twice.\n"
       "Exits 1 if any send failed, saying how many. Nothing new: says so and sends nothing.\n"
       "  --since Nd|Nh        how far back to look (required)\n"
       "  --base-url URL       the site's public address, https:// (http:// only on this\n"
       "                       machine); links in mails are absolute (VERDICT_BASE_URL)\n"
       "  --from ADDR          the address mails come from (also --smtp-from; VERDICT_SMTP_FROM)\n"
       "  --smtp URL           smtp://HOST:PORT or smtps://HOST:PORT (VERDICT_SMTP)\n"
       "  --smtp-starttls, --smtp-user USER, --unsubscribe-mailto ADDR   as for serve; the\n"
       "                       password is read from VERDICT_SMTP_PASSWORD only\n"
       "  --dry-run DIR        write one .eml file per recipient into DIR instead of sending;\n"
       "                       records nothing\n"
       "  --cluster URLS, --node NAME   on a node of a cluster (as for serve): the run's\n"
       "                       records go through the cluster, so whichever node runs it, the\n"
       "                       digest is made and sent once\n",
       "mail the weekly digest (or write it to a folder)"},
      {"log", "verdict log --db PATH [--page N]",
       "Prints the edit log, newest first, 50 changes a page: when, who, what was done to\n"
       "what, and the item before and after (as the content file writes it).\n",
       "print the desk's edit log"},
      {"doctor", "verdict doctor [--settings FILE] [--backups DIR] [--tls-ca FILE]",
       "Looks over a running install with the settings the service reads: the environment,\n"
       "then FILE (default /etc/default/verdict, root's alone: run `sudo verdict doctor`) for\n"
       "what the environment leaves unset. Says of each thing ok, or what is wrong and what to\n"
       "do: the database (integrity and keys), the site answering on its port, its public\n"
       "address and, when https, its certificate (a problem under 14 days left), the vote\n"
       "log's newest checkpoint (older than 48 h with entries after it), the newest backup\n"
       "(none, or older than 36 h), the mail server (reached, logged in to, asked NOOP;\n"
       "nothing is sent), the cluster's nodes when VERDICT_CLUSTER is set (quiet over 10 s,\n"
       "stuck, 1000 writes behind, or skipping entries not sealed with the key), and the disk\n"
       "(under 1 GiB or twice the database free). Writes nothing. Exits 1 on any problem.\n"
       "  --settings FILE      the settings file the service reads (EnvironmentFile=)\n"
       "  --backups DIR        the nightly copies' folder (default: backups/ beside the database)\n"
       "  --tls-ca FILE        the CA to trust for the site's certificate instead of the system's\n"
       "  --db PATH, --port N, --bind ADDR, --base-url URL   as for serve, over the settings\n",
       "look over a running install: each thing ok, or what to do"},
      {"help", "verdict help [COMMAND]", "Says how to use verdict, or one of its commands.\n",
       "say how to use verdict, or one command"},
      {"version", "verdict --version", "Prints the version.\n", "print the version"},
  };
  return table;
}

const Command *command_named(const std::string &name) {
  for (const auto &command : commands())
    if (name == command.name) return &command;
  return nullptr;
}

} // namespace

std::string program_as_typed(const std::string &argv0, const char *path_variable,
                             const std::string &service_user) {
  namespace fs = std::filesystem;
  const auto name = fs::path(argv0).filename().string();
  // Without a '/', the shell found it on the PATH already.
  std::string program = argv0.find('/') == std::string::npos ? name : argv0;
  if (program != name && path_variable) {
    const std::string_view folders = path_variable;
    for (size_t start = 0; start <= folders.size();) {
      const auto end = std::min(folders.find(':', start), folders.size());
      const auto folder = folders.substr(start, end - start);
      std::error_code unknown;
      if (!folder.empty() && fs::equivalent(fs::path(folder) / name, argv0, unknown)) {
        program = name;
        break;
      }
      start = end + 1;
    }
  }
  if (program.empty()) program = "verdict";
  return service_user.empty() ? program : "sudo -u " + service_user + " " + program;
}

std::string usage() {
  size_t widest = 0;
  for (const auto &command : commands())
    widest = std::max(widest, std::string_view(command.name).size());
  std::string text = "Usage: verdict [COMMAND] [flags]\n\nCommands:\n";
  for (const auto &command : commands()) {
    const std::string name = command.name;
    text += "  " + name + std::string(widest + 2 - name.size(), ' ') + command.summary + "\n";
  }
  text += "\n`verdict help COMMAND` (or `verdict COMMAND --help`) says how to call one.\n";
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
  // A variable set to nothing (an environment file's line left blank) is as if unset.
  const auto env = [&getenv](const char *name) -> const char * {
    const char *value = getenv(name);
    return value && *value ? value : nullptr;
  };
  if (const char *db = env("VERDICT_DB")) {
    options.db = db;
    options.db_named = true;
  }
  if (const char *bind = env("VERDICT_BIND")) options.bind = bind;
  if (const char *base = env("VERDICT_BASE_URL")) set_base_url(options, base, "VERDICT_BASE_URL");
  if (const char *port = env("VERDICT_PORT"); port && !parse_int(port, 0, 65535, options.port))
    options.error = "VERDICT_PORT must be a port number (0-65535; 0 picks a free one)";
  if (const char *token = env("VERDICT_METRICS_TOKEN"))
    set_metrics_token(options, token, "VERDICT_METRICS_TOKEN");
  if (const char *smtp = env("VERDICT_SMTP")) set_smtp_url(options, smtp, "VERDICT_SMTP");
  if (const char *from = env("VERDICT_SMTP_FROM"))
    set_address(options, options.mail_from, from, "VERDICT_SMTP_FROM");
  if (const char *mailto = env("VERDICT_UNSUBSCRIBE_MAILTO"))
    set_address(options, options.unsubscribe_mailto, mailto, "VERDICT_UNSUBSCRIBE_MAILTO");
  if (const char *user = env("VERDICT_SMTP_USER")) options.smtp_user = user;
  if (const char *password = env("VERDICT_SMTP_PASSWORD")) options.smtp_password = password;
  if (const char *starttls = env("VERDICT_SMTP_STARTTLS"))
    options.smtp_starttls = std::string(starttls) == "1";
  if (const char *proxy = env("VERDICT_TRUSTED_PROXY"))
    set_trusted_proxy(options, proxy, "VERDICT_TRUSTED_PROXY");
  if (const char *cluster = env("VERDICT_CLUSTER"))
    set_cluster(options, cluster, "VERDICT_CLUSTER");
  if (const char *node = env("VERDICT_NODE")) set_node(options, node, "VERDICT_NODE");
  if (const char *key = env("VERDICT_CLUSTER_KEY")) options.cluster_key_file = key;
  if (const char *creds = env("VERDICT_CLUSTER_CREDS")) options.cluster_creds = creds;
  if (const char *ca = env("VERDICT_CLUSTER_CA")) options.cluster_ca = ca;
  if (const char *cert = env("VERDICT_CLUSTER_TLS_CERT")) options.cluster_tls_cert = cert;
  if (const char *key = env("VERDICT_CLUSTER_TLS_KEY")) options.cluster_tls_key = key;
  if (const char *keep = env("VERDICT_BACKUP_KEEP");
      keep && !parse_int(keep, 1, 10000, options.backups_kept))
    options.error = "VERDICT_BACKUP_KEEP must be a number of copies from 1 to 10000";
  if (const char *every = env("VERDICT_PUBLISH_VOTES_EVERY");
      every && !parse_int(every, 0, 1440, options.publish_votes_every_minutes))
    options.error = "VERDICT_PUBLISH_VOTES_EVERY must be a number of minutes from 1 to 1440 (0 "
                    "publishes each vote at once)";
  if (const char *threads = env("VERDICT_THREADS");
      threads && !parse_int(threads, 1, 4096, options.threads))
    options.error = "VERDICT_THREADS must be a number from 1 to 4096";

  size_t i = 0;
  const bool named = !args.empty() && command_named(args[0]);
  if (named) options.command = args[i++];
  if (!named && !args.empty() && !args[0].starts_with("-")) {
    options.error = "unknown command " + args[0];
    options.command.clear(); // its usage is the overview of every command
    return options;
  }
  if (options.command == "help") {
    if (i < args.size()) options.help_topic = args[i++];
    if (i < args.size()) options.error = "help takes at most one COMMAND";
    if (!options.help_topic.empty() && !command_named(options.help_topic))
      options.error = "no command " + options.help_topic;
    return options;
  }

  // The first of each given, for "only for" errors.
  std::string mail_flag, digest_flag, serve_flag, init_flag, keep_flag, cluster_flag, max_age_flag,
      doctor_flag;
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
      options.db_named = true;
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
    } else if (arg == "--publish-votes-every") {
      serve_flag = arg;
      if (auto v = value("--publish-votes-every");
          v && !parse_int(*v, 0, 1440, options.publish_votes_every_minutes))
        options.error = kPublishEveryError;
    } else if (arg == "--base-url") {
      if (auto v = value("--base-url")) set_base_url(options, *v, "--base-url");
    } else if (arg == "--metrics-token") {
      serve_flag = arg;
      if (auto v = value("--metrics-token")) set_metrics_token(options, *v, "--metrics-token");
    } else if (arg == "--trusted-proxy") {
      if (auto v = value("--trusted-proxy")) set_trusted_proxy(options, *v, "--trusted-proxy");
    } else if (arg == "--cluster") {
      cluster_flag = arg;
      if (auto v = value("--cluster")) set_cluster(options, *v, "--cluster");
    } else if (arg == "--node") {
      cluster_flag = arg;
      if (auto v = value("--node")) set_node(options, *v, "--node");
    } else if (arg == "--cluster-key" || arg == "--cluster-creds" || arg == "--cluster-ca" ||
               arg == "--cluster-tls-cert" || arg == "--cluster-tls-key") {
      cluster_flag = arg;
      auto &file = arg == "--cluster-key"        ? options.cluster_key_file
                   : arg == "--cluster-creds"    ? options.cluster_creds
                   : arg == "--cluster-ca"       ? options.cluster_ca
                   : arg == "--cluster-tls-cert" ? options.cluster_tls_cert
                                                 : options.cluster_tls_key;
      if (auto v = value(arg.c_str())) file = *v;
    } else if (arg == "--settings" || arg == "--backups" || arg == "--tls-ca") {
      doctor_flag = arg;
      auto &file = arg == "--settings"  ? options.settings_file
                   : arg == "--backups" ? options.backups_folder
                                        : options.tls_ca;
      if (auto v = value(arg.c_str())) file = *v;
    } else if (arg == "--out") {
      if (auto v = value("--out")) options.key_out = *v;
    } else if (arg == "--page") {
      if (auto v = value("--page"); v && !parse_int(*v, 1, 10000000, options.page))
        options.error = "--page must be a page number from 1";
    } else if (arg == "--smtp") {
      mail_flag = arg;
      if (auto v = value("--smtp")) set_smtp_url(options, *v, "--smtp");
    } else if (arg == "--from" || arg == "--smtp-from") {
      mail_flag = arg;
      if (auto v = value(arg.c_str())) set_address(options, options.mail_from, *v, arg.c_str());
    } else if (arg == "--unsubscribe-mailto") {
      mail_flag = arg;
      if (auto v = value("--unsubscribe-mailto"))
        set_address(options, options.unsubscribe_mailto, *v, "--unsubscribe-mailto");
    } else if (arg == "--smtp-user") {
      mail_flag = arg;
      if (auto v = value("--smtp-user")) options.smtp_user = *v;
    } else if (arg == "--smtp-starttls") {
      mail_flag = arg;
      options.smtp_starttls = true;
    } else if (arg == "--since") {
      digest_flag = arg;
      const auto v = value("--since");
      const auto days = v ? digest_days(*v) : std::nullopt;
      if (v && !days)
        options.error = "--since must be days or hours, like 7d or 48h (at most 366 days)";
      if (days) options.since_days = *days;
    } else if (arg == "--dry-run") {
      digest_flag = arg;
      if (auto v = value("--dry-run")) options.dry_run_dir = *v;
    } else if (arg == "--state") {
      if (auto v = value("--state")) options.state_file = *v;
    } else if (arg == "--max-age") {
      max_age_flag = arg;
      if (auto v = value("--max-age"); v && !parse_int(*v, 1, 24 * 365, options.max_age_hours))
        options.error = "--max-age must be a number of hours from 1 to 8760";
    } else if (arg == "--force") {
      options.force = true;
    } else if (arg == "--into") {
      if (auto v = value("--into")) options.backup_folder = *v;
    } else if (arg == "--keep") {
      keep_flag = arg;
      if (auto v = value("--keep"); v && !parse_int(*v, 1, 10000, options.backups_kept))
        options.error = "--keep must be a number of copies from 1 to 10000";
    } else if (arg == "--empty" || arg == "--example-content") {
      const bool examples = arg == "--example-content";
      if (options.example_content && *options.example_content != examples)
        options.error = "--empty and --example-content ask for two different sites: name one";
      init_flag = arg;
      options.example_content = examples;
    } else if (arg == "--editor") {
      init_flag = arg;
      if (auto v = value("--editor")) options.editor = *v;
    } else if (arg == "--access-log") {
      options.access_log = true;
    } else if (arg == "--demo") {
      serve_flag = arg;
      options.demo = true;
    } else if (!arg.empty() && arg[0] == '-') {
      options.error = "unknown flag " + arg;
    } else {
      options.files.push_back(arg);
    }
  }
  if (!options.error.empty()) return options;

  const auto n = options.files.size();
  if (options.command == "serve" && n != 0) options.error = "serve takes no arguments";
  if (options.command == "backup" && options.backup_folder.empty() && n != 1)
    options.error = "backup needs one OUT file, or --into DIR";
  if (options.command == "backup" && !options.backup_folder.empty() && n != 0)
    options.error = "backup writes to OUT or --into DIR, not both";
  if (!options.backup_folder.empty() && options.command != "backup")
    options.error = "--into is only for backup";
  if (!keep_flag.empty() && options.backup_folder.empty())
    options.error = "--keep is only for backup --into DIR";
  if (options.command == "init" && n != 0)
    options.error = "init takes no arguments";
  else if (options.command == "init" && !options.db_named)
    options.error = "init needs --db PATH, the new site's file: it makes none you did not name";
  if (!init_flag.empty() && options.command != "init")
    options.error = init_flag + " is only for init";
  if (options.command == "init" && !options.editor.empty() && !is_valid_email(options.editor))
    options.error = options.editor + " is not an email address";
  if (options.command == "check" && n != 0) options.error = "check takes no arguments";
  if (options.command == "checkpoint" && n != 0) options.error = "checkpoint takes no arguments";
  if (options.command == "verify" && n > 1)
    options.error = "verify reads one site, at its address (verdict verify "
                    "https://verdict.example) or from its file (verdict verify --db PATH)";
  if (options.command == "verify" && n == 1) {
    Options address; // checked as --base-url is, without touching the site's own
    set_base_url(address, options.files[0], "verify's URL");
    options.error = address.error;
    options.files[0] = address.base_url;
  }
  if (!max_age_flag.empty() && options.command != "verify")
    options.error = "--max-age is only for verify";
  if (!options.state_file.empty() && options.command != "verify")
    options.error = "--state is only for verify";
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
  if (options.command == "doctor" && n != 0) options.error = "doctor takes no arguments";
  if (!doctor_flag.empty() && options.command != "doctor")
    options.error = doctor_flag + " is only for doctor";
  if (options.command == "subscribers" && (n != 1 || options.files[0] != "export"))
    options.error = "subscribers needs export";
  if (options.command == "digest") {
    // Every missing option said at once, not one a run.
    std::vector<std::string> missing;
    if (options.since_days == 0) missing.push_back("--since, like --since 7d");
    if (options.base_url.empty())
      missing.push_back("--base-url (or VERDICT_BASE_URL): links in mails must be absolute");
    if (options.mail_from.empty())
      missing.push_back("--from ADDR (or VERDICT_SMTP_FROM), the address mails come from");
    if (options.smtp_url.empty() && options.dry_run_dir.empty())
      missing.push_back("--smtp smtp://HOST:PORT (or VERDICT_SMTP), or --dry-run DIR to write "
                        "the mails as files");
    if (n != 0)
      options.error = "digest takes no arguments";
    else if (!missing.empty())
      options.error = needs("digest", missing);
    else if (!mail_links_may_use(options.base_url))
      options.error = kMailNeedsHttps;
  }
  if (options.command == "serve" && !options.smtp_url.empty()) {
    std::vector<std::string> missing;
    if (options.mail_from.empty())
      missing.push_back("--smtp-from ADDR (or VERDICT_SMTP_FROM), the address confirmation "
                        "mails come from");
    if (options.base_url.empty())
      missing.push_back("--base-url (or VERDICT_BASE_URL): the link in a confirmation mail "
                        "must be absolute");
    if (!missing.empty())
      options.error = needs("--smtp", missing);
    else if (!mail_links_may_use(options.base_url))
      options.error = kMailNeedsHttps;
  }
  if ((options.command == "serve" || options.command == "digest") && options.error.empty() &&
      !options.smtp_url.empty())
    options.error = mail_login_fault(options);
  if (!mail_flag.empty() && options.command != "serve" && options.command != "digest")
    options.error = mail_flag + " is only for serve and digest";
  if (!digest_flag.empty() && options.command != "digest")
    options.error = digest_flag + " is only for digest";
  if (!serve_flag.empty() && options.command != "serve")
    options.error = serve_flag + " is only for serve";
  if (options.page != 1 && options.command != "log") options.error = "--page is only for log";
  const bool key_command = options.command == "cluster" && n == 1 && options.files[0] == "key";
  if (options.command == "cluster" && (n != 1 || (options.files[0] != "status" && !key_command)))
    options.error = "cluster needs status, or key --out FILE";
  else if (options.command == "cluster" && !key_command && options.cluster.empty())
    options.error = "cluster status needs --cluster nats://HOST:PORT[,…] (or VERDICT_CLUSTER)";
  else if (options.command == "cluster" && !key_command && options.cluster_key_file.empty())
    options.error = "cluster status needs --cluster-key FILE (or VERDICT_CLUSTER_KEY): each "
                    "node's report is sealed with it, and one that does not open is forged";
  else if (key_command && options.key_out.empty())
    options.error = "cluster key needs --out FILE: where to write the new key";
  if (!options.key_out.empty() && !key_command) options.error = "--out is only for cluster key";
  const bool writes_through_cluster = options.command == "serve" || options.command == "digest" ||
                                      options.command == "import" || options.command == "user" ||
                                      options.command == "checkpoint";
  if (!cluster_flag.empty() && !writes_through_cluster && options.command != "cluster")
    options.error =
        cluster_flag + " is only for serve, digest, import, user, checkpoint and cluster";
  if (writes_through_cluster && options.error.empty() &&
      options.cluster.empty() != options.node.empty())
    options.error = options.node.empty()
                        ? "--cluster needs --node NAME (or VERDICT_NODE): this node's name"
                        : "--node is for a node of a cluster: give --cluster too";
  // A node seals every write with the cluster's key: without it, it would neither write nor
  // read the stream.
  if (writes_through_cluster && options.error.empty() && !options.cluster.empty() &&
      options.cluster_key_file.empty())
    options.error = "--cluster needs --cluster-key FILE (or VERDICT_CLUSTER_KEY): the cluster's "
                    "key, made once with `verdict cluster key --out FILE` and copied to every node";
  if (options.error.empty() && options.cluster_tls_cert.empty() != options.cluster_tls_key.empty())
    options.error = "--cluster-tls-cert and --cluster-tls-key go together";
  if (options.force && options.command != "export") options.error = "--force is only for export";
  return options;
}

} // namespace verdict
