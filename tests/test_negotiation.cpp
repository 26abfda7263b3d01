// The one reading of Accept-Encoding and If-None-Match (transport/negotiation.h), as RFC 9110
// §12.5.3 and §13.1.2 put them, and the framer that applies it to every request.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "transport/negotiation.h"
#include "transport/request_framing.h"

using namespace verdict::transport;
using Coding = ContentCoding;

namespace {

struct Case {
  const char *accept_encoding;
  Coding chosen;
};

void check_choices(const std::vector<Case> &cases) {
  for (const auto &[accept_encoding, chosen] : cases) {
    INFO("Accept-Encoding: " << accept_encoding);
    CHECK(choose_coding(accept_encoding) == chosen);
  }
}

} // namespace

TEST_CASE("accept-encoding: a named coding is chosen, br before gzip, whatever the case and "
          "spaces") {
  check_choices({
      {"br", Coding::brotli},
      {"gzip", Coding::gzip},
      {"x-gzip", Coding::gzip},
      {"gzip, deflate, br", Coding::brotli},
      {"gzip, deflate, br, zstd", Coding::brotli},
      {"deflate, gzip", Coding::gzip},
      {"BR", Coding::brotli},
      {"GZip", Coding::gzip},
      {" br ", Coding::brotli},
      {"\tgzip\t", Coding::gzip},
      {"x, br", Coding::brotli},
      {",, ,gzip,", Coding::gzip},
      {"br;q=1", Coding::brotli},
      {"br ; q=1.000", Coding::brotli},
      {"gzip;Q=0.5", Coding::gzip},
      {"identity, gzip", Coding::gzip}, // equal q: the compressed coding
  });
}

TEST_CASE("accept-encoding: nothing, an empty field and unknown or encoded names are identity") {
  check_choices({
      {"", Coding::identity},
      {"   ", Coding::identity},
      {"identity", Coding::identity},
      {"deflate", Coding::identity},
      {"%62r", Coding::identity},
      {"%67zip", Coding::identity},
      {"brotli", Coding::identity},
      {"gzip-ish", Coding::identity},
      {"abr", Coding::identity},
      {"b r", Coding::identity},
  });
  CHECK(AcceptEncoding().choice() == Coding::identity); // no field at all
}

TEST_CASE("accept-encoding: q=0 is not acceptable and the highest q wins") {
  check_choices({
      {"br;q=0", Coding::identity},
      {"br;q=0, gzip", Coding::gzip},
      {"gzip;q=0, br;q=0", Coding::identity},
      {"gzip;q=0.000, br;q=0.0", Coding::identity},
      {"br;q=0.5, gzip", Coding::gzip},
      {"br;q=0.5, gzip;q=0.501", Coding::gzip},
      {"br;q=0.501, gzip;q=0.5", Coding::brotli},
      {"br;q=0.5, gzip;q=0.5", Coding::brotli}, // equal q: br
      {"gzip;q=0.2, identity;q=0.8", Coding::identity},
      {"gzip;q=0.8, identity;q=0.2", Coding::gzip},
      {"gzip;q=0.001", Coding::gzip},       // identity unnamed ranks below any acceptable coding
      {"gzip, gzip;q=0", Coding::identity}, // named twice: the refusal holds
      {"x-gzip;q=0, gzip", Coding::identity},
  });
}

TEST_CASE("accept-encoding: * covers the codings not named, identity included") {
  check_choices({
      {"*", Coding::brotli},
      {"*;q=0.5, gzip", Coding::gzip},
      {"*;q=0.5, gzip;q=0.4", Coding::brotli},
      {"*, br;q=0", Coding::gzip},
      {"*;q=0, gzip", Coding::gzip},
      {"*;q=0, identity", Coding::identity},
      {"*;q=0, identity;q=0.5, gzip;q=0.4", Coding::identity},
      // Nothing acceptable: identity all the same (RFC 9110 lets the server disregard the
      // field rather than answer 406).
      {"*;q=0", Coding::identity},
      {"identity;q=0", Coding::identity},
      {"identity;q=0, br", Coding::brotli},
      {"identity;q=0, *;q=0", Coding::identity},
      {"identity;q=0, gzip;q=0.1", Coding::gzip},
  });
}

