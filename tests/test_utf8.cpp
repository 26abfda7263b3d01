// Text the server says back is valid UTF-8, cut between characters: the one strict validator
// and its helpers (domain/utf8.h), then every place a request's text can come back in an
// answer, sent every kind of broken sequence over HTTP.
#include <catch2/catch.hpp>

#include "auth/secrets.h"
#include "domain/utf8.h"
#include "middleware/request_parsing.h"
#include "test_support.h"

using namespace verdict;

namespace {

// A check written apart from domain/utf8.cpp, from the table of well-formed byte sequences in
// the Unicode Standard (chapter 3, table 3-7), so a fault shared by the validator and the code
// it checks cannot hide: each range is the bytes allowed at that place of the sequence.
bool well_formed_by_table(std::string_view text) {
  struct Row {
    unsigned char low[4], high[4];
    size_t length;
  };
  static constexpr Row kTable[] = {
      {{0x00}, {0x7f}, 1},
      {{0xc2, 0x80}, {0xdf, 0xbf}, 2},
      {{0xe0, 0xa0, 0x80}, {0xe0, 0xbf, 0xbf}, 3},
      {{0xe1, 0x80, 0x80}, {0xec, 0xbf, 0xbf}, 3},
      {{0xed, 0x80, 0x80}, {0xed, 0x9f, 0xbf}, 3},
      {{0xee, 0x80, 0x80}, {0xef, 0xbf, 0xbf}, 3},
      {{0xf0, 0x90, 0x80, 0x80}, {0xf0, 0xbf, 0xbf, 0xbf}, 4},
      {{0xf1, 0x80, 0x80, 0x80}, {0xf3, 0xbf, 0xbf, 0xbf}, 4},
      {{0xf4, 0x80, 0x80, 0x80}, {0xf4, 0x8f, 0xbf, 0xbf}, 4},
  };
  size_t at = 0;
  while (at < text.size()) {
    bool matched = false;
    for (const auto &row : kTable) {
      if (at + row.length > text.size()) continue;
      bool inside = true;
      for (size_t k = 0; k < row.length && inside; ++k) {
        const auto byte = static_cast<unsigned char>(text[at + k]);
        inside = byte >= row.low[k] && byte <= row.high[k];
      }
      if (inside) {
        at += row.length;
        matched = true;
        break;
      }
    }
    if (!matched) return false;
  }
  return true;
}

// Every kind of broken sequence, percent-encoded as a request carries it, and why it is broken.
const std::vector<std::pair<std::string, std::string>> kBroken = {
    {"%C3", "truncated 2-byte"},
    {"%E2%82", "truncated 3-byte"},
    {"%F0%9F%98", "truncated 4-byte"},
    {"a%C3b", "truncated 2-byte before ASCII"},
    {"%80", "lone continuation byte"},
    {"%BF%BF", "two continuation bytes"},
    {"%C0%AF", "overlong 2-byte slash"},
    {"%C1%BF", "overlong 2-byte"},
    {"%E0%80%AF", "overlong 3-byte slash"},
    {"%E0%9F%BF", "overlong 3-byte"},
    {"%F0%80%80%AF", "overlong 4-byte slash"},
    {"%F0%8F%BF%BF", "overlong 4-byte"},
    {"%ED%A0%80", "high surrogate"},
    {"%ED%BF%BF", "low surrogate"},
    {"%ED%A0%BD%ED%B8%80", "surrogate pair"},
    {"%F4%90%80%80", "past U+10FFFF"},
    {"%F5%80%80%80", "lead byte past Unicode"},
    {"%F8%88%80%80%80", "5-byte form"},
    {"%FC%84%80%80%80%80", "6-byte form"},
    {"%FE", "0xFE"},
    {"%FF", "0xFF"},
    {"x%C0%AFy%ED%A0%80z", "the issue's search"},
};

// Names of 41 bytes and more whose 40th byte falls inside a character: said back cut at 40
// bytes, they would end in half a character.
const std::vector<std::string> kCutAtForty = {
    std::string(39, 'a') + "%C3%A9",         // é across bytes 40-41
    std::string(38, 'a') + "%E2%82%AC",      // € across 39-41
    std::string(37, 'a') + "%F0%9F%98%80",   // 😀 across 38-41
    std::string(39, 'a') + "%E2%82%AC%C3%A9" // and more after it
};

std::string decoded(const std::string &percent_encoded) {
  return httplib::detail::decode_url(percent_encoded, false);
}

void check_answer_is_utf8(const httplib::Result &res) {
  REQUIRE(res);
  CHECK(is_valid_utf8(res->body));
  CHECK(well_formed_by_table(res->body));
}

httplib::Result post(httplib::Client &client, const std::string &path, const std::string &body,
                     const std::string &cookie = "") {
  httplib::Headers headers{{"Sec-Fetch-Site", "same-origin"}};
  if (!cookie.empty()) headers.emplace("Cookie", cookie);
  return client.Post(path.c_str(), headers, body, "application/x-www-form-urlencoded");
}

} // namespace

