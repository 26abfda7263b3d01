#include "transport/request_framing.h"

#include <algorithm>
#include <array>
#include <utility>

#include "transport/http_text.h"

namespace verdict::transport {

namespace {

constexpr std::string_view kCrlf = "\r\n";

Framing refuse(int status, std::string reason) {
  Framing framing;
  framing.kind = Framing::Kind::refused;
  framing.status = status;
  framing.reason = std::move(reason);
  return framing;
}

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_token_char);
}

// Visible ASCII and obs-text only: no controls, no spaces inside a target.
bool is_target(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u != 0x7f;
  });
}

// A header value may hold visible characters, spaces and tabs, nothing else below 0x20.
bool is_field_value(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 ? u != 0x7f : c == '\t';
  });
}

// Whether a comma-separated header value lists `token` (Connection: keep-alive, close…).
bool lists_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const auto comma = value.find(',');
    if (equals_ignoring_ascii_case(without_outer_whitespace(value.substr(0, comma)), token))
      return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

bool has_percent(std::string_view value) {
  return value.find('%') != std::string_view::npos;
}

// A line feed not preceded by a carriage return: a line end some parsers accept and others do
// not, the root of request smuggling.
bool has_bare_line_feed(std::string_view s) {
  for (size_t at = s.find('\n'); at != std::string_view::npos; at = s.find('\n', at + 1))
    if (at == 0 || s[at - 1] != '\r') return true;
  return false;
}

constexpr std::array<std::string_view, 9> kMethods = {
    "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"};

} // namespace