TEST_CASE("accept-encoding: an element whose weight does not parse is absent") {
  check_choices({
      {"br;q=2", Coding::identity},
      {"br;q=1.5", Coding::identity},
      {"br;q=1.001", Coding::identity},
      {"br;q=0.1234", Coding::identity},
      {"br;q=.5", Coding::identity},
      {"br;q=", Coding::identity},
      {"br;q", Coding::identity},
      {"br;q=-1", Coding::identity},
      {"br;q=0.5x", Coding::identity},
      {"br;level=1", Coding::identity},
      {"br;q=0.5;x=1", Coding::identity},
      {"br;q = 0.5", Coding::identity},
      {"br;q=abc, gzip", Coding::gzip},
      {"gzip;q=0.x, br;q=0.9", Coding::brotli},
      {"*;q=x", Coding::identity},
      {"identity;q=nope, *;q=0", Coding::identity}, // still nothing acceptable
  });
}

TEST_CASE("accept-encoding: several fields are one list") {
  AcceptEncoding split;
  split.add("gzip");
  split.add("br;q=0.5");
  CHECK(split.choice() == Coding::gzip);
  AcceptEncoding refused_later;
  refused_later.add("br");
  refused_later.add("br;q=0");
  CHECK(refused_later.choice() == Coding::identity);
  AcceptEncoding with_empty;
  with_empty.add("");
  with_empty.add("br");
  CHECK(with_empty.choice() == Coding::brotli);
}

TEST_CASE("accept-encoding: httplib is handed exactly the coding chosen, and compresses only "
          "what it takes for text") {
  CHECK(accept_encoding_for(Coding::brotli) == "br");
  CHECK(accept_encoding_for(Coding::gzip) == "gzip");
  CHECK(accept_encoding_for(Coding::identity).empty());
  // What is handed over reads back as the same choice.
  for (const auto coding : {Coding::brotli, Coding::gzip, Coding::identity})
    CHECK(choose_coding(accept_encoding_for(coding)) == coding);

  for (const char *type : {"text/html; charset=utf-8", "text/css", "image/svg+xml",
                           "application/json", "application/xml"}) {
    INFO(type);
    CHECK(is_compressible(type));
    CHECK(coding_of_answer(Coding::gzip, type) == Coding::gzip);
  }
  for (const char *type : {"image/png", "text/event-stream", "application/json; charset=utf-8",
                           "application/atom+xml", ""}) {
    INFO(type);
    CHECK_FALSE(is_compressible(type));
    CHECK(coding_of_answer(Coding::brotli, type) == Coding::identity);
  }
}

TEST_CASE("validators: each coding has its own strong ETag") {
  CHECK(etag_in_coding("\"abc\"", Coding::identity) == "\"abc\"");
  CHECK(etag_in_coding("\"abc\"", Coding::gzip) == "\"abc-gz\"");
  CHECK(etag_in_coding("\"abc\"", Coding::brotli) == "\"abc-br\"");
  CHECK(etag_in_coding("\"abc-v01\"", Coding::brotli) == "\"abc-v01-br\"");
}

TEST_CASE("validators: If-None-Match names an ETag by weak comparison, in lists, or by *") {
  const std::string etag = "\"abc-gz\"";
  for (const char *names : {"\"abc-gz\"", "W/\"abc-gz\"", "*", " * ", "\"x\", \"abc-gz\"",
                            "\"x\",\"abc-gz\"", "W/\"x\" , W/\"abc-gz\" ", "\"abc-gz\", \"x\""}) {
    INFO("If-None-Match: " << names);
    CHECK(none_match_names(names, etag));
  }
  for (const char *names :
       {"", "\"abc\"", "\"abc-br\"", "\"abc-gz-x\"", "abc-gz", "\"abc-g\"", "\"x\", *",
        "w/\"abc-gz\"", "\"abc-gz", "W/abc-gz", "\"x\"\"abc-gz\"", "\"ABC-GZ\"", "\"abc\"-gz"}) {
    INFO("If-None-Match: " << names);
    CHECK_FALSE(none_match_names(names, etag));
  }
}

