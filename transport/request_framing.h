// Where one HTTP/1.1 request ends in the bytes a connection has sent so far, and whether it
// is one Verdict will take at all. Runs before cpp-httplib parses anything, on bytes the
// reactor buffered, so a request reaches a worker thread only when it is whole and
// unambiguous: one Content-Length at most (digits only), no Transfer-Encoding, exactly one
// Host on HTTP/1.1, bounded line, head and body sizes, CRLF line ends and no control bytes.
// Anything else is refused with the status that says why. httplib reads headers its own way
// (it percent-decodes every value and drops empty ones), so a request whose Cookie or
// Connection a percent sign or emptiness could make mean something else to it is never
// answered from the shared cache, and a Host holding one is refused. Pure functions:
// unit-tested and fuzzed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "transport/negotiation.h"

namespace verdict::transport {

struct FramingLimits {
  size_t max_request_line = 4096; // longer: 414
  size_t max_head = 8192;         // request line and headers; longer: 431
  size_t max_headers = 64;        // more header lines: 431
  size_t max_body = 8192;         // a larger Content-Length: 413
  // A form of the editor's desk (a target under /admin/) may carry a tool's description of
  // 20,000 characters, percent-encoded: it may be this long. Every other form is a few hundred
  // bytes.
  size_t max_desk_body = 128 * 1024;
  // The longest body any request may carry: what a connection's buffer holds at most.
  size_t largest_body() const { return std::max(max_body, max_desk_body); }
};

struct Framing {
  enum class Kind { incomplete, complete, refused };
  Kind kind = Kind::incomplete;
  size_t skip = 0;               // blank lines before the request line, to drop (RFC 9112 §2.2)
  size_t head_length = 0;        // from the request line through the blank line, after `skip`
  size_t body_length = 0;        // Content-Length
  bool expects_continue = false; // "Expect: 100-continue" and the body has not all arrived
  bool keep_alive = true;        // false when the client asked to close (or HTTP/1.0)
  // A keep-alive HTTP/1.1 GET without a query, cookies, credentials or conditions: one whose
  // answer a shared cache may give (transport/response_cache.h). Its target, within the
  // buffered bytes:
  bool shareable = false;
  size_t target_offset = 0, target_length = 0;
  // The same but for one Cookie header (a voter's page), and that header's value.
  bool shareable_but_cookie = false;
  size_t cookie_offset = 0, cookie_length = 0;
  // The coding this request's answer is in (transport/negotiation.h), read from every
  // Accept-Encoding it sent. The one reading: the shared cache keeps answers under it, and
  // httplib is handed an Accept-Encoding naming exactly it (head_for_parser), so it compresses
  // in it and in nothing else.
  using Coding = ContentCoding;
  Coding coding = Coding::identity;
  int status = 0;     // for refused: 400, 411, 413, 414, 417, 431, 501 or 505
  std::string reason; // for refused: what was wrong, for the error page
};

Framing frame_request(std::string_view buffered, const FramingLimits &limits = {});

// The head httplib parses for a whole request's `head` (request line through blank line),
// framed as `framing`: without the lines the server answers itself or ignores (Range and
// If-Range: pages are always sent whole; Expect: answered by the transport), without an
// If-None-Match httplib would percent-decode (no ETag of this site holds a '%', so it can name
// none of them), and with every Accept-Encoding replaced by one naming the coding chosen.
std::string head_for_parser(std::string_view head, const Framing &framing);

} // namespace verdict::transport
