// `verdict verify --db PATH` (app/verify_command.h) against a site left alone and against each
// way of tampering with the file after a checkpoint: a stored vote changed, one deleted, log
// entries reordered, the checkpoints signed anew with another key. Each is done directly in the
// SQLite file, as someone with the file would; verify must fail and say what is wrong.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <thread>

#include "auth/log_signing.h"
#include "domain/clock.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "test_support.h"

using namespace verdict;
namespace fs = std::filesystem;

namespace {

const std::string kFirstVoter(32, '1');

struct VerifiedSite {
  test::TempDir dir;
  std::string db = (dir.path / "site.db").string();
  std::string state = (dir.path / "seen.json").string();

  VerifiedSite() {
    REQUIRE(test::run_binary({"import", "--db", db,
                              (fs::path(VERDICT_SOURCE_DIR) / "content/verdict.json").string()}) ==
            0);
    Store store(db);
    const auto a = store.tool_by_slug("cursor-background-agent")->id;
    const auto b = store.tool_by_slug("codestral-2-1")->id;
    store.cast_tool_vote(test::ballot_of(kFirstVoter), b, Verdict::ship);
    for (int i = 2; i < 7; ++i) // one network: three counted, two set aside
      store.cast_tool_vote(test::ballot_of(std::string(32, static_cast<char>('0' + i)), "office"),
                           b, i % 2 ? Verdict::ship : Verdict::skip);
    store.cast_pair_vote(test::ballot_of(std::string(32, '8')), a, b, a);
    store.cast_tool_vote(test::ballot_of(std::string(32, '9')), a, Verdict::skip);
    store.cast_tool_vote(test::ballot_of(std::string(32, '9')), a, std::nullopt);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }

  int verify(std::string *said = nullptr) {
    std::string output;
    const int status = test::run_binary({"verify", "--db", db, "--state", state}, &output);
    if (said) *said = output;
    INFO(output);
    return status;
  }

  // Runs SQL on the file as any SQLite tool would: no functions of the site's, no triggers
  // but the ones the SQL leaves in place.
  void tamper(const std::string &sql) const { sql::Db(db).exec(sql); }
};

} // namespace

TEST_CASE("verify: a site left alone verifies, again later, and after more votes and another "
          "checkpoint") {
  VerifiedSite site;
  std::string said;
  CHECK(site.verify(&said) == 0);
  CHECK(said.find("ok: 9 log entries") != std::string::npos);
  CHECK(site.verify() == 0); // the checkpoint seen before is the same one
  {
    Store store(site.db);
    store.cast_tool_vote(test::ballot_of(std::string(32, 'f')),
                         store.tool_by_slug("code-llama-4")->id, Verdict::ship);
    store.make_checkpoint(store.log_signing_key(), unix_now());
  }
  CHECK(site.verify(&said) == 0);
  CHECK(said.find("the checkpoint of 10 entries") != std::string::npos);
}

TEST_CASE("verify: a stored vote changed in the file without its log entry is named by its "
          "tool") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0);
  site.tamper("DROP TRIGGER tool_vote_change_logged; UPDATE tool_votes SET verdict = 'skip' "
              "WHERE voter = '" +
              kFirstVoter + "'");
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("(codestral-2-1): the site shows 4 counted (1 ship, 3 skip)") !=
        std::string::npos);
  CHECK(said.find("the log gives 4 counted (2 ship, 2 skip)") != std::string::npos);
}

TEST_CASE("verify: a vote deleted from the file without its log entry is named by its tool") {
  VerifiedSite site;
  site.tamper("DROP TRIGGER tool_vote_withdrawal_logged; DELETE FROM tool_votes WHERE voter = '" +
              kFirstVoter + "'");
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("(codestral-2-1): the site shows 3 counted (1 ship, 2 skip)") !=
        std::string::npos);
}

TEST_CASE("verify: log entries reordered in the file no longer make the signed root") {
  VerifiedSite site;
  site.tamper("UPDATE vote_log SET entry = CASE leaf WHEN 0 THEN (SELECT entry FROM vote_log "
              "WHERE leaf = 1) ELSE (SELECT entry FROM vote_log WHERE leaf = 0) END "
              "WHERE leaf IN (0, 1)");
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("do not make the checkpoint's root") != std::string::npos);
}

TEST_CASE("verify: checkpoints signed anew with another key are refused, and so is a signature "
          "that is not the key's") {
  VerifiedSite site;
  REQUIRE(site.verify() == 0); // the key is now the one seen
  site.tamper("UPDATE site_secrets SET value = '" + auth::new_signing_key() +
              "' WHERE name = 'vote_log_signing'");
  REQUIRE(test::run_binary({"checkpoint", "--db", site.db}) == 0);
  std::string said;
  CHECK(site.verify(&said) == 1);
  CHECK(said.find("the site's key is not the one seen before") != std::string::npos);

  VerifiedSite other;
  other.tamper("UPDATE checkpoints SET signature = '" + std::string(128, '0') + "'");
  CHECK(other.verify(&said) == 1);
  CHECK(said.find("signature does not hold") != std::string::npos);
}

TEST_CASE("verify: an untouched site verifies while votes keep coming") {
  VerifiedSite site;
  std::atomic<bool> stop{false};
  std::thread voters([&] {
    Store store(site.db);
    const auto id = store.tool_by_slug("code-llama-4")->id;
    for (int i = 0; !stop; ++i) {
      auto voter = std::to_string(i);
      store.cast_tool_vote(test::ballot_of(std::string(32 - voter.size(), 'v') + voter), id,
                           i % 2 ? Verdict::ship : Verdict::skip);
      if (i % 50 == 0) store.make_checkpoint(store.log_signing_key(), unix_now());
    }
  });
  for (int run = 0; run < 4; ++run)
    CHECK(site.verify() == 0);
  stop = true;
  voters.join();
}
