// `verdict doctor` (app/doctor_command.h): each rule's edges with figures alone
// (app/doctor_findings.h), the settings file read as systemd reads it, and the command on a
// running site with its mail server, backups and settings, then with each of them broken.
#include <catch2/catch.hpp>

#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "app/doctor_findings.h"
#include "app/options.h"
#include "app/settings_file.h"
#include "cluster/cluster_key.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace verdict;

namespace {

constexpr int64_t kNow = 1'800'000'000;
constexpr uint64_t kGiB = 1024ull * 1024 * 1024;

// One line of doctor's report: its verdict and subject ("ok       mail", "PROBLEM  backups").
bool reports(const std::string &said, const std::string &verdict, const std::string &subject) {
  std::string start = verdict;
  start.resize(9, ' ');
  start += subject;
  return said.find("\n" + start) != std::string::npos || said.rfind(start, 0) == 0;
}

void write_file(const fs::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::set<std::string> names_in(const fs::path &folder) {
  std::set<std::string> names;
  for (const auto &entry : fs::directory_iterator(folder))
    names.insert(entry.path().filename().string());
  return names;
}

// A site served from a file, as `verdict serve` serves it, with its nightly backup made and a
// mail server, and the settings file that names them as /etc/default/verdict would.
struct RunningInstall {
  test::TempDir dir;
  fs::path db = dir.path / "verdict.db";
  fs::path settings = dir.path / "verdict.default";
  std::optional<test::SiteServer> site;
  std::optional<test::SmtpSink> mail;

  RunningInstall() {
    std::string said;
    REQUIRE(test::run_binary({"init", "--db", db.string(), "--empty"}, &said) == 0);
    REQUIRE(
        test::run_binary({"backup", "--db", db.string(), "--into", (dir.path / "backups").string()},
                         &said) == 0);
    site.emplace(db.string());
    mail.emplace(dir.path / "mail");
    write_settings();
  }

  void write_settings(const std::string &more = "") {
    const auto address = "http://127.0.0.1:" + std::to_string(site->port());
    write_file(settings, "# as the package installs it, filled in\n"
                         "VERDICT_BASE_URL=" +
                             address +
                             "\n"
                             "VERDICT_BIND=127.0.0.1\nVERDICT_PORT=" +
                             std::to_string(site->port()) + "\nVERDICT_DB=\"" + db.string() +
                             "\"\n"
                             "VERDICT_SMTP=" +
                             mail->url() +
                             "\nVERDICT_SMTP_FROM=digest@example.com\n"
                             "VERDICT_SMTP_USER=\n" +
                             more);
  }

  int doctor(std::string &said, const std::vector<std::string> &more = {}) const {
    std::vector<std::string> args = {"doctor", "--settings", settings.string()};
    args.insert(args.end(), more.begin(), more.end());
    return test::run_binary(args, &said);
  }
};

} // namespace

TEST_CASE("doctor: the settings file is read as systemd reads an EnvironmentFile") {
  const auto file = read_settings_file("# a comment\n; another\n\n  VERDICT_PORT = 8081 \n"
                                       "VERDICT_DB=\"/var/lib/verdict/site.db\"\n"
                                       "VERDICT_SMTP_FROM='digest@example.com'\n"
                                       "VERDICT_BASE_URL=\nVERDICT_PORT=8082\r\n"
                                       "not a setting\n2BAD=x\n");
  CHECK(file.values.at("VERDICT_PORT") == "8082"); // the later line wins
  CHECK(file.values.at("VERDICT_DB") == "/var/lib/verdict/site.db");
  CHECK(file.values.at("VERDICT_SMTP_FROM") == "digest@example.com");
  CHECK(file.values.at("VERDICT_BASE_URL").empty());
  REQUIRE(file.faults.size() == 2);
  // A line is quoted by its first word alone, and only when that looks like a variable's name:
  // the rest, or the whole line, may be a password.
  CHECK(file.faults[0] == "line 9 is not VARIABLE=VALUE: (not shown: it may hold a secret)");
  CHECK(file.faults[1] == "line 10 is not VARIABLE=VALUE: 2BAD … (the rest not shown)");
  const auto unquoted = read_settings_file("VERDICT_SMTP_PASSWORD hunter2 secret\nhunter2\n");
  REQUIRE(unquoted.faults.size() == 2);
  CHECK(unquoted.faults[0] ==
        "line 1 is not VARIABLE=VALUE: VERDICT_SMTP_PASSWORD … (the rest not shown)");
  for (const auto &fault : unquoted.faults)
    CHECK(fault.find("hunter2") == std::string::npos);
}

TEST_CASE("doctor: backups are a problem when none is there or the newest missed a night") {
  const auto none = judge_backups("/var/lib/verdict/backups", {}, kNow, "verdict backup …");
  CHECK_FALSE(none.ok);
  CHECK(none.said == "none in /var/lib/verdict/backups");
  CHECK_THAT(none.to_do, Catch::Contains("systemctl enable --now verdict-backup.timer"));
  CHECK_THAT(none.to_do, Catch::Contains("`verdict backup …`"));
  const auto fresh = judge_backups("b", {kNow - 40 * 3600, kNow - 5 * 3600}, kNow, "");
  CHECK(fresh.ok);
  CHECK(fresh.said == "the newest of 2 copies in b is 5 h old (keep copies off this machine too)");
  CHECK(judge_backups("b", {kNow - kBackupOldAfterHours * 3600}, kNow, "").ok);
  const auto missed = judge_backups("b", {kNow - kBackupOldAfterHours * 3600 - 1}, kNow, "");
  CHECK_FALSE(missed.ok);
  CHECK_THAT(missed.said, Catch::Contains("a night was missed"));
}

TEST_CASE("doctor: the disk is a problem under 1 GiB free or under twice the database") {
  CHECK(judge_disk("/d", 3 * kGiB, kGiB).ok);
  CHECK_FALSE(judge_disk("/d", kGiB - 1, 1024).ok);
  CHECK_FALSE(judge_disk("/d", 2 * kGiB - 1, kGiB).ok);
  CHECK(judge_disk("/d", 2 * kGiB, kGiB).ok);
  CHECK(judge_disk("/d", 2 * kGiB, kGiB).said ==
        "2.0 GiB free where the database is (/d); the database is 1.0 GiB");
}

TEST_CASE("doctor: a certificate is a problem two weeks before it ends, and once it has") {
  const std::string site = "https://verdict.example";
  const auto later = judge_certificate(site, kNow + 60 * 86400, kNow);
  CHECK(later.ok);
  CHECK(later.said == "https://verdict.example's certificate is trusted and ends in 60 days");
  CHECK(judge_certificate(site, kNow + kCertificateWarnDays * 86400, kNow).ok);
  const auto soon = judge_certificate(site, kNow + kCertificateWarnDays * 86400 - 1, kNow);
  CHECK_FALSE(soon.ok);
  CHECK_THAT(soon.said, Catch::Contains("ends in 13 days: its renewal is failing"));
  const auto ended = judge_certificate(site, kNow - 3 * 86400, kNow);
  CHECK_FALSE(ended.ok);
  CHECK_THAT(ended.said, Catch::Contains("ended 3 days ago"));
}

TEST_CASE("doctor: the vote log is a problem when its daily checkpoint stopped") {
  CHECK(judge_checkpoint({std::nullopt, 0, 0}, kNow, 48, "c").ok); // nothing to sign yet
  const auto unsigned_log = judge_checkpoint({std::nullopt, 0, 7}, kNow, 48, "verdict checkpoint");
  CHECK_FALSE(unsigned_log.ok);
  CHECK(unsigned_log.said == "7 entries and no signed checkpoint");
  CHECK_THAT(unsigned_log.to_do, Catch::Contains("`verdict checkpoint` makes one now"));
  CHECK(judge_checkpoint({kNow - 3 * 3600, 10, 12}, kNow, 48, "c").said ==
        "the newest checkpoint is 3 h old, 2 entries after it");
  // Old, but nothing after it: a quiet site, not a stopped one.
  CHECK(judge_checkpoint({kNow - 5 * 86400, 12, 12}, kNow, 48, "c").ok);
  const auto stopped = judge_checkpoint({kNow - 49 * 3600, 12, 13}, kNow, 48, "c");
  CHECK_FALSE(stopped.ok);
  CHECK_THAT(stopped.said, Catch::Contains("1 entry after it: the daily checkpoint stopped"));
}

TEST_CASE("doctor: the cluster is a problem when a node is quiet, stuck, behind or skipping") {
  using Place = cluster::WriteStream::NodePlace;
  const Place current{"web-1", 500, kNow - 1, 0, 0, ""};
  const auto fine_cluster = judge_cluster({current, {"web-2", 499, kNow, 0, 0, ""}}, 500, kNow);
  CHECK(fine_cluster.ok);
  CHECK(fine_cluster.said == "2 nodes current (most behind: 1 of 500 writes)");
  CHECK_FALSE(judge_cluster({}, 500, kNow).ok);
  const auto quiet = judge_cluster({current, {"web-2", 500, kNow - 11, 0, 0, ""}}, 500, kNow);
  CHECK_FALSE(quiet.ok);
  CHECK_THAT(quiet.said, Catch::Contains("web-2 last said where it is 0 min ago: stopped"));
  CHECK(judge_cluster({current, {"web-2", 500, kNow - 10, 0, 0, ""}}, 500, kNow).ok);
  const auto stuck = judge_cluster({current, {"web-2", 9, kNow, 0, 0, "a broken file"}}, 500, kNow);
  CHECK(stuck.said == "web-2 is stuck: a broken file");
  const Place far_current{"web-1", 3000, kNow, 0, 0, ""};
  const auto behind = judge_cluster(
      {far_current, {"web-2", 3000 - kNodeBehindAfterWrites, kNow, 0, 0, ""}}, 3000, kNow);
  CHECK(behind.said == "web-2 is 1000 writes behind");
  CHECK(judge_cluster({far_current, {"web-2", 3001 - kNodeBehindAfterWrites, kNow, 0, 0, ""}}, 3000,
                      kNow)
            .ok);
  const auto skipping = judge_cluster({current, {"web-2", 500, kNow, 3, 77, ""}}, 500, kNow);
  CHECK_FALSE(skipping.ok);
  CHECK(skipping.said == "web-2 skipped 3 entries not sealed with the cluster's key");
  CHECK_THAT(skipping.to_do, Catch::Contains("change their passwords"));
}

TEST_CASE("doctor: a running install with its backups and mail is well, and writes nothing") {
  RunningInstall install;
  const auto before = names_in(install.dir.path);
  const auto mails_before = install.mail->messages().size();
  std::string said;
  CHECK(install.doctor(said) == 0);
  INFO(said);
  CHECK(reports(said, "ok", "settings     from " + install.settings.string()));
  CHECK(
      reports(said, "ok", "database     " + install.db.string() + ": its integrity and keys hold"));
  CHECK(reports(said, "ok",
                "site         http://127.0.0.1:" + std::to_string(install.site->port()) +
                    "/healthz says ok"));
  CHECK(reports(said, "ok", "address"));
  CHECK(reports(said, "ok", "vote log"));
  CHECK(reports(said, "ok",
                "backups      the newest of 1 copy in " + (install.dir.path / "backups").string() +
                    " is 0 min old"));
  CHECK(reports(said, "ok", "mail         " + install.mail->url() + " answers"));
  CHECK(reports(said, "ok", "disk"));
  CHECK(said.find("PROBLEM") == std::string::npos);
  CHECK_THAT(said, Catch::EndsWith("All is well.\n"));
  // It looked and wrote nothing: no file beside the site's, no mail sent.
  CHECK(names_in(install.dir.path) == before);
  CHECK(install.mail->messages().size() == mails_before);
}

namespace {

// Every other line still ok: one fault is one problem (a site down is its address down too).
// Each group of faults below is a case of its own (each section starts a whole install), so
// each stays well within one case's time on a busy machine.
void ends_with_problems(const std::string &said, int problems) {
  CHECK_THAT(said, Catch::EndsWith(std::to_string(problems) +
                                   (problems == 1 ? " problem.\n" : " problems.\n")));
}

} // namespace

TEST_CASE(
    "doctor: each thing broken in the mail is named with what to do, and the exit status is 1") {
  RunningInstall install;
  std::string said;
  int problems = 1;

  SECTION("the mail server gone") {
    install.mail.reset();
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "mail         smtp://127.0.0.1:"));
    CHECK_THAT(said, Catch::Contains("does not take mail from the site: Failed to connect"));
    // The settings file it read is the one its to-dos name.
    CHECK_THAT(said, Catch::Contains("to do: check VERDICT_SMTP in " + install.settings.string()));
    CHECK(said.find("/etc/default/verdict") == std::string::npos);
    CHECK_THAT(said, Catch::EndsWith("1 problem.\n"));
  }
  SECTION("a mail login serve would refuse: a password in plain text to another machine") {
    install.write_settings("VERDICT_SMTP=smtp://192.0.2.1:25\nVERDICT_SMTP_USER=digest\n"
                           "VERDICT_SMTP_PASSWORD=a-mail-password\n");
    fs::permissions(install.settings, fs::perms::owner_read | fs::perms::owner_write);
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "settings     --smtp-user would send the password unencrypted"));
    // Judged as serve judges it, and no login tried: nothing said of the mail server's answer.
    CHECK(said.find("mail         ") == std::string::npos);
    CHECK(said.find("a-mail-password") == std::string::npos);
  }
  SECTION("no mail server set") {
    install.write_settings("VERDICT_SMTP=\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "mail         no mail server (VERDICT_SMTP): 0 sign-ups wait"));
  }
  ends_with_problems(said, problems);
}