Framing frame_request(std::string_view buffered, const FramingLimits &limits) {
  // Blank lines before a request are allowed and ignored.
  size_t skip = 0;
  while (buffered.substr(skip, 2) == kCrlf)
    skip += 2;
  const auto request = buffered.substr(skip);

  // Said to whoever typed it: a search box's text is the likeliest long address.
  static constexpr auto kAddressTooLong =
      "The address is longer than any this site has: shorten it and try again (a search looks "
      "for at most 200 characters).";
  const auto line_end = request.find(kCrlf);
  if (line_end == std::string_view::npos) {
    if (request.size() > limits.max_request_line) return refuse(414, kAddressTooLong);
    if (has_bare_line_feed(request)) return refuse(400, "Lines of an HTTP request end in CR LF.");
    Framing waiting;
    waiting.skip = skip;
    return waiting;
  }
  if (line_end > limits.max_request_line) return refuse(414, kAddressTooLong);

  const auto line = request.substr(0, line_end);
  const auto first_space = line.find(' ');
  const auto last_space = line.rfind(' ');
  if (first_space == std::string_view::npos || first_space == last_space)
    return refuse(400, "The request line is not METHOD TARGET VERSION.");
  const auto method = line.substr(0, first_space);
  const auto target = line.substr(first_space + 1, last_space - first_space - 1);
  const auto version = line.substr(last_space + 1);
  if (!is_token(method) || !is_target(target))
    return refuse(400, "The request line is not METHOD TARGET VERSION.");
  if (std::find(kMethods.begin(), kMethods.end(), method) == kMethods.end())
    return refuse(501,
                  "This site does not know the method " + std::string(method.substr(0, 20)) + ".");
  const bool http11 = version == "HTTP/1.1";
  if (!http11 && version != "HTTP/1.0") {
    if (version.substr(0, 5) == "HTTP/")
      return refuse(505, "This site speaks HTTP/1.1 and HTTP/1.0.");
    return refuse(400, "The request line is not METHOD TARGET VERSION.");
  }

  const auto head_end = request.find("\r\n\r\n", line_end);
  const auto head_size = head_end == std::string_view::npos ? request.size() : head_end + 4;
  if (head_size > limits.max_head)
    return refuse(431, "The request's headers are larger than this site ever needs.");
  if (head_end == std::string_view::npos) {
    if (has_bare_line_feed(request)) return refuse(400, "Lines of an HTTP request end in CR LF.");
    Framing waiting;
    waiting.skip = skip;
    return waiting;
  }

  Framing framing;
  framing.skip = skip;
  framing.head_length = head_end + 4;
  framing.keep_alive = http11;
  size_t hosts = 0, lengths = 0, headers = 0;
  bool chunked = false, transfer_encoding = false, wants_continue = false;
  bool personal = false; // credentials or conditions: an answer for this client only
  size_t cookies = 0;
  // A Cookie or Connection that httplib could read otherwise: it percent-decodes values and
  // drops empty ones, so the shared cache's reading of them might not be the handler's.
  bool read_otherwise = false;
  AcceptEncoding accepted;
  uint64_t content_length = 0;

  for (size_t at = line_end + 2; at < head_end + 2;) {
    const auto end = request.find(kCrlf, at);
    const auto field = request.substr(at, end - at);
    at = end + 2;
    if (++headers > limits.max_headers)
      return refuse(431, "The request has more headers than this site ever needs.");
    if (field.find('\r') != std::string_view::npos || field.find('\n') != std::string_view::npos)
      return refuse(400, "Lines of an HTTP request end in CR LF.");
    if (field.front() == ' ' || field.front() == '\t')
      return refuse(400, "Folded header lines are not accepted.");
    const auto colon = field.find(':');
    if (colon == std::string_view::npos || !is_token(field.substr(0, colon)))
      return refuse(400, "A header line is not NAME: VALUE.");
    const auto name = field.substr(0, colon);
    const auto value = without_outer_whitespace(field.substr(colon + 1));
    if (!is_field_value(value)) return refuse(400, "A header value holds control characters.");

    if (equals_ignoring_ascii_case(name, "Host")) {
      ++hosts;
      if (value.empty() || value.find_first_of(" /\\@%") != std::string_view::npos)
        return refuse(400, "The Host header does not name a host.");
    } else if (equals_ignoring_ascii_case(name, "Content-Length")) {
      if (++lengths > 1) return refuse(400, "The request has more than one Content-Length.");
      if (value.empty() || value.size() > 18 ||
          !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return refuse(400, "Content-Length is not a number of bytes.");
      content_length = std::stoull(std::string(value));
    } else if (equals_ignoring_ascii_case(name, "Transfer-Encoding")) {
      transfer_encoding = true;
      chunked = equals_ignoring_ascii_case(value, "chunked");
    } else if (equals_ignoring_ascii_case(name, "Connection")) {
      read_otherwise |= has_percent(value);
      if (lists_token(value, "close")) framing.keep_alive = false;
      if (lists_token(value, "keep-alive") && !http11) framing.keep_alive = true;
    } else if (equals_ignoring_ascii_case(name, "Expect")) {
      if (!equals_ignoring_ascii_case(value, "100-continue"))
        return refuse(417, "This site only understands Expect: 100-continue.");
      wants_continue = true;
    } else if (equals_ignoring_ascii_case(name, "Accept-Encoding")) {
      accepted.add(value);
    } else if (equals_ignoring_ascii_case(name, "Cookie")) {
      ++cookies;
      read_otherwise |= value.empty() || has_percent(value);
      framing.cookie_offset = skip + static_cast<size_t>(value.data() - request.data());
      framing.cookie_length = value.size();
    } else if (equals_ignoring_ascii_case(name, "Authorization") ||
               equals_ignoring_ascii_case(name.substr(0, 3), "If-")) {
      personal = true;
    }
  }

  if (http11 && hosts != 1)
    return refuse(400, hosts == 0 ? "An HTTP/1.1 request names its Host."
                                  : "The request has more than one Host.");
  if (hosts > 1) return refuse(400, "The request has more than one Host.");
  if (transfer_encoding && lengths > 0)
    return refuse(400, "The request has both Transfer-Encoding and Content-Length.");
  if (transfer_encoding && !chunked)
    return refuse(501, "This site does not know that Transfer-Encoding.");
  if (chunked) return refuse(411, "Send the form with a Content-Length, not in chunks.");
  if (method == "POST" && lengths == 0)
    return refuse(411, "A form sent to this site says its Content-Length.");
  if (method != "POST" && content_length > 0)
    return refuse(400, "Only a form sent with POST carries a body here.");
  const bool desk = target.starts_with("/admin/");
  if (content_length > (desk ? limits.max_desk_body : limits.max_body))
    return refuse(413, desk ? "That form is larger than the desk takes: shorten its longest text."
                            : "That request body is larger than any form of this site sends.");

  framing.body_length = static_cast<size_t>(content_length);
  framing.coding = accepted.choice();
  const bool plain_get = method == "GET" && http11 && framing.keep_alive && !personal &&
                         !read_otherwise && target.front() == '/' &&
                         target.find('?') == std::string_view::npos;
  framing.shareable = plain_get && cookies == 0;
  framing.shareable_but_cookie = plain_get && cookies == 1;
  framing.target_offset = skip + first_space + 1;
  framing.target_length = target.size();
  const auto whole = framing.head_length + framing.body_length;
  framing.kind = request.size() >= whole ? Framing::Kind::complete : Framing::Kind::incomplete;
  framing.expects_continue = wants_continue && framing.kind == Framing::Kind::incomplete;
  return framing;
}

namespace {

// The longest form body httplib parses itself (CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH).
constexpr size_t kHttplibFormBodyLimit = 8192;
constexpr std::string_view kFormType = "application/x-www-form-urlencoded";

} // namespace

std::string head_for_parser(std::string_view head, const Framing &framing) {
  std::string out;
  out.reserve(head.size() + 24);
  const auto line_end = head.find(kCrlf);
  out += head.substr(0, line_end + 2);
  for (size_t at = line_end + 2; at + 2 < head.size();) {
    const auto end = head.find(kCrlf, at);
    const auto line = head.substr(at, end + 2 - at);
    at = end + 2;
    const auto colon = line.find(':');
    const auto name = line.substr(0, colon);
    const auto value = line.substr(colon + 1);
    const bool dropped = equals_ignoring_ascii_case(name, "Range") ||
                         equals_ignoring_ascii_case(name, "If-Range") ||
                         equals_ignoring_ascii_case(name, "Expect") ||
                         equals_ignoring_ascii_case(name, "Accept-Encoding") ||
                         (equals_ignoring_ascii_case(name, "If-None-Match") && has_percent(value));
    if (dropped) continue;
    const auto type = without_outer_whitespace(value.substr(0, value.size() - 2)); // no CRLF
    if (framing.body_length > kHttplibFormBodyLimit &&
        equals_ignoring_ascii_case(name, "Content-Type") &&
        equals_ignoring_ascii_case(type.substr(0, kFormType.size()), kFormType)) {
      // httplib (Debian's, compiled) refuses a form body over 8 KiB with a 413 of its own, and
      // knows one only by a Content-Type starting with the lowercase media type. A media type
      // is case-insensitive (RFC 9110 §8.3.1), so the desk's long forms are handed on with the
      // same type capitalised: httplib leaves the body alone, and the site reads it as ever.
      out += "Content-Type: A";
      out += type.substr(1);
      out += kCrlf;
      continue;
    }
    out += line;
  }
  if (const auto coding = accept_encoding_for(framing.coding); !coding.empty()) {
    out += "Accept-Encoding: ";
    out += coding;
    out += kCrlf;
  }
  out += kCrlf;
  return out;
}

} // namespace verdict::transport
