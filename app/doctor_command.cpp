#include "app/doctor_command.h"

#include <curl/curl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>

#include "app/backup_command.h"
#include "app/cluster_command.h"
#include "app/doctor_findings.h"
#include "app/init_command.h"
#include "app/settings_file.h"
#include "base/shell_words.h"
#include "domain/clock.h"
#include "mail/smtp.h"
#include "store/maintenance.h"

namespace verdict {

namespace {

namespace fs = std::filesystem;

constexpr const char *kServiceSettings = "/etc/default/verdict";

// An answer over HTTP(S), with the end of the server's certificate when it showed one.
struct Fetched {
  long status = 0;
  std::string body;
  std::string error; // why no answer came, as libcurl says it
  std::optional<int64_t> certificate_ends;
};

size_t keep_body(char *data, size_t size, size_t count, void *body) {
  auto &kept = *static_cast<std::string *>(body);
  if (kept.size() < 4096) kept.append(data, size * count);
  return size * count;
}

// "Mar 10 12:00:00 2027 GMT", as OpenSSL prints a certificate's notAfter.
std::optional<int64_t> certificate_end(curl_certinfo *info) {
  if (!info || info->num_of_certs < 1) return std::nullopt;
  for (auto *field = info->certinfo[0]; field; field = field->next) {
    const std::string_view line = field->data;
    if (!line.starts_with("Expire date:")) continue;
    std::tm when{};
    const std::string date(line.substr(12));
    if (strptime(date.c_str(), "%b %d %H:%M:%S %Y GMT", &when)) return timegm(&when);
  }
  return std::nullopt;
}

// GET `url`, checking its certificate against the system's CAs, or `ca_file`'s when given.
Fetched fetch(const std::string &url, const std::string &ca_file) {
  static const bool started = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!started) return {0, {}, "libcurl could not start", std::nullopt};
  Fetched fetched;
  CURL *curl = curl_easy_init();
  if (!curl) return {0, {}, "libcurl could not make a session", std::nullopt};
  char error[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 5L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 15L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &fetched.body);
  curl_easy_setopt(curl, CURLOPT_CERTINFO, 1L);
  if (!ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file.c_str());
  const auto code = curl_easy_perform(curl);
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &fetched.status);
    curl_certinfo *info = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_CERTINFO, &info) == CURLE_OK)
      fetched.certificate_ends = certificate_end(info);
  } else {
    fetched.error = *error ? error : curl_easy_strerror(code);
  }
  curl_easy_cleanup(curl);
  while (!fetched.body.empty() && (fetched.body.back() == '\n' || fetched.body.back() == '\r'))
    fetched.body.pop_back();
  return fetched;
}

// Where this machine reaches the site's own port: a wildcard bind is reached on loopback.
std::string local_address(const Options &site) {
  auto host = site.bind;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(site.port);
}

// The database's bytes on disk: its file and the write-ahead log beside it.
uint64_t database_bytes(const std::string &db) {
  uint64_t bytes = 0;
  for (const auto &path : {db, db + "-wal"}) {
    std::error_code missing;
    const auto size = fs::file_size(path, missing);
    bytes += missing ? 0 : size;
  }
  return bytes;
}

// Ok when `verdict check` finds the file sound: only then is the rest of it read.
Finding look_at_database(const Options &site) {
  if (!fs::exists(site.db))
    return problem("database", "no database at " + site.db + " (is VERDICT_DB right?)",
                   how_to_make_a_site(site) + "; or copy the newest backup to it");
  const auto faults = check_database(site.db);
  if (!faults.empty()) {
    std::string said;
    for (const auto &fault : faults)
      said += (said.empty() ? "" : "; ") + fault;
    return problem("database", site.db + ": " + said,
                   "stop the site and put the newest backup in its place (deploy/README.md, "
                   "\"Backups\")");
  }
  std::ostringstream size;
  size << std::fixed << std::setprecision(1)
       << static_cast<double>(database_bytes(site.db)) / (1024.0 * 1024.0);
  return fine("database", site.db + ": its integrity and keys hold (" + size.str() + " MiB)");
}

