#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "domain/clock.h"
#include "middleware/request_parsing.h"

using namespace verdict;

TEST_CASE("a form body decodes percent-encoding and plus signs") {
  const auto form = parse_form("verdict=ship&back=%2Fcompare%2Fa-vs-b", {"verdict", "back"});
  REQUIRE(form.ok());
  CHECK(form.fields.at("verdict") == "ship");
  CHECK(form.fields.at("back") == "/compare/a-vs-b");
  CHECK(parse_form("email=a+b%40c.io", {"email"}).fields.at("email") == "a b@c.io");
}

TEST_CASE("a form body with anything unexpected is refused with a reason") {
  CHECK(parse_form("verdict=%zz", {"verdict"}).error.find("percent-encoding") != std::string::npos);
  CHECK(parse_form("verdict=%4", {"verdict"}).error.find("percent-encoding") != std::string::npos);
  CHECK(parse_form("verdict=ship&admin=1", {"verdict"}).error.find("unknown field") !=
        std::string::npos);
  CHECK(parse_form("verdict=ship&verdict=skip", {"verdict"}).error.find("repeats") !=
        std::string::npos);
  CHECK(parse_form("verdict=sh%0Aip", {"verdict"}).error.find("control") != std::string::npos);
  CHECK(parse_form("verdict=%ff%fe", {"verdict"}).error.find("UTF-8") != std::string::npos);
}

TEST_CASE("the voter cookie is 32 lowercase hex digits or nothing") {
  const std::string id = "0123456789abcdef0123456789abcdef";
  CHECK(voter_from_cookie("verdict_voter=" + id) == id);
  CHECK(voter_from_cookie("theme=dark; verdict_voter=" + id + "; x=1") == id);
  CHECK(voter_from_cookie("verdict_voter=" + id + "00").empty());
  CHECK(voter_from_cookie("xverdict_voter=" + id).empty());
  CHECK(voter_from_cookie("verdict_voter=0123456789ABCDEF0123456789abcdef").empty());
  CHECK(voter_from_cookie("").empty());
}

TEST_CASE("new voter ids are 32 hex digits: the time they were issued, then 80 random bits") {
  // Each random hex digit is drawn on its own: over 20 ids, both digits of some byte differ.
  bool digits_differ = false;
  for (int i = 0; i < 20; ++i) {
    const auto id = new_voter_id(unix_now_ms());
    for (size_t k = 12; k + 1 < id.size(); k += 2)
      digits_differ = digits_differ || id[k] != id[k + 1];
  }
  CHECK(digits_differ);
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const auto a = new_voter_id(unix_now_ms());
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  const auto b = new_voter_id(unix_now_ms());
  CHECK(a.size() == 32);
  CHECK(voter_from_cookie("verdict_voter=" + a) == a);
  const auto issued = std::stoll(a.substr(0, 12), nullptr, 16);
  CHECK(issued >= now_ms);
  CHECK(issued < now_ms + 5000);
  CHECK(a < b); // issued later, sorts later
  CHECK(a.substr(12) != b.substr(12));
}

TEST_CASE("emails need one @ and a dotted domain") {
  CHECK(is_valid_email("reader@example.com"));
  CHECK(is_valid_email("first.last+ai@mail.example.co.uk"));
  CHECK_FALSE(is_valid_email("reader"));
  CHECK_FALSE(is_valid_email("reader@localhost"));
  CHECK_FALSE(is_valid_email("a@b@example.com"));
  CHECK_FALSE(is_valid_email("<script>@example.com"));
  CHECK_FALSE(is_valid_email("reader@exa mple.com"));
  CHECK_FALSE(is_valid_email("reader@example..com"));
}

TEST_CASE("return paths stay on this site") {
  CHECK(is_local_return_path("/compare/a-vs-b"));
  CHECK(is_local_return_path("/"));
  CHECK_FALSE(is_local_return_path("//evil.example"));
  CHECK_FALSE(is_local_return_path("https://evil.example/"));
  CHECK_FALSE(is_local_return_path("/tools/x?next=http://evil"));
  CHECK_FALSE(is_local_return_path(""));
}

TEST_CASE("same-origin check follows Fetch Metadata, then Origin, then Referer") {
  const std::string host = "127.0.0.1:8080";
  CHECK(is_same_origin_request("same-origin", "", "", host));
  CHECK(is_same_origin_request("none", "", "", host));
  CHECK_FALSE(is_same_origin_request("cross-site", "http://127.0.0.1:8080", "", host));
  CHECK_FALSE(is_same_origin_request("same-site", "", "", host));
  CHECK(is_same_origin_request("", "http://127.0.0.1:8080", "", host));
  CHECK_FALSE(is_same_origin_request("", "https://evil.example", "", host));
  CHECK_FALSE(is_same_origin_request("", "null", "", host));
  CHECK(is_same_origin_request("", "", "http://127.0.0.1:8080/compare/x", host));
  CHECK_FALSE(is_same_origin_request("", "", "https://evil.example/", host));
  CHECK(is_same_origin_request("", "", "", host));
}