TEST_CASE("framing: every spelling of Accept-Encoding is read once, and httplib is handed that "
          "reading") {
  const auto framed = [](const std::string &headers) {
    return frame_request("GET /methodology HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n");
  };
  const std::vector<std::pair<std::string, Coding>> cases = {
      {"", Coding::identity},
      {"Accept-Encoding: %62r\r\n", Coding::identity},
      {"Accept-Encoding: %67zip\r\n", Coding::identity},
      {"Accept-Encoding:\r\n", Coding::identity},
      {"Accept-Encoding: BR\r\n", Coding::brotli},
      {"accept-encoding:  br \r\n", Coding::brotli},
      {"Accept-Encoding: br;q=1\r\n", Coding::brotli},
      {"Accept-Encoding: br;q=0\r\n", Coding::identity},
      {"Accept-Encoding: x, br\r\n", Coding::brotli},
      {"Accept-Encoding: %62r\r\nAccept-Encoding: gzip\r\n", Coding::gzip},
      {"Accept-Encoding: gzip\r\nAccept-Encoding: br\r\n", Coding::brotli},
      {"Accept-Encoding: br\r\nAccept-Encoding: br;q=0\r\n", Coding::identity},
      {"Accept-Encoding:\r\nAccept-Encoding: gzip\r\n", Coding::gzip},
  };
  for (const auto &[headers, coding] : cases) {
    INFO(headers);
    const auto framing = framed(headers);
    REQUIRE(framing.kind == Framing::Kind::complete);
    CHECK(framing.coding == coding);
    CHECK(framing.shareable);
    const auto head = head_for_parser(
        "GET /methodology HTTP/1.1\r\nHost: x\r\n" + headers + "X-After: 1\r\n\r\n", framing);
    const std::string handed = coding == Coding::identity ? ""
                               : coding == Coding::gzip   ? "Accept-Encoding: gzip\r\n"
                                                          : "Accept-Encoding: br\r\n";
    CHECK(head == "GET /methodology HTTP/1.1\r\nHost: x\r\nX-After: 1\r\n" + handed + "\r\n");
  }
}

TEST_CASE("framing: a header httplib would read otherwise keeps the request from the shared "
          "cache, is refused, or is not handed over") {
  const auto framed = [](const std::string &headers) {
    return frame_request("GET / HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n");
  };
  CHECK(framed("").shareable);
  CHECK(framed("Cookie: verdict_voter=abc\r\n").shareable_but_cookie);
  for (const char *headers : {"Cookie: verdict_voter=%61bc\r\n", "Cookie:\r\n",
                              "Connection: %63lose\r\n", "Cookie: a=1\r\nCookie: b=2\r\n"}) {
    INFO(headers);
    const auto framing = framed(headers);
    REQUIRE(framing.kind == Framing::Kind::complete);
    CHECK_FALSE(framing.shareable);
    CHECK_FALSE(framing.shareable_but_cookie);
  }
  const auto percent_host = frame_request("GET / HTTP/1.1\r\nHost: a%2Fb\r\n\r\n");
  CHECK(percent_host.kind == Framing::Kind::refused);
  CHECK(percent_host.status == 400);

  const std::string conditional = "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"%61bc\"\r\n"
                                  "If-None-Match: \"abc\"\r\n\r\n";
  const auto framing = frame_request(conditional);
  REQUIRE(framing.kind == Framing::Kind::complete);
  CHECK_FALSE(framing.shareable);
  CHECK(head_for_parser(conditional, framing) ==
        "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"abc\"\r\n\r\n");
}
