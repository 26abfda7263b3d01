// Answers the reactor gives from the shared cache (transport/response_cache.h) must be the
// very bytes httplib gives for the same request, must never reach a reader they were not
// made for, and must retire when the site changes.
#include <catch2/catch.hpp>

#include <brotli/decode.h>
#include <zlib.h>

#include <atomic>
#include <map>
#include <set>
#include <utility>

#include "middleware/page_cache.h"
#include "test_support.h"
#include "transport/negotiation.h"
#include "transport/response_cache.h"

using namespace verdict;
using namespace verdict::transport;

namespace {

std::string get(const std::string &path, const std::string &extra_headers = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "\r\n";
}

// Whole answers, one at a time, from a keep-alive connection that may hold several: a head,
// then Content-Length bytes (none for HEAD and 304, which carry a length but no body).
class Answers {
public:
  explicit Answers(test::RawConnection &connection) : connection_(connection) {}
  std::string next(bool has_body = true) {
    while (pending_.find("\r\n\r\n") == std::string::npos && more()) {
    }
    const auto head_end = pending_.find("\r\n\r\n");
    if (head_end == std::string::npos) return std::exchange(pending_, {});
    const auto length_at = pending_.find("Content-Length: ");
    size_t length = 0;
    if (has_body && length_at != std::string::npos && length_at < head_end)
      length = std::stoul(pending_.substr(length_at + 16));
    while (pending_.size() < head_end + 4 + length && more()) {
    }
    auto answer = pending_.substr(0, head_end + 4 + length);
    pending_.erase(0, answer.size());
    return answer;
  }

private:
  bool more() {
    const auto arrived = connection_.read_some();
    pending_ += arrived;
    return !arrived.empty();
  }
  test::RawConnection &connection_;
  std::string pending_;
};

std::string head_of(const std::string &answer) {
  return answer.substr(0, answer.find("\r\n\r\n") + 4);
}

std::string header(const std::string &answer, const std::string &name) {
  const auto at = head_of(answer).find("\r\n" + name + ": ");
  if (at == std::string::npos) return {};
  const auto start = at + name.size() + 4;
  return answer.substr(start, answer.find("\r\n", start) - start);
}

std::string without_line(std::string head, const std::string &line) {
  const auto at = head.find(line + "\r\n");
  if (at != std::string::npos) head.erase(at, line.size() + 2);
  return head;
}

std::string body_of(const std::string &answer) {
  return answer.substr(head_of(answer).size());
}

// A gzip stream's content, as a client that accepts gzip reads it; empty if it is not one.
std::string gunzipped(const std::string &compressed) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return {};
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  char buffer[16384];
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef *>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
  }
  inflateEnd(&stream);
  return status == Z_STREAM_END ? out : std::string();
}

// The same for a brotli stream.
std::string unbrotlied(const std::string &compressed) {
  auto *state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  auto available_in = compressed.size();
  const auto *next_in = reinterpret_cast<const uint8_t *>(compressed.data());
  std::string out;
  BrotliDecoderResult result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
  while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    uint8_t buffer[16384];
    auto available_out = sizeof buffer;
    auto *next_out = buffer;
    result = BrotliDecoderDecompressStream(state, &available_in, &next_in, &available_out,
                                           &next_out, nullptr);
    out.append(reinterpret_cast<char *>(buffer), sizeof buffer - available_out);
  }
  BrotliDecoderDestroyInstance(state);
  return result == BROTLI_DECODER_RESULT_SUCCESS ? out : std::string();
}

// An answer's body as the client reads it, by its Content-Encoding; empty when it cannot be.
std::string decoded_body(const std::string &answer) {
  const auto coding = header(answer, "Content-Encoding");
  if (coding.empty()) return body_of(answer);
  if (coding == "gzip") return gunzipped(body_of(answer));
  if (coding == "br") return unbrotlied(body_of(answer));
  return {};
}

} // namespace