Finding look_at_serving(const Options &site) {
  const auto url = local_address(site) + "/healthz";
  const auto answer = fetch(url, "");
  if (!answer.error.empty())
    return problem("site", "nothing answers at " + url + ": " + answer.error,
                   "is it running? `systemctl status verdict` and `journalctl -u verdict` say "
                   "why not");
  if (answer.status != 200 || answer.body != "ok")
    return problem("site",
                   url + " answers " + std::to_string(answer.status) + ": " +
                       answer.body.substr(0, 200),
                   "`journalctl -u verdict` says more");
  return fine("site", url + " says ok");
}

std::vector<Finding> look_at_address(const Options &site, const std::string &settings_file,
                                     const std::string &tls_ca, int64_t now) {
  if (site.base_url.empty())
    return {problem("address",
                    "VERDICT_BASE_URL is not set: canonical links, feeds, share cards and mails "
                    "have no address to name",
                    "set it in " + settings_file +
                        " (https://…) and `sudo systemctl restart verdict`")};
  std::vector<Finding> findings;
  const bool https = site.base_url.starts_with("https://");
  if (!https && !is_this_machine(site.base_url))
    findings.push_back(problem("address",
                               site.base_url + " is not https: readers' votes and editors' "
                                               "passwords cross the internet unencrypted",
                               "put nginx with a certificate in front (deploy/README.md) and "
                               "set VERDICT_BASE_URL to its https:// address"));
  const auto answer = fetch(site.base_url + "/healthz", tls_ca);
  if (!answer.error.empty()) {
    findings.push_back(
        problem("address", "readers cannot reach " + site.base_url + "/healthz: " + answer.error,
                "check nginx (`sudo nginx -t`), the DNS record and the firewall"));
    return findings;
  }
  if (answer.status != 200 || answer.body != "ok")
    findings.push_back(problem("address",
                               site.base_url + "/healthz answers " + std::to_string(answer.status),
                               "check nginx's proxy to the site (deploy/nginx-verdict.conf)"));
  else
    findings.push_back(fine("address", site.base_url + "/healthz says ok"));
  if (https) {
    if (answer.certificate_ends)
      findings.push_back(judge_certificate(site.base_url, *answer.certificate_ends, now));
    else
      findings.push_back(problem("certificate",
                                 site.base_url + " showed no certificate whose end could be read",
                                 "`openssl s_client -connect HOST:443` shows what it sends"));
  }
  return findings;
}

Finding look_at_mail(const Options &site, const std::string &settings_file,
                     const SiteVitals *vitals) {
  const auto waiting =
      vitals ? std::to_string(vitals->subscribers.pending) + " sign-ups wait as pending and "
             : std::string();
  if (site.smtp_url.empty())
    return problem("mail", "no mail server (VERDICT_SMTP): " + waiting + "no digest goes out",
                   "set VERDICT_SMTP and VERDICT_SMTP_FROM in " + settings_file + " (`" +
                       site.program + " help serve`) and `sudo systemctl restart verdict`");
  // Reached only with settings serve takes (run_doctor judges them first), so a password is
  // never sent where serve would refuse to send it.
  SmtpClient client({site.smtp_url, site.smtp_starttls, site.smtp_user, site.smtp_password});
  const auto greeted = client.greet();
  if (!greeted.sent())
    return problem("mail", site.smtp_url + " does not take mail from the site: " + greeted.error,
                   "check VERDICT_SMTP" +
                       std::string(site.smtp_user.empty()
                                       ? ""
                                       : ", VERDICT_SMTP_USER and VERDICT_SMTP_PASSWORD") +
                       " in " + settings_file);
  return fine("mail",
              site.smtp_url + " answers" +
                  (site.smtp_user.empty() ? "" : " and takes " + site.smtp_user + "'s login") +
                  "; mail comes from " + site.mail_from);
}