TEST_CASE("utf8: the test's own table check agrees with known good and bad text") {
  CHECK(well_formed_by_table("plain, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80"));
  CHECK_FALSE(well_formed_by_table("\xc0\xaf"));
  CHECK_FALSE(well_formed_by_table("\xed\xa0\x80"));
  CHECK_FALSE(well_formed_by_table("\xf4\x90\x80\x80"));
}

TEST_CASE("utf8: the validator takes RFC 3629's UTF-8 and nothing else") {
  for (const std::string good : {"", "ascii", "caf\xc3\xa9", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80",
                                 "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80",
                                 "\xf4\x8f\xbf\xbf", "\xf0\x9f\x98\x80 emoji"}) {
    INFO(good);
    CHECK(is_valid_utf8(good));
    CHECK(well_formed_by_table(good));
  }
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    CHECK_FALSE(is_valid_utf8(decoded(encoded)));
    CHECK_FALSE(well_formed_by_table(decoded(encoded)));
  }
}

TEST_CASE("utf8: a character is read whole, and a broken sequence one byte at a time") {
  const auto euro = first_character("\xe2\x82\xac!");
  CHECK(euro.valid);
  CHECK(euro.code == 0x20ac);
  CHECK(euro.length == 3);
  const auto max = first_character("\xf4\x8f\xbf\xbf");
  CHECK(max.valid);
  CHECK(max.code == 0x10ffff);
  const auto overlong = first_character("\xc0\xaf");
  CHECK_FALSE(overlong.valid);
  CHECK(overlong.code == 0xfffd);
  CHECK(overlong.length == 1);
  CHECK(character_count("caf\xc3\xa9") == 4);
  CHECK(character_count("\xc0\xaf") == 2);
}

TEST_CASE("utf8: a cut to at most N bytes ends between characters") {
  CHECK(cut_to_whole_characters("abc", 10) == "abc");
  CHECK(cut_to_whole_characters("abc", 2) == "ab");
  CHECK(cut_to_whole_characters("abc", 0).empty());
  CHECK(cut_to_whole_characters("a\xc3\xa9", 2) == "a");
  CHECK(cut_to_whole_characters("a\xc3\xa9", 3) == "a\xc3\xa9");
  CHECK(cut_to_whole_characters("a\xe2\x82\xac", 3) == "a");
  CHECK(cut_to_whole_characters("a\xf0\x9f\x98\x80", 4) == "a");
  CHECK(cut_to_whole_characters("a\xf0\x9f\x98\x80", 5) == "a\xf0\x9f\x98\x80");
  // Broken bytes are one each, so a cut through them still takes as many as fit.
  CHECK(cut_to_whole_characters("\xff\xff\xff", 2) == "\xff\xff");
  for (const auto &name : kCutAtForty) {
    const auto bytes = decoded(name);
    for (size_t most = 0; most <= bytes.size(); ++most) {
      const auto cut = cut_to_whole_characters(bytes, most);
      INFO(name << " at " << most);
      CHECK(cut.size() <= most);
      CHECK(cut.size() + 3 >= most); // never more than one character short
      CHECK(is_valid_utf8(cut));
      CHECK(bytes.starts_with(cut));
    }
  }
}