TEST_CASE("shared answers: a cached answer is byte for byte httplib's, with 304s, HEAD and "
          "keep-alive as before") {
  test::SiteServer site;
  const std::vector<std::string> pages = {"/",          test::kBundledComparison, "/tools",
                                          "/reviewers", "/tools/codestral-2-1",   "/subscribe"};
  for (const auto &path : pages) {
    INFO(path);
    test::RawConnection connection(site.port());
    Answers answers(connection);
    connection.send(get(path)); // made by httplib, and kept
    const auto made = answers.next();
    REQUIRE(made.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(header(made, "Keep-Alive") == "timeout=5, max=10000");
    CHECK(header(made, "Connection").empty());

    const auto before = site.server().shared_answers();
    connection.send(get(path) + get(path)); // two more, pipelined: both from the cache
    const auto cached = answers.next();
    const auto again = answers.next();
    CHECK(site.server().shared_answers() == before + 2);
    CHECK(cached == made);
    CHECK(again == made);

    // A condition that does not match makes httplib answer it afresh: the same bytes.
    connection.send(get(path, "If-None-Match: \"something-else\"\r\n"));
    CHECK(answers.next() == made);
    CHECK(site.server().shared_answers() == before + 2);

    // A matching one gets 304 with the validator and no body.
    const auto etag = header(made, "ETag");
    REQUIRE(etag.size() > 2);
    connection.send(get(path, "If-None-Match: " + etag + "\r\n"));
    const auto not_modified = answers.next(false);
    CHECK(not_modified.rfind("HTTP/1.1 304 Not Modified\r\n", 0) == 0);
    CHECK(header(not_modified, "ETag") == etag);
    CHECK(not_modified.size() == head_of(not_modified).size());

    // HEAD: GET's head without its body (httplib adds Accept-Ranges to HEAD answers).
    connection.send("HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const auto head = answers.next(false);
    CHECK(without_line(head, "Accept-Ranges: bytes") == head_of(made));

    // The last request of a connection says so, and the server closes it.
    connection.send(get(path, "Connection: close\r\n"));
    const auto last = connection.read_all();
    CHECK(header(last, "Connection") == "close");
    CHECK(last.substr(head_of(last).size()) == made.substr(head_of(made).size()));
    CHECK(without_line(head_of(last), "Connection: close") ==
          without_line(head_of(made), "Keep-Alive: timeout=5, max=10000"));
  }
}

TEST_CASE("shared answers: a reader with a cookie, a query or credentials never gets the "
          "shared answer") {
  test::SiteServer site;
  auto client = site.client();
  const auto anonymous = client.Get(test::kBundledComparison.c_str())->body;
  REQUIRE(client.Get(test::kBundledComparison.c_str())->body == anonymous); // now kept
  const auto voter =
      test::cookie_from(test::post_form(client, test::kBundledComparison + "/vote", "pick=a"));
  REQUIRE(voter.size() == 32);

  const auto before = site.server().shared_answers();
  test::RawConnection connection(site.port());
  Answers answers(connection);
  connection.send(get(test::kBundledComparison, "Cookie: verdict_voter=" + voter + "\r\n"));
  const auto own = answers.next();
  CHECK(own.find("Withdraw my pick") != std::string::npos);
  CHECK(header(own, "Cache-Control") == "private, no-cache");
  connection.send(get(test::kBundledComparison + "?utm_source=x"));
  CHECK(answers.next().rfind("HTTP/1.1 200", 0) == 0);
  connection.send(get(test::kBundledComparison, "Authorization: Basic eDp5\r\n"));
  CHECK(answers.next().rfind("HTTP/1.1 200", 0) == 0);
  CHECK(site.server().shared_answers() == before);
}

TEST_CASE("shared answers: an answer compressed for one reader never reaches a reader who "
          "cannot read it, and every text answer says it varies by Accept-Encoding") {
  test::SiteServer site;
  for (const auto &path :
       {std::string("/"), test::kBundledComparison, std::string("/tools/codestral-2-1"),
        std::string("/methodology"), test::kBundledComparison + "/badge.svg"}) {
    INFO(path);
    test::RawConnection connection(site.port());
    Answers answers(connection);
    // A browser first (it accepts brotli and gzip), then a client that accepts only gzip, then
    // one that accepts neither, each asked twice so the second can come from the cache.
    std::map<std::string, std::string> first;
    for (const auto &[accepts, encoding] :
         std::vector<std::pair<std::string, std::string>>{{"gzip, deflate, br", "br"},
                                                          {"gzip", "gzip"},
                                                          {"", ""},
                                                          {"identity", ""},
                                                          {"gzip, deflate, br", "br"}}) {
      INFO(accepts);
      const auto extra = accepts.empty() ? std::string() : "Accept-Encoding: " + accepts + "\r\n";
      for (int round = 0; round < 2; ++round) {
        connection.send(get(path, extra));
        const auto answer = answers.next();
        REQUIRE(answer.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
        CHECK(header(answer, "Content-Encoding") == encoding);
        CHECK(header(answer, "Vary").find("Accept-Encoding") != std::string::npos);
        if (encoding.empty()) CHECK(answer.find("\r\n\r\n<") != std::string::npos);
        if (!first.count(accepts)) first[accepts] = answer;
        CHECK(answer == first[accepts]);
      }
    }
  }
}

TEST_CASE("shared answers: a vote retires the kept page, and refusals and errors are never kept") {
  test::SiteServer site;
  auto client = site.client();
  const auto first = client.Get(test::kBundledComparison.c_str())->body;
  REQUIRE(client.Get(test::kBundledComparison.c_str())->body == first);
  REQUIRE(test::post_form(client, test::kBundledComparison + "/vote", "pick=a")->status == 303);
  const auto after = client.Get(test::kBundledComparison.c_str())->body;
  CHECK(after != first); // the tally moved, and the anonymous page shows it

  const auto before = site.server().shared_answers();
  for (int i = 0; i < 2; ++i) {
    CHECK(client.Get("/tools/no-such-tool")->status == 404);
    CHECK(client.Get("/compare/codestral-2-1-vs-cursor-background-agent")->status == 301);
  }
  CHECK(site.server().shared_answers() == before);
}

TEST_CASE("shared answers: only a public 200 without a cookie may be kept") {
  const std::string tail = "Content-Length: 2\r\n\r\nok";
  CHECK(is_shareable_response("HTTP/1.1 200 OK\r\nCache-Control: public, max-age=30\r\n" + tail));
  CHECK(is_shareable_response("HTTP/1.1 200 OK\r\ncache-control:public\r\n" + tail));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\n" + tail));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\nCache-Control: private\r\n" + tail));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\nCache-Control: no-store\r\n" + tail));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\nCache-Control: public\r\n"
                                    "Set-Cookie: a=b\r\n" +
                                    tail));
  CHECK_FALSE(
      is_shareable_response("HTTP/1.1 301 Moved Permanently\r\nCache-Control: public\r\n" + tail));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\nCache-Control: public\r\n"));
  CHECK_FALSE(is_shareable_response("HTTP/1.1 200 OK\r\nX-Note: Cache-Control: public\r\n" + tail));
}