// Only with the settings serve takes, so a cluster's key is named (serve refuses it without).
Finding look_at_cluster(const Options &site, const std::string &settings_file, int64_t now) {
  try {
    // Only looks: a stream or bucket that is not there is a finding, never made here.
    auto settings = stream_settings(site, "verdict-doctor");
    settings.may_create = false;
    const auto key = cluster::ClusterKey::from_file(site.cluster_key_file);
    cluster::WriteStream stream(settings);
    return judge_cluster(stream.node_places(key), stream.last_sequence(), now);
  } catch (const std::exception &e) {
    return problem("cluster", "cannot read the cluster's stream: " + std::string(e.what()),
                   "`systemctl status nats-server` on each machine; VERDICT_CLUSTER in " +
                       settings_file);
  }
}

Finding look_at_disk(const Options &site) {
  const auto folder = fs::absolute(site.db).parent_path().string();
  struct statvfs disk {};
  if (statvfs(folder.c_str(), &disk) != 0)
    return problem("disk", "cannot read the free space of " + folder,
                   "`df -h " + shell_quoted(folder) + "`");
  // A missing database is said once, by the database's own finding.
  return judge_disk(folder, static_cast<uint64_t>(disk.f_bavail) * disk.f_frsize,
                    fs::exists(site.db) ? std::optional(database_bytes(site.db)) : std::nullopt);
}

// What a finding quotes may come from outside (an answer's body, a server's words): shown
// without control characters, so nothing read can move the owner's terminal about.
std::string shown(std::string text) {
  for (auto &c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

void print(std::ostream &out, const Finding &finding) {
  out << std::left << std::setw(9) << (finding.ok ? "ok" : "PROBLEM") << std::setw(13)
      << finding.subject << shown(finding.said) << "\n";
  if (!finding.ok) out << std::string(22, ' ') << "to do: " << shown(finding.to_do) << "\n";
}

// The settings a file holds that are secrets, named ("VERDICT_SMTP_PASSWORD, VERDICT_CLUSTER's
// password"); empty when it holds none.
std::string secrets_in(const SettingsFile &settings) {
  std::string named;
  const auto name = [&](const std::string &what) { named += (named.empty() ? "" : ", ") + what; };
  for (const auto *secret : {"VERDICT_SMTP_PASSWORD", "VERDICT_METRICS_TOKEN"})
    if (const auto kept = settings.values.find(secret);
        kept != settings.values.end() && !kept->second.empty())
      name(secret);
  // A NATS server's address may carry a node's password: nats://user:PASSWORD@host.
  if (const auto cluster = settings.values.find("VERDICT_CLUSTER");
      cluster != settings.values.end() && cluster->second.find('@') != std::string::npos)
    name("VERDICT_CLUSTER's password");
  return named;
}

// The settings file's values; nothing, with the problem said, when it cannot be read.
std::optional<SettingsFile> read_settings(const std::string &path, const std::string &program,
                                          std::vector<Finding> &findings) {
  if (!fs::is_regular_file(path)) {
    findings.push_back(problem("settings", "no settings file at " + path,
                               "name the one the service reads (`--settings FILE`)"));
    return std::nullopt;
  }
  std::ifstream file(path);
  if (!file) {
    findings.push_back(problem("settings", "cannot read " + path,
                               "it is root's alone: `sudo " + program + " doctor`"));
    return std::nullopt;
  }
  std::stringstream text;
  text << file.rdbuf();
  auto settings = read_settings_file(text.str());
  for (const auto &fault : settings.faults)
    findings.push_back(
        problem("settings", path + ": " + fault, "write it as VARIABLE=VALUE, or begin it with #"));
  if (const auto secrets = secrets_in(settings); !secrets.empty()) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && (info.st_mode & (S_IROTH | S_IWOTH)))
      findings.push_back(problem(
          "settings", path + " holds " + secrets + " and every user of this machine can read it",
          "`sudo chmod 600 " + shell_quoted(path) + "`"));
  }
  return settings;
}