TEST_CASE("a cookie header cut short inside the voter id is not read past its end") {
  // Found by the fuzzer: the id ran to the end of a header shorter than 32 digits.
  CHECK(voter_from_cookie("verdict_voter=0123").empty());
  CHECK(voter_from_cookie(std::string("verdict_voter=") + std::string(31, 'a')).empty());
}

TEST_CASE("form names and values refuse every control character and malformed UTF-8") {
  CHECK(parse_form("verdict=sh%7Fip", {"verdict"}).error.find("control") != std::string::npos);
  CHECK(parse_form("ver%0Adict=ship", {"verdict", "ver\ndict"}).error.find("control") !=
        std::string::npos);
  CHECK(parse_form("verdict=%C3%C3", {"verdict"}).error.find("UTF-8") != std::string::npos);
  CHECK(parse_form("verdict=%C3", {"verdict"}).error.find("UTF-8") != std::string::npos);
  CHECK(parse_form("verdict=%E2%82", {"verdict"}).error.find("UTF-8") != std::string::npos);
  CHECK(parse_form("verdict=%C3%A9", {"verdict"}).fields.at("verdict") == "é");
}

TEST_CASE("a voter id uses only the digits 0-9 and a-f") {
  CHECK(voter_from_cookie("verdict_voter=" + std::string(32, 'g')).empty());
  CHECK(voter_from_cookie("verdict_voter=" + std::string(32, 'z')).empty());
  CHECK(voter_from_cookie("verdict_voter=" + std::string(31, 'f') + "/").empty());
  CHECK(voter_from_cookie("verdict_voter=" + std::string(32, 'f')) == std::string(32, 'f'));
}

TEST_CASE("emails keep to the limits of the address format") {
  CHECK(is_valid_email(std::string(64, 'a') + "@example.com"));
  CHECK_FALSE(is_valid_email(std::string(65, 'a') + "@example.com"));
  const auto long_domain = std::string(63, 'd') + "." + std::string(63, 'd') + "." +
                           std::string(63, 'd') + ".com"; // 195 characters
  const auto at_limit = std::string(254 - 1 - long_domain.size(), 'a') + "@" + long_domain;
  CHECK(at_limit.size() == 254);
  CHECK(is_valid_email(at_limit));
  CHECK_FALSE(is_valid_email("a" + at_limit));
  CHECK_FALSE(is_valid_email("reader@example."));
  CHECK_FALSE(is_valid_email("reader@.example.com"));
  CHECK_FALSE(is_valid_email("reader@-example.com"));
  CHECK_FALSE(is_valid_email("@example.com"));
}

TEST_CASE("a return path is one leading slash and slug characters, nothing else") {
  for (const auto *off_site :
       {"//evil", "//localhost", "/\\evil", "\\\\evil", "evil", "tools/x", "/tools/x:80",
        "/tools/X", "/tools/x.y", "/tools/x?y", "/tools/x#y", "/tools/x%2Fy", "/tools/x y"}) {
    INFO(off_site);
    CHECK_FALSE(is_local_return_path(off_site));
  }
  CHECK(is_local_return_path("/tools/codestral-2-1"));
  CHECK_FALSE(is_local_return_path("/" + std::string(300, 'a')));
}

TEST_CASE("the same-origin check compares whole hosts and needs one to compare with") {
  const std::string host = "127.0.0.1:8080";
  CHECK_FALSE(is_same_origin_request("", "http://127.0.0.1:8080.evil.example", "", host));
  CHECK_FALSE(is_same_origin_request("", "http://127.0.0.1", "", host));
  CHECK_FALSE(is_same_origin_request("", "", "http://127.0.0.1:8080.evil.example/", host));
  CHECK_FALSE(is_same_origin_request("", "null", "", ""));
  CHECK_FALSE(is_same_origin_request("", "http://", "", ""));
  CHECK_FALSE(is_same_origin_request("", "", "http://", ""));
}

TEST_CASE("only an HTML form's content type is a form") {
  CHECK(is_form_content_type("application/x-www-form-urlencoded"));
  CHECK(is_form_content_type("Application/X-WWW-Form-Urlencoded; charset=UTF-8"));
  CHECK_FALSE(is_form_content_type(""));
  CHECK_FALSE(is_form_content_type("application/x-www-form-urlencodedx"));
  CHECK_FALSE(is_form_content_type("multipart/form-data; boundary=x"));
  CHECK_FALSE(is_form_content_type("text/plain; x=application/x-www-form-urlencoded"));
}

TEST_CASE("a multi-line form field keeps its line breaks as LF, and any other field is one line") {
  const auto form =
      parse_form("bio=One.%0D%0ATwo.%0AThree.%0DFour.&name=Ada", {"bio", "name"}, {"bio"});
  REQUIRE(form.ok());
  CHECK(form.fields.at("bio") == "One.\nTwo.\nThree.\nFour.");
  CHECK(parse_form("bio=a%0D%0A%0D%0Ab", {"bio"}, {"bio"}).fields.at("bio") == "a\n\nb");
  CHECK(parse_form("name=A%0D%0Ada", {"bio", "name"}, {"bio"}).error ==
        "The field \"name\" must be one line, without line breaks or control characters.");
  CHECK(parse_form("bio=a%00b", {"bio"}, {"bio"}).error ==
        "The field \"bio\" holds control characters.");
}