TEST_CASE("page epoch: a write or a new day shows at once without a lag, and waits out a lag") {
  std::atomic<uint64_t> generation{1};
  std::string today = "2026-11-22";
  PageEpoch epoch([&] { return generation.load(); }, [&] { return today; }, std::chrono::hours(1));
  const auto first = epoch.current();
  CHECK(epoch.current() == first);
  generation = 2; // within the hour after the first epoch was shown: it waits
  CHECK(epoch.current() == first);
  today = "2026-11-23";
  CHECK(epoch.current() == first);

  epoch.set_max_lag(std::chrono::milliseconds(0));
  const auto moved = epoch.current();
  CHECK(moved != first);
  CHECK(epoch.current() == moved); // nothing new
  generation = 3;
  CHECK(epoch.current() != moved);
  const auto after_write = epoch.current();
  today = "2026-11-24";
  CHECK(epoch.current() != after_write);
}

TEST_CASE("shared answers: a page stays kept after the site's own write, and a write by "
          "another process (verdict import, say) retires it within a second") {
  test::TempDir dir;
  const auto path = (dir.path / "site.db").string();
  test::SiteServer site(path);
  auto client = site.client();
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  const std::string tool_page = "/tools/codestral-2-1";
  REQUIRE(client.Get(tool_page)->status == 200);
  // Long enough for any late notice of the site's own commit to arrive.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  auto before = site.server().shared_answers();
  const auto kept = client.Get(tool_page);
  REQUIRE(kept->status == 200);
  CHECK(site.server().shared_answers() == before + 1);
  CHECK(test::visible_text(kept->body).find("1 vote") != std::string::npos);

  {
    Store other(path); // its own connections, as another process has
    test::cast_tool_vote(other, test::ballot_of(std::string(32, 'e')),
                         other.tool_by_slug("codestral-2-1")->id, Verdict::skip);
  }
  // Polled: the first answer that shows the other process's vote was rendered anew, not given
  // from the cache.
  std::string shown;
  bool from_cache = true;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       std::chrono::steady_clock::now() < deadline;) {
    before = site.server().shared_answers();
    const auto page = client.Get(tool_page);
    REQUIRE(page->status == 200);
    from_cache = site.server().shared_answers() != before;
    shown = test::visible_text(page->body);
    if (shown.find("2 votes") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(shown.find("2 votes") != std::string::npos);
  CHECK_FALSE(from_cache);
}

TEST_CASE("shared answers: however a request spells Accept-Encoding, every answer is in a coding "
          "it accepted, and the cache never gives a reader one they cannot decode") {
  // The first request for the page after start-up is the one kept; each spelling goes first on
  // a site of its own. `coding` is the RFC 9110 reading of it: what it must get.
  struct Spelling {
    std::string header_lines;
    std::string coding; // its Content-Encoding: "br", "gzip" or none
  };
  const std::vector<Spelling> spellings = {
      {"Accept-Encoding: %62r\r\n", ""},
      {"Accept-Encoding: %67zip\r\n", ""},
      {"Accept-Encoding: BR\r\n", "br"},
      {"Accept-Encoding:  br \r\n", "br"},
      {"Accept-Encoding: br;q=1\r\n", "br"},
      {"Accept-Encoding: x, br\r\n", "br"},
      {"Accept-Encoding:\r\n", ""},
      {"Accept-Encoding: br;q=0\r\n", ""},
      {"Accept-Encoding: br;q=0, gzip\r\n", "gzip"},
      {"Accept-Encoding: gzip;q=0, br;q=0\r\n", ""},
      {"Accept-Encoding: identity;q=0, *;q=0\r\n", ""},
      {"Accept-Encoding: %62r\r\nAccept-Encoding: gzip\r\n", "gzip"},
      {"Accept-Encoding: br\r\nAccept-Encoding: br;q=0\r\n", ""},
      {"Accept-Encoding: br\r\nAccept-Encoding: gzip\r\n", "br"},
  };
  for (const auto &[header_lines, coding] : spellings) {
    INFO(header_lines);
    test::SiteServer site;
    test::RawConnection connection(site.port());
    Answers answers(connection);
    const auto ask = [&](const std::string &extra) {
      connection.send(get("/methodology", extra));
      return answers.next();
    };
    const auto first = ask(header_lines);
    REQUIRE(first.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(header(first, "Content-Encoding") == coding);
    const auto page = decoded_body(first);
    CHECK(page.starts_with("<!doctype html>"));
    // The same spelling again (from the cache), then readers that accept nothing and gzip
    // alone, each twice, then the spelling once more.
    CHECK(ask(header_lines) == first);
    for (int round = 0; round < 2; ++round) {
      const auto plain = ask("");
      CHECK(header(plain, "Content-Encoding").empty());
      CHECK(body_of(plain) == page);
      const auto gzip_only = ask("Accept-Encoding: gzip\r\n");
      CHECK(header(gzip_only, "Content-Encoding") == "gzip");
      CHECK(gunzipped(body_of(gzip_only)) == page);
    }
    CHECK(ask(header_lines) == first);
    CHECK(site.server().shared_answers() >= 4); // the cache did answer some of them
  }
}

TEST_CASE("validators: each coding of an answer has its own ETag, and a 304 only for the one "
          "the request would get") {
  // The card's PNG is a costly answer (guards::costly), and its first drawing in a process
  // loads the fonts: under TSan on a busy machine that alone can spend a client's second of
  // budget, and a 429 would stand in for the 200s and 304s this case judges. The budget has
  // its own cases (search, cards); here it is one no request reaches.
  test::SiteServer site(
      App::Budgets{.costly = {std::chrono::seconds(1000), std::chrono::seconds(1000),
                              std::chrono::seconds(1000), std::chrono::seconds(1000)}});
  const std::vector<std::string> paths = {"/methodology",
                                          test::kBundledComparison,
                                          test::kBundledComparison + "/badge.svg",
                                          test::kBundledComparison + "/card.svg",
                                          test::kBundledComparison + "/card.png",
                                          "/tools/codestral-2-1/badge.svg",
                                          "/feed.xml",
                                          "/api/tools"};
  const std::vector<std::pair<std::string, std::string>> codings = {
      {"br", "Accept-Encoding: br\r\n"},
      {"gzip", "Accept-Encoding: gzip\r\n"},
      {"", ""},
  };
  for (const auto &path : paths) {
    INFO(path);
    test::RawConnection connection(site.port());
    Answers answers(connection);
    std::map<std::string, std::string> etag_of; // by coding
    std::string body;
    for (const auto &[coding, accept] : codings) {
      connection.send(get(path, accept));
      const auto answer = answers.next();
      REQUIRE(answer.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
      etag_of[coding] = header(answer, "ETag");
      REQUIRE(etag_of[coding].size() > 2);
      if (body.empty()) body = decoded_body(answer);
      CHECK(decoded_body(answer) == body);
    }
    const bool compressed = is_compressible(header(
        [&] {
          connection.send(get(path));
          return answers.next();
        }(),
        "Content-Type"));
    const std::set<std::string> distinct = {etag_of["br"], etag_of["gzip"], etag_of[""]};
    // A PNG, the feed and the API are sent as they are whatever the client accepts: one
    // representation, one ETag.
    CHECK(distinct.size() == (compressed ? 3u : 1u));
    if (compressed) {
      CHECK(etag_of["br"] == etag_in_coding(etag_of[""], ContentCoding::brotli));
      CHECK(etag_of["gzip"] == etag_in_coding(etag_of[""], ContentCoding::gzip));
    }

    // Each held ETag, sent with each Accept-Encoding: 304 only when it is the ETag of what
    // would be sent now; otherwise the whole answer in the coding asked for, with its ETag.
    for (const auto &[held, _] : codings) {
      for (const auto &[wanted, accept] : codings) {
        INFO("held " << held << ", accepts " << wanted);
        for (const auto &condition :
             {etag_of[held], "W/" + etag_of[held], "\"other\", " + etag_of[held]}) {
          connection.send(get(path, accept + "If-None-Match: " + condition + "\r\n"));
          const bool fresh = etag_of[held] == etag_of[wanted];
          const auto answer = answers.next(!fresh);
          CHECK(answer.rfind(fresh ? "HTTP/1.1 304 " : "HTTP/1.1 200 ", 0) == 0);
          CHECK(header(answer, "ETag") == etag_of[wanted]);
          if (!fresh) {
            CHECK(header(answer, "Content-Encoding") == wanted);
            CHECK(decoded_body(answer) == body);
          }
        }
      }
    }
    // "*" names whatever is sent now.
    connection.send(get(path, "If-None-Match: *\r\n"));
    CHECK(answers.next(false).rfind("HTTP/1.1 304 ", 0) == 0);
  }
}
