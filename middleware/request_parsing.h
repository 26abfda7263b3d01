// Parsing of what a visitor sends that Verdict owns: form bodies, the voter cookie, emails and
// return paths. Strict on purpose: anything unexpected is refused with a reason, never guessed
// at. Pure functions, so they are unit-tested and fuzzed (tests/fuzz_request_parsing.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/model.h"

namespace verdict {

struct FormParse {
  std::map<std::string, std::string> fields;
  std::string error; // empty when the body parsed
  // With ControlCharacters::field_fault: each field that held one (name, what to say beside it).
  std::vector<std::pair<std::string, std::string>> field_faults = {};
  bool ok() const { return error.empty(); }
};

// What a control character (a pasted tab, say) in a field's value makes of the form: an error
// of the whole form, or, where the form can be shown again (the desk's), a fault of that field,
// its value kept with each such character made a space so the editor sees where it was.
enum class ControlCharacters { form_error, field_fault };

// application/x-www-form-urlencoded, accepting only the `allowed` field names, each at most
// once. Malformed percent-encoding, control characters and invalid UTF-8 (domain/utf8.h) are
// errors, each naming the field. Fields named in `multi_line` (a textarea's paragraphs) may
// hold line breaks, kept as "\n" whether sent as CR LF, LF or CR; every other field is one
// line. An error says back nothing but the name of a field of `allowed`, or a name cut short
// and made printable (reflectable_text), so it always fits in a page.
FormParse parse_form(std::string_view body, const std::vector<std::string_view> &allowed,
                     const std::vector<std::string_view> &multi_line = {},
                     ControlCharacters control = ControlCharacters::form_error);

// Whether a Content-Type header names an HTML form body (application/x-www-form-urlencoded,
// any parameters such as charset allowed).
bool is_form_content_type(std::string_view content_type);

// Whether a Content-Type header names a multipart/form-data body (RFC 8058's one-click POST).
bool is_multipart_form_content_type(std::string_view content_type);

// The anonymous voter id from a Cookie header: 32 lowercase hex digits, or empty.
std::string voter_from_cookie(std::string_view cookie_header);

// An editor's session secret from a Cookie header: 64 lowercase hex digits, or empty.
std::string session_secret_from_cookie(std::string_view cookie_header);

// A known-device token (auth/sign_in_throttle.h) from a Cookie header: 48 lowercase hex
// digits, or empty. Whether it holds, and for which account, is the token's to say.
std::string known_device_from_cookie(std::string_view cookie_header);

// The decoded value of form field `name` in a form body; empty when absent or malformed. For
// a check made before the handler parses the whole form (the desk's CSRF token).
std::string form_field(std::string_view body, std::string_view name);

// A fresh voter id: the time it was issued (`now_ms`, the site's clock: 12 hex digits), then
// 80 bits from the kernel's random source.
std::string new_voter_id(int64_t now_ms);

// A plausible email address: one @, a dotted domain, no spaces or control characters, ≤ 254.
bool is_valid_email(std::string_view email);

// A path on this site a form may send the reader back to: "/" followed by slug characters and
// slashes only, so it can never point off-site.
bool is_local_return_path(std::string_view path);

// The `page` parameter of a list's address, given every value it came with: none is page 1;
// one value of decimal digits without a leading zero (at most 7 of them) is that page.
// Empty for anything else, which is not a page number.
std::optional<int> parse_page_number(const std::vector<std::string> &values);
// One whole number from 0 written plainly ("0", "17"; not "017", "+1" or "1e3"), at most 15
// digits: a position or size in the vote log. Empty for anything else, absence included.
std::optional<uint64_t> parse_log_number(const std::vector<std::string> &values);

// What a reader typed into a search box (the `q` parameter, given every value it came with):
// none is an empty search; one of valid UTF-8 (domain/utf8.h) and at most kMaxSearchCharacters
// characters is that text, control characters read as spaces and spaces at either end dropped.
// `error` says what is wrong with anything else.
struct SearchText {
  std::string text; // empty: nothing to search for
  std::string error;
  bool ok() const { return error.empty(); }
};
constexpr size_t kMaxSearchCharacters = 200;
SearchText parse_search_text(const std::vector<std::string> &values);
// How to search (the `as` parameter, every value it came with): none forgives typos; one
// "typed" looks for the words as typed. Empty for anything else.
std::optional<SearchAs> parse_search_as(const std::vector<std::string> &values);

// A host as a link may name it: letters, digits, dots, hyphens, and a port or IPv6 brackets;
// nothing that could end the link or start a path.
bool is_plain_host(std::string_view host);

// Whether a POST comes from this site's own pages (Fetch Metadata, then Origin, then Referer).
// `host` is the request's Host header.
bool is_same_origin_request(std::string_view sec_fetch_site, std::string_view origin,
                            std::string_view referer, std::string_view host);

} // namespace verdict
