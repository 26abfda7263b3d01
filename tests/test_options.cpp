#include <catch2/catch.hpp>

#include <map>

#include "app/options.h"
#include "test_support.h"

using namespace verdict;

namespace {
Options parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return parse_options(args, [env](const char *name) -> const char * {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}
} // namespace

TEST_CASE("bare verdict serves ./verdict.db on 127.0.0.1:8080") {
  const auto o = parse({});
  CHECK(o.error.empty());
  CHECK(o.command == "serve");
  CHECK(o.db == "verdict.db");
  CHECK(o.bind == "127.0.0.1");
  CHECK(o.port == 8080);
}

TEST_CASE("flags win over environment variables, which win over defaults") {
  const auto from_env = parse(
      {}, {{"VERDICT_DB", "/srv/v.db"}, {"VERDICT_PORT", "9000"}, {"VERDICT_BIND", "0.0.0.0"}});
  CHECK(from_env.db == "/srv/v.db");
  CHECK(from_env.port == 9000);
  CHECK(from_env.bind == "0.0.0.0");
  const auto from_flags =
      parse({"serve", "--db", "x.db", "--port", "9100", "--bind", "::1", "--threads", "8"},
            {{"VERDICT_PORT", "9000"}});
  CHECK(from_flags.db == "x.db");
  CHECK(from_flags.port == 9100);
  CHECK(from_flags.bind == "::1");
  CHECK(from_flags.threads == 8);
}

TEST_CASE("bad command lines are errors that name the problem") {
  CHECK(parse({"--nope"}).error == "unknown flag --nope");
  CHECK(parse({"frobnicate"}).error == "unknown command frobnicate");
  CHECK(parse({"frobnicate", "--db", "x.db"}).command.empty()); // so the overview is shown
  CHECK(parse({"--port", "70000"}).error.find("--port") != std::string::npos);
  CHECK(parse({"--port"}).error == "--port needs a value");
  CHECK(parse({"backup", "--db", "a.db"}).error == "backup needs one OUT file, or --into DIR");
  CHECK(parse({}, {{"VERDICT_PORT", "abc"}}).error.find("VERDICT_PORT") != std::string::npos);
}

TEST_CASE("help, version and the maintenance commands parse") {
  CHECK(parse({"--help"}).command == "help");
  CHECK(parse({"--version"}).command == "version");
  const auto backup = parse({"backup", "--db", "a.db", "out.db"});
  CHECK(backup.command == "backup");
  CHECK(backup.files == std::vector<std::string>{"out.db"});
  CHECK(parse({"export", "--db", "a.db"}).error.empty());
}

TEST_CASE("help about one command, asked either way") {
  CHECK(parse({"--help"}).help_topic.empty());
  CHECK(parse({"help"}).help_topic.empty());
  const auto asked = parse({"help", "import"});
  CHECK(asked.command == "help");
  CHECK(asked.help_topic == "import");
  const auto flagged = parse({"import", "--db", "x.db", "--help"});
  CHECK(flagged.command == "help");
  CHECK(flagged.help_topic == "import");
  CHECK(flagged.error.empty());
  CHECK(parse({"help", "nonsense"}).error == "no command nonsense");
  CHECK(usage("export").find("--force") != std::string::npos);
  // The overview: every command on a line of its own, with what it does.
  for (const auto *line : {"\n  serve ", "\n  export       write all content as JSON\n",
                           "\n  verify ", "\n  digest ", "\n  help "})
    CHECK(usage().find(line) != std::string::npos);
  CHECK(usage("import").find("--force") == std::string::npos);
}

TEST_CASE("only export takes --force") {
  CHECK(parse({"export", "--db", "a.db", "out.json", "--force"}).force);
  CHECK(parse({"export", "--db", "a.db", "out.json"}).force == false);
  CHECK(parse({"import", "--db", "a.db", "in.json", "--force"}).error ==
        "--force is only for export");
}

TEST_CASE("the serving defaults: 64 threads and 30 writes a minute per client") {
  const auto o = parse({});
  CHECK(o.threads == 64);
  CHECK(o.rate_limit == 30);
  CHECK(o.trusted_proxy.empty());
  CHECK_FALSE(o.access_log);
  CHECK(parse({"--threads", "0"}).error.find("--threads") != std::string::npos);
  CHECK(parse({}, {{"VERDICT_THREADS", "0"}}).error.find("VERDICT_THREADS") != std::string::npos);
  CHECK(parse({}, {{"VERDICT_THREADS", "16"}}).threads == 16);
  CHECK(parse({"--rate-limit", "0"}).rate_limit == 0);
  CHECK(parse({"--rate-limit", "-1"}).error.find("--rate-limit") != std::string::npos);
}

TEST_CASE("votes are published in batches on the hour unless --publish-votes-every says another "
          "period, or 0 for each vote at once") {
  CHECK(parse({}).publish_votes_every_minutes == 60);
  CHECK(parse({"serve", "--publish-votes-every", "15"}).publish_votes_every_minutes == 15);
  CHECK(parse({"serve", "--publish-votes-every", "0"}).publish_votes_every_minutes == 0);
  CHECK(parse({}, {{"VERDICT_PUBLISH_VOTES_EVERY", "30"}}).publish_votes_every_minutes == 30);
  // The flag over the settings file's variable.
  CHECK(parse({"--publish-votes-every", "5"}, {{"VERDICT_PUBLISH_VOTES_EVERY", "30"}})
            .publish_votes_every_minutes == 5);
  CHECK(parse({"--publish-votes-every", "1441"}).error.find("--publish-votes-every") !=
        std::string::npos);
  CHECK(parse({"--publish-votes-every", "soon"}).error.find("--publish-votes-every") !=
        std::string::npos);
  CHECK(parse({}, {{"VERDICT_PUBLISH_VOTES_EVERY", "-5"}})
            .error.find("VERDICT_PUBLISH_VOTES_EVERY") != std::string::npos);
  CHECK(parse({"backup", "--db", "x.db", "out.db", "--publish-votes-every", "5"}).error ==
        "--publish-votes-every is only for serve");
}

TEST_CASE("the site's public address, from --base-url or VERDICT_BASE_URL") {
  CHECK(parse({}).base_url.empty());
  CHECK(parse({"--base-url", "https://verdict.example/"}).base_url == "https://verdict.example");
  CHECK(parse({}, {{"VERDICT_BASE_URL", "http://127.0.0.1:8080"}}).base_url ==
        "http://127.0.0.1:8080");
  for (const auto *bad : {"verdict.example", "ftp://verdict.example", "https://",
                          "https://verdict.example/path", "https://a b.example"}) {
    INFO(bad);
    CHECK(parse({"--base-url", bad}).error.find("--base-url must be") == 0);
  }
}

TEST_CASE("the metrics token comes from --metrics-token or VERDICT_METRICS_TOKEN, long and plain, "
          "for serve only") {
  CHECK(parse({"--metrics-token", "0123456789abcdef"}).metrics_token == "0123456789abcdef");
  CHECK(parse({}, {{"VERDICT_METRICS_TOKEN", "from-the-environment"}}).metrics_token ==
        "from-the-environment");
  CHECK(parse({"--metrics-token", "short"}).error.find("16 to 256 visible characters") !=
        std::string::npos);
  CHECK(parse({"--metrics-token", "has a space in it ok"}).error.find("--metrics-token") !=
        std::string::npos);
  CHECK(parse({}, {{"VERDICT_METRICS_TOKEN", "x"}}).error.find("VERDICT_METRICS_TOKEN") !=
        std::string::npos);
  CHECK(parse({"check", "--db", "a.db", "--metrics-token", "0123456789abcdef"}).error ==
        "--metrics-token is only for serve");
}

TEST_CASE("an environment file's settings: the proxy from VERDICT_TRUSTED_PROXY, and a variable "
          "left blank is as if unset") {
  CHECK(parse({}, {{"VERDICT_TRUSTED_PROXY", "127.0.0.1"}}).trusted_proxy == "127.0.0.1");
  CHECK(parse({"--trusted-proxy", "::1"}, {{"VERDICT_TRUSTED_PROXY", "127.0.0.1"}}).trusted_proxy ==
        "::1");
  // A list of fronts, each checked: a typing mistake stops the start and says which entry.
  CHECK(parse({"--trusted-proxy", "10.0.0.0/8, ::1"}).trusted_proxy == "10.0.0.0/8, ::1");
  const auto mistyped = parse({"--trusted-proxy", "10.0.0.0/8, proxy.example"});
  CHECK(mistyped.error.find("--trusted-proxy") != std::string::npos);
  CHECK(mistyped.error.find("proxy.example") != std::string::npos);
  CHECK(parse({}, {{"VERDICT_TRUSTED_PROXY", "10.0.0.1/40"}}).error.find("VERDICT_TRUSTED_PROXY") !=
        std::string::npos);
  const auto blank = parse({}, {{"VERDICT_BASE_URL", ""},
                                {"VERDICT_PORT", ""},
                                {"VERDICT_SMTP", ""},
                                {"VERDICT_DB", ""},
                                {"VERDICT_TRUSTED_PROXY", ""}});
  CHECK(blank.error.empty());
  CHECK(blank.base_url.empty());
  CHECK(blank.port == 8080);
  CHECK(blank.db == "verdict.db");
  CHECK(blank.smtp_url.empty());
}

TEST_CASE("init takes --empty or --example-content and --editor, and they are init's alone") {
  const auto o = parse({"init", "--db", "new.db", "--empty", "--editor", "ed@example.com"});
  CHECK(o.error.empty());
  CHECK(o.command == "init");
  CHECK(o.example_content == false);
  CHECK(o.editor == "ed@example.com");
  CHECK_FALSE(parse({"init", "--db", "new.db"}).example_content.has_value()); // asked, or none
  CHECK(parse({"init", "--db", "new.db", "--example-content"}).example_content == true);
  CHECK(parse({"init", "--db", "new.db", "--example-content", "--empty"}).error ==
        "--empty and --example-content ask for two different sites: name one");
  CHECK(parse({"serve", "--example-content"}).error == "--example-content is only for init");
  CHECK(parse({"init", "--editor", "nobody"}).error == "nobody is not an email address");
  CHECK(parse({"init", "extra"}).error == "init takes no arguments");
  CHECK(parse({"init"}).error.find("init needs --db PATH") != std::string::npos);
  CHECK(parse({"serve", "--empty"}).error == "--empty is only for init");
  CHECK(parse({"import", "--db", "a.db", "in.json", "--editor", "ed@example.com"}).error ==
        "--editor is only for init");
}

TEST_CASE("options: hints name the binary as the owner types it where they are") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path / "bin");
  const auto installed = dir.path / "bin" / "verdict";
  std::filesystem::copy_file(VERDICT_BINARY, installed);
  const auto on_path = (dir.path / "bin").string() + ":/usr/bin";
  // Installed, run by its full path as systemd runs it: the name the PATH finds.
  CHECK(program_as_typed(installed.string(), on_path.c_str(), "") == "verdict");
  // As the service's own user: the owner runs the hint as that user.
  CHECK(program_as_typed(installed.string(), on_path.c_str(), "verdict") ==
        "sudo -u verdict verdict");
  // A build's binary, not the one on the PATH: as typed (after `./dev run`, build/verdict).
  CHECK(program_as_typed("build/verdict", on_path.c_str(), "") == "build/verdict");
  CHECK(program_as_typed(VERDICT_BINARY, on_path.c_str(), "") == VERDICT_BINARY);
  CHECK(program_as_typed("verdict", nullptr, "") == "verdict");
}