TEST_CASE("doctor: each thing broken in the settings file or the database is named with what to "
          "do, and the exit status is 1") {
  RunningInstall install;
  std::string said;
  int problems = 1;

  SECTION("a settings file holding a secret that every user can read") {
    const std::string token(32, 'k');
    install.write_settings("VERDICT_METRICS_TOKEN=" + token + "\n");
    fs::permissions(install.settings, fs::perms::owner_read | fs::perms::owner_write);
    CHECK(install.doctor(said) == 0); // root's alone, as the package installs it
    fs::permissions(install.settings, fs::perms::owner_read | fs::perms::owner_write |
                                          fs::perms::group_read | fs::perms::others_read);
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM",
                  "settings     " + install.settings.string() +
                      " holds VERDICT_METRICS_TOKEN and every user of this machine can read it"));
    CHECK_THAT(said, Catch::Contains("to do: `sudo chmod 600 " + install.settings.string() + "`"));
    CHECK(said.find(token) == std::string::npos);
  }
  SECTION("a line of the settings file that is not a setting") {
    install.write_settings("VERDICT PORT 8080\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM",
                  "settings     " + install.settings.string() +
                      ": line 9 is not VARIABLE=VALUE: VERDICT … (the rest not shown)"));
  }
  SECTION("no settings file where it was named: nothing else judged on other settings") {
    fs::remove(install.settings);
    CHECK(install.doctor(said) == 1);
    CHECK(said == "PROBLEM  settings     no settings file at " + install.settings.string() +
                      "\n                      to do: name the one the service reads "
                      "(`--settings FILE`)\n1 problem.\n");
  }
  SECTION("a setting the site would refuse") {
    install.write_settings("VERDICT_PORT=eighty\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "settings     VERDICT_PORT must be a port number"));
    CHECK_THAT(said, Catch::Contains("to do: correct it in " + install.settings.string()));
  }
  SECTION("no database where the settings say") {
    const auto gone = (install.dir.path / "the site's db").string();
    install.write_settings("VERDICT_DB=\"" + gone + "\"\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "database     no database at " + gone));
    // The to-do's path quoted for the shell it is pasted into.
    CHECK_THAT(said,
               Catch::Contains(" init --db '" + install.dir.path.string() + "/the site'\\''s db'"));
    CHECK_FALSE(fs::exists(gone)); // and it made none
    // Said once: the disk's line names the folder, no size of a database that is not there.
    CHECK(said.find("; the database is") == std::string::npos);
  }
  ends_with_problems(said, problems);
}

TEST_CASE("doctor: each thing broken in the site, its backups, its address or its cluster is named "
          "with what to do, and the exit status is 1") {
  RunningInstall install;
  std::string said;
  int problems = 1;

  SECTION("no backup") {
    fs::remove_all(install.dir.path / "backups");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM",
                  "backups      none in " + (install.dir.path / "backups").string()));
    CHECK_THAT(said, Catch::Contains("--into " + (install.dir.path / "backups").string()));
  }
  SECTION("the site not answering on its port") {
    const auto port = install.site->port();
    install.site.reset();
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM",
                  "site         nothing answers at http://127.0.0.1:" + std::to_string(port) +
                      "/healthz"));
    CHECK_THAT(said, Catch::Contains("to do: is it running? `systemctl status verdict`"));
    problems = 2; // its address is this port too
  }
  SECTION("a public address that is not https, for a site that mails: serve would refuse it") {
    install.write_settings("VERDICT_BASE_URL=http://verdict.invalid\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "settings     --base-url must be https:// for mail"));
  }
  SECTION("a public address nothing answers at, not https") {
    install.write_settings("VERDICT_BASE_URL=http://verdict.invalid\nVERDICT_SMTP=\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "address      http://verdict.invalid is not https"));
    CHECK(reports(said, "PROBLEM",
                  "address      readers cannot reach http://verdict.invalid/healthz"));
    problems = 3; // and no mail server
  }
  SECTION("a cluster whose NATS servers do not answer") {
    const auto key = install.dir.path / "cluster.key";
    std::ofstream(key) << cluster::ClusterKey::new_file_text();
    fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write);
    install.write_settings(
        "VERDICT_CLUSTER=nats://127.0.0.1:1\nVERDICT_NODE=web-1\nVERDICT_CLUSTER_KEY=" +
        key.string() + "\n");
    CHECK(install.doctor(said) == 1);
    CHECK(reports(said, "PROBLEM", "cluster      cannot read the cluster's stream"));
  }
  SECTION("a cluster named without its key") {
    install.write_settings("VERDICT_CLUSTER=nats://127.0.0.1:1\nVERDICT_NODE=web-1\n");
    CHECK(install.doctor(said) == 1);
    // Serve refuses to start so: said as the settings' problem, the cluster not looked at.
    CHECK(reports(said, "PROBLEM", "settings     --cluster needs --cluster-key FILE"));
    CHECK(said.find("cluster      ") == std::string::npos);
  }
  // Every other line still ok: one fault is one problem (a site down is its address down too).
  ends_with_problems(said, problems);
}