TEST_CASE("utf8: any bytes made reflectable are valid UTF-8 without control characters") {
  CHECK(with_invalid_replaced("a\xc0\xaf"
                              "b") == "a\xef\xbf\xbd\xef\xbf\xbd"
                                      "b");
  CHECK(with_invalid_replaced("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(reflectable_text("caf\xc3\xa9", 40) == "caf\xc3\xa9");
  CHECK(reflectable_text("a\nb\x7f", 40) == "a\xef\xbf\xbd"
                                            "b\xef\xbf\xbd");
  CHECK(reflectable_text("a\xc2\x85", 40) == "a\xef\xbf\xbd"); // C1's NEL
  CHECK(reflectable_text(std::string(39, 'a') + "\xc3\xa9", 40) == std::string(39, 'a') + "…");
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    const auto shown = reflectable_text(decoded(encoded), 40);
    CHECK(is_valid_utf8(shown));
    CHECK(well_formed_by_table(shown));
    CHECK(shown.find(kReplacementCharacter) != std::string::npos);
  }
}

TEST_CASE("utf8: a form's error says back only whole, printable characters") {
  for (const auto &name : kCutAtForty) {
    INFO(name);
    const auto form = parse_form(name + "=1", {"verdict"});
    CHECK(form.error.find("unknown field") != std::string::npos);
    CHECK(is_valid_utf8(form.error));
    CHECK(well_formed_by_table(form.error));
    CHECK(form.error.find(std::string(37, 'a')) != std::string::npos);
  }
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    for (const auto &body : {encoded + "=1", "verdict=" + encoded}) {
      const auto form = parse_form(body, {"verdict"});
      CHECK_FALSE(form.ok());
      CHECK(is_valid_utf8(form.error));
      CHECK(well_formed_by_table(form.error));
    }
    CHECK(parse_form("verdict=" + encoded, {"verdict"}).error ==
          "The field \"verdict\" is not valid UTF-8.");
  }
  const auto control = parse_form("na%01me=1", {"verdict"});
  CHECK(control.error.find('\x01') == std::string::npos);
}

TEST_CASE("utf8: every broken sequence in the search text is refused with a page that says so") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    const auto res = client.Get(("/search?q=" + encoded).c_str());
    check_answer_is_utf8(res);
    CHECK(res->status == 400);
    CHECK(test::visible_text(res->body).find("The search text is not valid UTF-8.") !=
          std::string::npos);
  }
  // Good text beside it is looked for and said back.
  const auto good = client.Get("/search?q=caf%C3%A9");
  check_answer_is_utf8(good);
  CHECK(good->status == 200);
  CHECK(good->body.find("caf\xc3\xa9") != std::string::npos);
}

TEST_CASE("utf8: broken sequences in addresses and other query parameters come back as valid "
          "pages") {
  test::SiteServer site;
  auto client = site.client();
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    // Paths: no route takes them, so the 404 page answers, whatever the bytes.
    for (const auto &path : {"/" + encoded, "/tools/" + encoded, "/compare/" + encoded,
                             "/reviewers/" + encoded + "/feed.xml", "/api/tools/" + encoded}) {
      INFO(path);
      const auto res = client.Get(path.c_str());
      check_answer_is_utf8(res);
      CHECK(res->status == 404);
    }
    // Parameters that are refused when they are not what they must be.
    for (const auto &target :
         {"/tools?page=" + encoded, "/?page=" + encoded, "/compare?a=" + encoded + "&b=codestral",
          "/search?q=ok&page=" + encoded, "/api/tools?page=" + encoded}) {
      INFO(target);
      const auto res = client.Get(target.c_str());
      check_answer_is_utf8(res);
      CHECK(res->status == 400);
    }
    // Parameters a page takes only when they are what it needs: the page is itself.
    const auto sign_in = client.Get(("/admin/login?next=" + encoded).c_str());
    check_answer_is_utf8(sign_in);
    CHECK(sign_in->status == 200);
    CHECK(sign_in->body.find("name=\"next\" value=\"/admin\"") != std::string::npos);
    const auto subscribed = client.Get(("/subscribed?m=" + encoded).c_str());
    check_answer_is_utf8(subscribed);
    CHECK(subscribed->status == 404);
  }
}