int report(const std::vector<Finding> &findings, std::ostream &out) {
  size_t problems = 0;
  for (const auto &finding : findings) {
    print(out, finding);
    problems += finding.ok ? 0 : 1;
  }
  out << (problems == 0 ? std::string("All is well.")
                        : std::to_string(problems) + (problems == 1 ? " problem." : " problems."))
      << "\n";
  return problems == 0 ? 0 : 1;
}

} // namespace

int run_doctor(const std::vector<std::string> &args,
               const std::function<const char *(const char *)> &getenv, const Options &flags,
               std::ostream &out) {
  std::vector<Finding> findings;
  const auto settings_path = !flags.settings_file.empty()   ? flags.settings_file
                             : fs::exists(kServiceSettings) ? std::string(kServiceSettings)
                                                            : std::string();
  const auto settings = settings_path.empty()
                            ? SettingsFile{}
                            : read_settings(settings_path, flags.program, findings);
  // Judged on other settings than the site's, every other line would mislead.
  if (!settings) return report(findings, out);
  // The environment first, as for any command; the file for what it leaves unset (as
  // systemd gives the site both); the flags over both.
  const auto setting = [&](const char *name) -> const char * {
    if (const char *value = getenv(name); value && *value) return value;
    const auto kept = settings->values.find(name);
    return kept == settings->values.end() ? nullptr : kept->second.c_str();
  };
  auto site = parse_options(args, setting);
  site.program = flags.program;
  // Named in every to-do: the file read, else the one the service reads.
  const auto settings_named = settings_path.empty() ? std::string(kServiceSettings) : settings_path;
  // The settings judged as `verdict serve` judges them when the service starts (doctor's own
  // flags aside): what serve refuses is said here, not found in the journal later.
  if (site.error.empty()) site.error = parse_options({"serve"}, setting).error;
  if (!site.error.empty()) {
    findings.push_back(
        problem("settings", site.error,
                "correct it in " +
                    (settings_path.empty() ? std::string("the environment") : settings_path) +
                    " (`" + flags.program + " help serve` says what each takes)"));
  } else {
    findings.push_back(
        fine("settings",
             settings_path.empty()
                 ? "from the environment and flags (no " + std::string(kServiceSettings) + ")"
                 : "from " + settings_path + ", under the environment and flags"));
    const auto now = unix_now();
    findings.push_back(look_at_database(site));
    std::optional<SiteVitals> vitals;
    if (findings.back().ok) vitals = read_site_vitals(site.db);
    findings.push_back(look_at_serving(site));
    for (auto &finding : look_at_address(site, settings_named, flags.tls_ca, now))
      findings.push_back(std::move(finding));
    if (vitals)
      findings.push_back(judge_checkpoint(
          {vitals->checkpoint_made_at, vitals->checkpoint_size, vitals->log_size}, now,
          site.max_age_hours, site.program + " checkpoint --db " + shell_quoted(site.db)));
    const auto backups = !flags.backups_folder.empty()
                             ? flags.backups_folder
                             : (fs::absolute(site.db).parent_path() / "backups").string();
    findings.push_back(judge_backups(backups, copies_made_at(backups), now,
                                     site.program + " backup --db " + shell_quoted(site.db) +
                                         " --into " + shell_quoted(backups)));
    findings.push_back(look_at_mail(site, settings_named, vitals ? &*vitals : nullptr));
    if (!site.cluster.empty()) findings.push_back(look_at_cluster(site, settings_named, now));
    findings.push_back(look_at_disk(site));
  }
  return report(findings, out);
}

} // namespace verdict