namespace {

// A certificate for 127.0.0.1 that ends `days` from now, signed by itself (so it is its own
// CA for --tls-ca), made by Debian's openssl as an owner's ACME client would have one made.
void make_certificate(const fs::path &folder, int days) {
  const auto command = "openssl req -x509 -newkey rsa:2048 -nodes -days " + std::to_string(days) +
                       " -subj /CN=127.0.0.1 -addext "
                       "subjectAltName=IP:127.0.0.1 -keyout " +
                       (folder / "key.pem").string() + " -out " + (folder / "cert.pem").string() +
                       " 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
}

// nginx's place: https on loopback, answering /healthz as the site behind it would.
struct HttpsFront {
  httplib::SSLServer server;
  int port = 0;
  std::thread thread;
  explicit HttpsFront(const fs::path &folder)
      : server((folder / "cert.pem").c_str(), (folder / "key.pem").c_str()) {
    server.Get("/healthz", [](const httplib::Request &, httplib::Response &response) {
      response.set_content("ok", "text/plain");
    });
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~HttpsFront() {
    server.stop();
    thread.join();
  }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port); }
};

// The install's public address made an https front whose certificate ends in `days`.
std::unique_ptr<HttpsFront> in_front_of(RunningInstall &install, int days) {
  make_certificate(install.dir.path, days);
  auto front = std::make_unique<HttpsFront>(install.dir.path);
  install.write_settings("VERDICT_BASE_URL=" + front->url() + "\n");
  return front;
}

} // namespace

