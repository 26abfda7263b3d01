// A voter's page is the shared page with their own votes put in its voter places
// (pages::PersonalPage): it must be, byte for byte, the page rendered whole for that voter,
// and it must never reach another reader.
#include <catch2/catch.hpp>

#include <thread>

#include "middleware/page_cache.h"
#include "middleware/request_parsing.h"
#include "middleware/responses.h"
#include "middleware/sessions.h"
#include "render/pages.h"
#include "test_support.h"

using namespace verdict;

namespace {

std::string own_page(httplib::Client &client, const std::string &path, const std::string &voter) {
  const auto res = client.Get(path.c_str(), {{"Cookie", "verdict_voter=" + voter}});
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return res->body;
}

// A reader who casts the given votes on the pair's tools and its head-to-head ("" casts none).
std::string voter_who(httplib::Client &client, const std::string &on_a, const std::string &on_b,
                      const std::string &pick) {
  std::string voter;
  const auto cast = [&](const std::string &path, const std::string &form) {
    const auto res = test::post_form(client, path, form, voter);
    REQUIRE(res->status == 303);
    if (voter.empty()) voter = test::cookie_from(res);
  };
  if (!on_a.empty()) cast("/tools/cursor-background-agent/vote", "verdict=" + on_a);
  if (!on_b.empty()) cast("/tools/codestral-2-1/vote", "verdict=" + on_b);
  if (!pick.empty()) cast(test::kBundledComparison + "/vote", "pick=" + pick);
  if (voter.empty()) voter = new_voter_id(unix_now_ms());
  return voter;
}

} // namespace

TEST_CASE("voter pages: each voter's comparison and tool pages are the whole render for them, "
          "byte for byte") {
  // A clock that stands still, so each page's vote tokens are the ones made here; every vote is
  // then sent no time after its page and set aside, so the set-aside renderings are checked too.
  constexpr int64_t kNow = 1795500000;
  test::SiteServer site([](App &app) { app.clock = Clock::in_seconds([] { return kNow; }); });
  auto client = site.client();
  struct Choice {
    std::string on_a, on_b, pick;
  };
  const std::vector<Choice> choices = {{"ship", "", ""},      {"", "skip", "b"},
                                       {"skip", "ship", "a"}, {"ship", "ship", "withdraw"},
                                       {"", "", "b"},         {"skip", "skip", ""}};
  std::vector<std::string> voters;
  for (const auto &c : choices)
    voters.push_back(voter_who(client, c.on_a, c.on_b, c.pick));
  voters.push_back("0123456789abcdef0123456789abcdef"); // a cookie that never voted

  const auto site_copy = site.store().site_copy();
  const auto today = site.app().today();
  for (const auto &voter : voters) {
    INFO(voter);
    auto detail = site.store().comparison_detail(test::kBundledPair);
    REQUIRE(detail);
    // The page with this voter's own votes pressed, as their own page shows them.
    const auto &pair = detail->comparison;
    detail->voter = site.store().voter_choices(voter, pair.a.id, pair.b.id);
    CHECK(own_page(client, test::kBundledComparison, voter) ==
          pages::comparison(site.app().views, *detail, site_copy, today,
                            vote_tokens_for(site.app(), detail->comparison)));
    for (const std::string slug : {"cursor-background-agent", "codestral-2-1"}) {
      auto tool = site.store().tool_detail(slug, {}, 100);
      REQUIRE(tool);
      tool->voter = site.store().voter_choices_on_tool(voter, tool->tool.id);
      CHECK(own_page(client, "/tools/" + slug, voter) ==
            pages::tool(site.app().views, *tool, site_copy, today,
                        vote_token_for(site.app(), tool->tool)));
    }
  }
}

TEST_CASE("voter pages: a voter's page is private, has its own ETag and never reaches anyone "
          "else") {
  test::SiteServer site;
  auto client = site.client();
  const auto voter = voter_who(client, "ship", "", "a");
  const auto never_voted = new_voter_id(unix_now_ms());
  const auto shared = client.Get(test::kBundledComparison.c_str());
  REQUIRE(shared->status == 200);
  CHECK(shared->get_header_value("Cache-Control").find("public") == 0);
  for (const auto &reader : {voter, never_voted}) {
    INFO(reader);
    const auto own =
        client.Get(test::kBundledComparison.c_str(), {{"Cookie", "verdict_voter=" + reader}});
    REQUIRE(own->status == 200);
    CHECK(own->get_header_value("Cache-Control") == "private, no-cache");
    const auto etag = own->get_header_value("ETag");
    CHECK(etag.size() > 2);
    CHECK(etag != shared->get_header_value("ETag"));
    const auto again = client.Get(test::kBundledComparison.c_str(),
                                  {{"Cookie", "verdict_voter=" + reader}, {"If-None-Match", etag}});
    CHECK(again->status == 304);
  }
  // The voter's pressed buttons are theirs alone.
  const auto own = own_page(client, test::kBundledComparison, voter);
  CHECK(own.find("Withdraw my pick") != std::string::npos);
  CHECK(own_page(client, test::kBundledComparison, never_voted).find("Withdraw my pick") ==
        std::string::npos);
  CHECK(client.Get(test::kBundledComparison.c_str())->body.find("Withdraw my pick") ==
        std::string::npos);
  CHECK(own_page(client, test::kBundledComparison, never_voted) ==
        client.Get(test::kBundledComparison.c_str())->body);
}

