// Mail as it goes over SMTP (RFC 5322 with MIME): headers, a multipart/alternative body with a
// plain-text and an HTML part, both quoted-printable so no line is longer than 76 bytes, and
// the list headers that let a reader leave in one click (RFC 2369, RFC 8058). Pure, so every
// rule is tested without a mail server.
//
// Header injection: nothing a header is made from may hold a line break or another control
// character. Such a value is refused (MailRefused) rather than cleaned, so no text that came
// from data can ever start a header of its own.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace verdict {

struct MailRefused : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct MailMessage {
  std::string from_name;    // shown beside the address, e.g. the site's name; may be non-ASCII
  std::string from_address; // bare addresses, no display names or brackets
  std::string to_address;
  std::string subject;    // UTF-8; non-ASCII is sent as RFC 2047 encoded words
  int64_t date = 0;       // seconds since 1970
  std::string message_id; // the part inside <…>, e.g. "3f2a…@verdict.example"
  std::string text;       // UTF-8 bodies, any line ends
  std::string html;
  std::string unsubscribe_url;    // https://…/unsubscribe/TOKEN: List-Unsubscribe, one-click
  std::string unsubscribe_mailto; // mailto:…?subject=…: List-Unsubscribe's other way
};

// The whole message with CRLF line ends, ready for SMTP's DATA. Throws MailRefused when a
// header would carry a line break or control character, or an address is not one.
std::string compose_mail(const MailMessage &message);

// RFC 2047: `text` as is when it is printable ASCII, otherwise UTF-8 base64 encoded words
// (each at most 75 characters, split between whole characters) joined by a folding space.
std::string encoded_header_text(std::string_view text);
// Quoted-printable (RFC 2045) of UTF-8 text, its line ends made CRLF; lines ≤ 76 characters.
std::string quoted_printable(std::string_view text);
// RFC 5322's date, e.g. "Mon, 23 Nov 2026 10:00:00 +0000".
std::string mail_date(int64_t unix_seconds);

} // namespace verdict