TEST_CASE("doctor: an https address's certificate is read, trusted and judged by its end") {
  RunningInstall install;
  const auto ca = (install.dir.path / "cert.pem").string(); // each certificate is its own CA
  std::string said;
  SECTION("ending in five days") {
    const auto front = in_front_of(install, 5);
    CHECK(install.doctor(said, {"--tls-ca", ca}) == 1);
    INFO(said);
    CHECK(reports(said, "ok", "address      " + front->url() + "/healthz says ok"));
    // Made a moment before it was read: 5 days less that moment, or the same second.
    CHECK((reports(said, "PROBLEM",
                   "certificate  " + front->url() +
                       "'s certificate ends in 4 days: its renewal is failing") ||
           reports(said, "PROBLEM",
                   "certificate  " + front->url() +
                       "'s certificate ends in 5 days: its renewal is failing")));
    CHECK_THAT(said, Catch::Contains("to do: renew it (certbot renew"));
    CHECK_THAT(said, Catch::EndsWith("1 problem.\n"));
  }
  SECTION("ending in sixty days") {
    const auto front = in_front_of(install, 60);
    CHECK(install.doctor(said, {"--tls-ca", ca}) == 0);
    INFO(said);
    CHECK((
        reports(said, "ok",
                "certificate  " + front->url() + "'s certificate is trusted and ends in 59 days") ||
        reports(said, "ok",
                "certificate  " + front->url() + "'s certificate is trusted and ends in 60 days")));
  }
  SECTION("signed by no CA this machine trusts") {
    const auto front = in_front_of(install, 60);
    CHECK(install.doctor(said) == 1);
    INFO(said);
    CHECK(reports(said, "PROBLEM",
                  "address      readers cannot reach " + front->url() +
                      "/healthz: SSL certificate problem"));
  }
}