TEST_CASE("voter pages: a voter's own vote is counted on the page they return to, while the "
          "shared page may lag") {
  test::SiteServer site([](App &app) { app.page_epoch.set_max_lag(std::chrono::seconds(60)); });
  auto client = site.client();
  const auto before =
      client.Get(test::kBundledComparison.c_str())->body; // the epoch is now held a minute
  const auto counted = [](const std::string &page) {
    return test::visible_text(page).find("100% · 1 vote") != std::string::npos;
  };
  REQUIRE_FALSE(counted(before));
  const auto voter = voter_who(client, "", "ship", "");
  CHECK(counted(own_page(client, test::kBundledComparison, voter)));
  CHECK(own_page(client, test::kBundledComparison, voter)
            .find("aria-pressed=\"true\" aria-label=\"Ship "
                  "Codestral 2.1\"") != std::string::npos);
  // Everyone else sees the shared page of that epoch, which does not count it yet.
  CHECK(client.Get(test::kBundledComparison.c_str())->body == before);
  CHECK(own_page(client, test::kBundledComparison, new_voter_id(unix_now_ms())) == before);
}

TEST_CASE("voter pages: a voter who changes their vote sees the change on a page they had "
          "already seen, during the lag and after it") {
  constexpr auto lag = std::chrono::milliseconds(300);
  test::SiteServer site([&](App &app) { app.page_epoch.set_max_lag(lag); });
  auto client = site.client();
  const auto pressed = [&](const std::string &voter, const std::string &label) {
    return own_page(client, test::kBundledComparison, voter)
               .find("aria-pressed=\"true\" aria-label=\"" + label + "\"") != std::string::npos;
  };
  const auto voter = voter_who(client, "ship", "", "");
  std::this_thread::sleep_for(lag + std::chrono::milliseconds(100)); // no longer just voted
  // Seen twice: what they are shown is now kept with the page.
  REQUIRE(pressed(voter, "Ship Cursor Background Agent"));
  REQUIRE(pressed(voter, "Ship Cursor Background Agent"));

  REQUIRE(test::post_form(client, "/tools/cursor-background-agent/vote", "verdict=skip", voter)
              ->status == 303);
  CHECK(pressed(voter, "Skip Cursor Background Agent")); // just voted: rendered for them
  std::this_thread::sleep_for(lag + std::chrono::milliseconds(100));
  CHECK(pressed(voter, "Skip Cursor Background Agent")); // the page of the next epoch
  CHECK(pressed(voter, "Skip Cursor Background Agent"));
  CHECK_FALSE(pressed(voter, "Ship Cursor Background Agent"));
}

TEST_CASE("voter pages: the reactor's answer to a voter is byte for byte httplib's") {
  test::SiteServer site;
  auto client = site.client();
  const auto voter = voter_who(client, "skip", "ship", "b");
  const auto cookie = "Cookie: verdict_voter=" + voter + "\r\n";
  struct Case {
    std::string path;
    bool shows_votes; // has voter places
  };
  for (const auto &[path, shows_votes] :
       {Case{test::kBundledComparison, true}, Case{"/tools/codestral-2-1", true}, Case{"/", false},
        Case{"/reviewers", false}}) {
    INFO(path);
    REQUIRE(client.Get(path.c_str())->status == 200); // the shared page is kept
    // A voter new to a page that shows their votes is answered by a worker, which keeps what
    // they are shown with the page; from then on the reactor answers them.
    const auto before_first = site.server().cookie_answers();
    own_page(client, path, voter);
    CHECK(site.server().cookie_answers() == before_first + (shows_votes ? 0 : 1));
    const auto before = site.server().cookie_answers();
    const auto fast = test::raw_exchange(
        site.port(), "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + cookie + "\r\nGET " +
                         path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + cookie +
                         "If-None-Match: \"other\"\r\n\r\n");
    CHECK(site.server().cookie_answers() == before + 1);
    // The second answer came from httplib (a condition sends it there); both carry the same
    // page, and the first keeps the connection where the second closes it.
    const auto second = fast.find("HTTP/1.1 200 OK", 1);
    REQUIRE(second != std::string::npos);
    const auto reactor = fast.substr(0, second);
    auto by_httplib = fast.substr(second);
    const auto closing = by_httplib.find("Connection: close\r\n");
    REQUIRE(closing != std::string::npos);
    by_httplib.erase(closing, 19);
    const auto keep_alive = reactor.find("Keep-Alive: timeout=5, max=10000\r\n");
    REQUIRE(keep_alive != std::string::npos);
    CHECK(std::string(reactor).erase(keep_alive, 34) == by_httplib);
    CHECK(reactor.find("Cache-Control: private, no-cache\r\n") != std::string::npos);
  }
}