TEST_CASE("utf8: broken sequences in the names and values of readers' forms are refused as valid "
          "pages, and nothing is written") {
  test::SiteServer site;
  auto client = site.client();
  client.set_tcp_nodelay(true); // a POST's head and body go out at once: hundreds are sent
  const auto figures = site.store().figures();
  std::vector<std::string> bodies;
  for (const auto &[encoded, why] : kBroken)
    for (const auto &place : {encoded + "=ship", "verdict=" + encoded, "email=" + encoded,
                              "pick=" + encoded, "back=" + encoded, "token=" + encoded})
      bodies.push_back(place);
  for (const auto &name : kCutAtForty)
    bodies.push_back(name + "=ship");
  for (const auto &body : bodies) {
    INFO(body);
    for (const auto *path :
         {"/tools/codestral-2-1/vote", "/compare/cursor-background-agent-vs-codestral-2-1/vote",
          "/subscribe", "/admin/login"}) {
      INFO(path);
      const auto res = post(client, path, body);
      check_answer_is_utf8(res);
      CHECK(res->status == 400);
    }
  }
  // An address that is valid UTF-8 but no address is said back in the form, still valid.
  const auto typed = post(client, "/subscribe", "email=caf%C3%A9");
  check_answer_is_utf8(typed);
  CHECK(typed->status == 400);
  CHECK(typed->body.find("caf\xc3\xa9") != std::string::npos);
  const auto after = site.store().figures();
  CHECK(after.tool_votes + after.tool_votes_set_aside ==
        figures.tool_votes + figures.tool_votes_set_aside);
  CHECK(after.pair_picks + after.pair_picks_set_aside ==
        figures.pair_picks + figures.pair_picks_set_aside);
  CHECK(site.store().subscriber_counts().total() == 0);
}

TEST_CASE("utf8: broken sequences in desk forms and desk addresses are refused as valid pages, "
          "and nothing is written") {
  test::SiteServer site;
  test::add_editor(site.store(), "editor@example.com", auth::hash_password("a long desk password"));
  auto client = site.client();
  client.set_tcp_nodelay(true);
  const auto session = test::sign_in_at_desk(client, "editor@example.com", "a long desk password");
  const auto tools_before = site.store().tools_by_name().size();
  const std::string form = "name=Careful+Agent&slug=careful-agent&category=developer-tools"
                           "&tagline=Writes+the+tests+first.&description=A+careful+agent."
                           "&entry=Freemium";
  for (const auto &[encoded, why] : kBroken) {
    INFO(why);
    for (const auto &body :
         {form + "&" + encoded + "=1", "name=" + encoded + form.substr(form.find('&')),
          form + "&vendor=" + encoded, "name=" + encoded, "description=" + encoded}) {
      INFO(body);
      const auto res = test::post_at_desk(client, session, "/admin/tools", body);
      check_answer_is_utf8(res);
      CHECK(res->status == 400);
    }
    const auto saved = test::get_at_desk(client, session, "/admin/tools?saved=" + encoded);
    check_answer_is_utf8(saved);
    CHECK(saved->status == 200);
    CHECK(test::visible_text(saved->body).find("Saved the tool ") != std::string::npos);
    CHECK(saved->body.find(kReplacementCharacter) != std::string::npos);
    const auto missing = test::get_at_desk(client, session, "/admin/tools/" + encoded);
    check_answer_is_utf8(missing);
    CHECK(missing->status == 404);
  }
  for (const auto &name : kCutAtForty) {
    INFO(name);
    const auto res = test::post_at_desk(client, session, "/admin/tools", form + "&" + name + "=1");
    check_answer_is_utf8(res);
    CHECK(res->status == 400);
    CHECK(test::visible_text(res->body).find("unknown field") != std::string::npos);
    const auto saved = test::get_at_desk(client, session, "/admin/tools?saved=" + name);
    check_answer_is_utf8(saved);
  }
  CHECK(site.store().tools_by_name().size() == tools_before);
  CHECK(site.store().edit_log({1, 10}).items.empty());
}