TEST_CASE("doctor: its flags are its own, and it takes no arguments") {
  const auto no_env = [](const char *) -> const char * { return nullptr; };
  const auto doctor =
      parse_options({"doctor", "--settings", "s", "--backups", "b", "--tls-ca", "c"}, no_env);
  CHECK(doctor.error.empty());
  CHECK(doctor.settings_file == "s");
  CHECK(doctor.backups_folder == "b");
  CHECK(doctor.tls_ca == "c");
  CHECK(parse_options({"serve", "--backups", "b"}, no_env).error == "--backups is only for doctor");
  CHECK(parse_options({"doctor", "now"}, no_env).error == "doctor takes no arguments");
}

TEST_CASE("doctor: an answer it quotes is shown without control characters") {
  RunningInstall install;
  // In the site's place on its port: a server whose /healthz says it cannot take writes, in
  // words that would clear the owner's terminal were they printed as they came.
  httplib::Server stand_in;
  stand_in.Get("/healthz", [](const httplib::Request &, httplib::Response &response) {
    response.status = 503;
    response.set_content("\x1b[2J\x1b[Hno\rwrites\n", "text/plain");
  });
  const int port = stand_in.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { stand_in.listen_after_bind(); });
  install.write_settings("VERDICT_PORT=" + std::to_string(port) + "\n");
  std::string said;
  CHECK(install.doctor(said) == 1);
  stand_in.stop();
  serving.join();
  INFO(said);
  CHECK(reports(said, "PROBLEM",
                "site         http://127.0.0.1:" + std::to_string(port) +
                    "/healthz answers 503: ?[2J?[Hno?writes"));
  CHECK(said.find('\x1b') == std::string::npos);
  CHECK(said.find('\r') == std::string::npos);
}