TEST_CASE("voter pages: what voters are shown is kept per page within its bounds, and given "
          "back when the page goes") {
  const auto before = ShownToVoters::kept_overall();
  {
    auto page = std::make_shared<CachedPage>();
    page->shown_to_voters.keep("a", {1, 2, 0});
    page->shown_to_voters.keep("a", {0, 0, 0}); // a voter is kept once, as first seen
    page->shown_to_voters.keep("b", {2});
    CHECK(page->shown_to_voters.find("a") == std::vector<size_t>{1, 2, 0});
    CHECK(page->shown_to_voters.find("b") == std::vector<size_t>{2});
    CHECK_FALSE(page->shown_to_voters.find("c"));
    CHECK(ShownToVoters::kept_overall() == before + 2);

    for (size_t i = 0; i < ShownToVoters::kMaxPerPage + 10; ++i)
      page->shown_to_voters.keep("voter " + std::to_string(i), {1});
    CHECK(ShownToVoters::kept_overall() == before + ShownToVoters::kMaxPerPage);
    CHECK_FALSE(page->shown_to_voters.find("voter " + std::to_string(ShownToVoters::kMaxPerPage)));
  }
  CHECK(ShownToVoters::kept_overall() == before);

  // Across pages alive together, no more than the overall bound.
  std::vector<std::shared_ptr<CachedPage>> pages;
  for (size_t p = 0; p * ShownToVoters::kMaxPerPage <= ShownToVoters::kMaxOverall; ++p) {
    pages.push_back(std::make_shared<CachedPage>());
    for (size_t i = 0; i < ShownToVoters::kMaxPerPage; ++i)
      pages.back()->shown_to_voters.keep(std::to_string(i), {1});
  }
  CHECK(ShownToVoters::kept_overall() == ShownToVoters::kMaxOverall);
  CHECK_FALSE(pages.back()->shown_to_voters.find("0"));
  pages.clear();
  CHECK(ShownToVoters::kept_overall() == before);
}

TEST_CASE("voter pages: a voter whose browser accepts a coding gets their page in that coding, "
          "with its ETag, never uncompressed from the reactor") {
  test::SiteServer site;
  auto client = site.client();
  const auto voter = voter_who(client, "ship", "skip", "a");
  const auto cookie = "Cookie: verdict_voter=" + voter + "\r\n";
  for (const auto &path : {std::string("/"), test::kBundledComparison}) {
    INFO(path);
    REQUIRE(client.Get(path.c_str())->status == 200); // the shared page is kept
    own_page(client, path, voter);                    // and what this voter is shown
    const auto before = site.server().cookie_answers();
    const auto request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + cookie;
    const auto exchanged = test::raw_exchange(
        site.port(), request + "\r\n" + request + "Accept-Encoding: gzip\r\n\r\n" + request +
                         "Connection: close\r\n\r\n");
    // The first two answers, split by their Content-Length. The reactor answers the first
    // itself, and would go on to the second were it not for its coding.
    std::vector<std::string> answers;
    for (size_t at = 0; answers.size() < 2;) {
      const auto head_end = exchanged.find("\r\n\r\n", at);
      const auto length_at = exchanged.find("Content-Length: ", at);
      REQUIRE(head_end != std::string::npos);
      REQUIRE(length_at < head_end);
      const auto end = head_end + 4 + std::stoul(exchanged.substr(length_at + 16));
      answers.push_back(exchanged.substr(at, end - at));
      at = end;
    }
    const auto header = [](const std::string &answer, const std::string &name) {
      const auto at = answer.find("\r\n" + name + ": ");
      if (at == std::string::npos || at > answer.find("\r\n\r\n")) return std::string();
      const auto start = at + name.size() + 4;
      return answer.substr(start, answer.find("\r\n", start) - start);
    };
    const auto &plain = answers[0], &gzipped = answers[1];
    CHECK(header(gzipped, "Content-Encoding") == "gzip");
    CHECK(header(plain, "Content-Encoding").empty());
    const auto etag = header(plain, "ETag");
    CHECK(etag.find("-v") != std::string::npos); // the voter's own
    CHECK(header(gzipped, "ETag") == etag.substr(0, etag.size() - 1) + "-gz\"");
    // Only the uncompressed one was the reactor's to give.
    CHECK(site.server().cookie_answers() == before + 1);
  }
}
