#include "middleware/request_parsing.h"

#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

#include "domain/cookies.h"
#include "domain/utf8.h"

namespace verdict {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether `s` holds a C0 control character or DEL; a line feed is not one when
// `line_feeds_allowed`.
bool has_control_characters(std::string_view s, bool line_feeds_allowed = false) {
  return std::any_of(s.begin(), s.end(), [line_feeds_allowed](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 || u == 0x7f) && !(line_feeds_allowed && c == '\n');
  });
}

// Decodes one percent-encoded component; empty optional when the encoding is malformed.
std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int high = hex_value(s[i + 1]), low = hex_value(s[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string_view host_of_origin(std::string_view origin) {
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos) return {};
  auto rest = origin.substr(scheme_end + 3);
  return rest.substr(0, rest.find('/'));
}

} // namespace

namespace {

// The longest a field name from a form is said back in an error: names of this site's fields
// are shorter, and anything longer is not a field of any of its forms.
constexpr size_t kShownNameBytes = 40;

// A multi-line field's value with its line breaks as "\n" alone: browsers send a textarea's
// line ends as CR LF, a file copied in may hold either, and a lone CR is a line break too.
std::string with_line_feeds(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '\r') {
      out.push_back(value[i]);
      continue;
    }
    out.push_back('\n');
    if (i + 1 < value.size() && value[i + 1] == '\n') ++i;
  }
  return out;
}

} // namespace

FormParse parse_form(std::string_view body, const std::vector<std::string_view> &allowed,
                     const std::vector<std::string_view> &multi_line, ControlCharacters control) {
  FormParse result;
  while (!body.empty()) {
    const auto end = body.find('&');
    const auto pair = body.substr(0, end);
    body = end == std::string_view::npos ? std::string_view{} : body.substr(end + 1);
    if (pair.empty()) continue;
    const auto equals = pair.find('=');
    const auto name = percent_decode(pair.substr(0, equals));
    auto value = percent_decode(equals == std::string_view::npos ? std::string_view{}
                                                                 : pair.substr(equals + 1));
    if (!name || !value) return {{}, "The form data has malformed percent-encoding."};
    if (!is_valid_utf8(*name)) return {{}, "The form has a field name that is not valid UTF-8."};
    if (has_control_characters(*name))
      return {{}, "The form has a field name with control characters."};
    if (std::find(allowed.begin(), allowed.end(), *name) == allowed.end())
      return {{},
              "The form has an unknown field \"" + reflectable_text(*name, kShownNameBytes) +
                  "\"."};
    // From here on the name is one of `allowed`, printable UTF-8, so it is said back as it is.
    if (!is_valid_utf8(*value)) return {{}, "The field \"" + *name + "\" is not valid UTF-8."};
    const bool may_break_lines =
        std::find(multi_line.begin(), multi_line.end(), *name) != multi_line.end();
    if (may_break_lines) value = with_line_feeds(*value);
    if (has_control_characters(*value, may_break_lines) &&
        control == ControlCharacters::field_fault) {
      for (auto &c : *value)
        if (has_control_characters({&c, 1}, may_break_lines)) c = ' ';
      result.field_faults.emplace_back(
          *name, may_break_lines
                     ? "can hold no tab or other invisible character: each was made a space "
                       "here; check it and save again"
                     : "can hold no line break, tab or other invisible character: each was made "
                       "a space here; check it and save again");
    } else if (has_control_characters(*value, may_break_lines))
      return {{},
              may_break_lines
                  ? "The field \"" + *name + "\" holds control characters."
                  : "The field \"" + *name +
                        "\" must be one line, without line breaks or control characters."};
    if (!result.fields.emplace(*name, *value).second)
      return {{}, "The form repeats the field \"" + *name + "\"."};
  }
  return result;
}

namespace {

// Whether the media type of a Content-Type header (before any parameters) is `wanted`, in
// any case.
bool media_type_is(std::string_view content_type, std::string_view wanted) {
  auto media_type = content_type.substr(0, content_type.find(';'));
  while (!media_type.empty() && (media_type.back() == ' ' || media_type.back() == '\t'))
    media_type.remove_suffix(1);
  return media_type.size() == wanted.size() &&
         std::equal(wanted.begin(), wanted.end(), media_type.begin(), [](char a, char b) {
           return a == std::tolower(static_cast<unsigned char>(b));
         });
}

} // namespace

bool is_form_content_type(std::string_view content_type) {
  return media_type_is(content_type, "application/x-www-form-urlencoded");
}

bool is_multipart_form_content_type(std::string_view content_type) {
  return media_type_is(content_type, "multipart/form-data");
}

namespace {

// The value of cookie `name` in a Cookie header when it is exactly `length` lowercase hex
// digits; empty otherwise.
std::string hex_cookie(std::string_view header, std::string_view name, size_t length) {
  const std::string key = std::string(name) + "=";
  for (size_t at = header.find(key); at != std::string_view::npos; at = header.find(key, at + 1)) {
    if (at != 0 && header[at - 1] != ' ' && header[at - 1] != ';') continue;
    const auto value = header.substr(at + key.size(), length);
    if (value.size() != length) continue;
    const auto end = at + key.size() + length;
    const bool whole = header.size() == end || header[end] == ';';
    if (whole && std::all_of(value.begin(), value.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }))
      return std::string(value);
  }
  return {};
}

} // namespace

std::string voter_from_cookie(std::string_view header) {
  return hex_cookie(header, cookies::kVoter.name, cookies::kVoter.hex_length);
}

std::string session_secret_from_cookie(std::string_view header) {
  return hex_cookie(header, cookies::kSession.name, cookies::kSession.hex_length);
}

std::string known_device_from_cookie(std::string_view header) {
  return hex_cookie(header, cookies::kKnownDevice.name, cookies::kKnownDevice.hex_length);
}

std::string form_field(std::string_view body, std::string_view name) {
  while (!body.empty()) {
    const auto end = body.find('&');
    const auto pair = body.substr(0, end);
    body = end == std::string_view::npos ? std::string_view{} : body.substr(end + 1);
    const auto equals = pair.find('=');
    if (equals == std::string_view::npos || percent_decode(pair.substr(0, equals)) != name)
      continue;
    return percent_decode(pair.substr(equals + 1)).value_or("");
  }
  return {};
}

std::string new_voter_id(int64_t now_ms) {
  // 12 hex digits of the time in milliseconds, then 80 random bits: ids issued together sort
  // together, so a burst of new readers' votes lands on the last pages of the vote tables'
  // (voter, ...) keys instead of dirtying a random page each (bench/README.md measures it),
  // and 80 bits still cannot be guessed.
  const auto millis = static_cast<uint64_t>(now_ms);
  unsigned char bytes[10];
  if (getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes))
    throw std::runtime_error("getrandom failed");
  static const char digits[] = "0123456789abcdef";
  std::string id;
  for (int shift = 44; shift >= 0; shift -= 4)
    id.push_back(digits[(millis >> shift) & 0xf]);
  for (unsigned char b : bytes) {
    id.push_back(digits[b >> 4]);
    id.push_back(digits[b & 0xf]);
  }
  return id;
}

namespace {

// One label of a domain name: 1-63 letters, digits or hyphens, not starting or ending with one.
bool is_domain_label(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
    return false;
  return std::all_of(label.begin(), label.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  });
}

} // namespace

bool is_valid_email(std::string_view email) {
  if (email.size() < 3 || email.size() > 254 || has_control_characters(email)) return false;
  const auto at = email.find('@');
  if (at == 0 || at == std::string_view::npos || email.find('@', at + 1) != std::string_view::npos)
    return false;
  const auto local = email.substr(0, at);
  auto domain = email.substr(at + 1);
  if (local.size() > 64 || domain.find('.') == std::string_view::npos) return false;
  for (;;) { // every label of a dotted domain: no empty ones, so no "..", leading or trailing dot
    const auto dot = domain.find('.');
    if (!is_domain_label(domain.substr(0, dot))) return false;
    if (dot == std::string_view::npos) break;
    domain.remove_prefix(dot + 1);
  }
  const auto allowed_in_local = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("!#$%&'*+/=?^_`{|}~.-").find(c) != std::string_view::npos;
  };
  return std::all_of(local.begin(), local.end(), allowed_in_local);
}

bool is_local_return_path(std::string_view path) {
  if (path.empty() || path.size() > 300 || path[0] != '/') return false;
  if (path.find("//") != std::string_view::npos) return false;
  return std::all_of(path.begin(), path.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '/';
  });
}

//   Sec-Fetch-Site  Origin       Referer      →  allowed?
//   same-origin     any          any             yes
//   none            any          any             yes (typed or bookmarked by the user)
//   other value     any          any             no
//   absent          our host     any             yes
//   absent          other/null   any             no
//   absent          absent       our host        yes
//   absent          absent       other           no
//   absent          absent       absent          yes (not a browser, so not a forgery vector)
std::optional<int> parse_page_number(const std::vector<std::string> &values) {
  if (values.empty()) return 1;
  const auto &text = values.front();
  if (values.size() != 1 || text.empty() || text.size() > 7 || text[0] == '0' ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoi(text);
}

std::optional<uint64_t> parse_log_number(const std::vector<std::string> &values) {
  if (values.size() != 1) return std::nullopt;
  const auto &text = values.front();
  if (text.empty() || text.size() > 15 || (text[0] == '0' && text.size() > 1) ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoull(text);
}

SearchText parse_search_text(const std::vector<std::string> &values) {
  if (values.empty()) return {};
  if (values.size() > 1) return {{}, "Search for one text at a time: the address has q twice."};
  const auto &typed = values.front();
  if (!is_valid_utf8(typed)) return {{}, "The search text is not valid UTF-8."};
  const auto characters = character_count(typed);
  if (characters > kMaxSearchCharacters)
    return {{},
            "The search text is " + std::to_string(characters) + " characters long; at most " +
                std::to_string(kMaxSearchCharacters) + " are looked for. Try fewer words."};
  std::string text = typed;
  for (auto &c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return {text.substr(first, text.find_last_not_of(' ') - first + 1), {}};
}

std::optional<SearchAs> parse_search_as(const std::vector<std::string> &values) {
  if (values.empty()) return SearchAs::meant;
  if (values.size() == 1 && values.front() == "typed") return SearchAs::typed;
  return std::nullopt;
}

bool is_plain_host(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' ||
           c == '[' || c == ']';
  });
}

bool is_same_origin_request(std::string_view sec_fetch_site, std::string_view origin,
                            std::string_view referer, std::string_view host) {
  if (!sec_fetch_site.empty()) return sec_fetch_site == "same-origin" || sec_fetch_site == "none";
  if (!origin.empty()) return !host.empty() && host_of_origin(origin) == host;
  if (!referer.empty()) return !host.empty() && host_of_origin(referer) == host;
  return true;
}

} // namespace verdict
