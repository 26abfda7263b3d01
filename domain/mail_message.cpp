#include "domain/mail_message.h"

#include <ctime>

#include "domain/content_hash.h"
#include "domain/utf8.h"

namespace verdict {

namespace {

bool has_control_characters(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

// Refuses a header value that could end its line: what makes header injection impossible.
const std::string &header_safe(const std::string &value, const char *what) {
  if (has_control_characters(value))
    throw MailRefused(std::string(what) + " holds a line break or control character");
  return value;
}

// A bare address as a header and SMTP take it: something@domain, nothing that could close the
// angle brackets or start another address.
const std::string &address_safe(const std::string &address, const char *what) {
  header_safe(address, what);
  const auto at = address.find('@');
  if (address.empty() || at == 0 || at == std::string::npos || at + 1 == address.size() ||
      address.find_first_of("<>,;\" ()[]\\") != std::string::npos)
    throw MailRefused(std::string(what) + " is not an email address");
  return address;
}

bool is_printable_ascii(std::string_view text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
  return true;
}

std::string base64(std::string_view bytes) {
  static const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                   static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                   static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0})
      out += alphabet[(n >> shift) & 63];
  }
  if (i < bytes.size()) {
    uint32_t n = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size())
      n |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// The display name: a quoted string when it is plain ASCII, encoded words otherwise.
std::string display_name(const std::string &name) {
  header_safe(name, "the sender's name");
  if (!is_printable_ascii(name)) return encoded_header_text(name);
  std::string quoted = "\"";
  for (const char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

void add_header(std::string &out, const std::string &name, const std::string &value) {
  out += name + ": " + value + "\r\n";
}

} // namespace

std::string encoded_header_text(std::string_view text) {
  if (is_printable_ascii(text)) return std::string(text);
  // 36 bytes make 48 of base64, a 60-character word: "Subject: " and the first word stay
  // within 78 characters a line (and every word within RFC 2047's 75).
  constexpr size_t kBytesPerWord = 36;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    // Never split a character. Text that is not UTF-8 has no characters to keep whole: each
    // byte of a broken sequence counts as one, so every word takes at least one byte.
    const size_t end = start + cut_to_whole_characters(text.substr(start), kBytesPerWord).size();
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64(text.substr(start, end - start)) + "?=";
    start = end;
  }
  return out;
}

std::string quoted_printable(std::string_view text) {
  static const char *hex = "0123456789ABCDEF";
  std::string out, line;
  const auto end_line = [&](bool hard) {
    // Whitespace at the end of a line would be lost in transport: encode it.
    if (hard && !line.empty() && (line.back() == ' ' || line.back() == '\t')) {
      const char last = line.back();
      line.pop_back();
      if (line.size() + 3 > 76) {
        out += line + "=\r\n";
        line.clear();
      }
      line += std::string("=") + hex[last >> 4] + hex[last & 15];
    }
    out += line + (hard ? "\r\n" : "=\r\n");
    line.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue; // CRLF: at the LF
    if (c == '\n' || c == '\r') {
      end_line(true);
      continue;
    }
    const auto byte = static_cast<unsigned char>(c);
    std::string piece;
    if ((byte >= 33 && byte <= 126 && c != '=') || c == ' ' || c == '\t')
      piece = std::string(1, c);
    else
      piece = std::string("=") + hex[byte >> 4] + hex[byte & 15];
    // 75 characters and a soft break "=" make the 76 a line may hold.
    if (line.size() + piece.size() > 75) end_line(false);
    line += piece;
  }
  if (!line.empty()) end_line(true);
  return out;
}

std::string mail_date(int64_t unix_seconds) {
  const auto when = static_cast<std::time_t>(unix_seconds);
  std::tm parts{};
  gmtime_r(&when, &parts);
  static const char *days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[parts.tm_wday],
                parts.tm_mday, months[parts.tm_mon], parts.tm_year + 1900, parts.tm_hour,
                parts.tm_min, parts.tm_sec);
  return buffer;
}

std::string compose_mail(const MailMessage &m) {
  address_safe(m.from_address, "the sender's address");
  address_safe(m.to_address, "the recipient's address");
  header_safe(m.subject, "the subject");
  header_safe(m.message_id, "the message id");
  header_safe(m.unsubscribe_url, "the unsubscribe address");
  header_safe(m.unsubscribe_mailto, "the unsubscribe mail address");
  if (m.message_id.find_first_of("<> ") != std::string::npos ||
      m.message_id.find('@') == std::string::npos)
    throw MailRefused("the message id must be left@right, without brackets");
  for (const auto *uri : {&m.unsubscribe_url, &m.unsubscribe_mailto})
    if (uri->find_first_of("<>, ") != std::string::npos)
      throw MailRefused("an unsubscribe address holds a character that would end it");

  const auto text = quoted_printable(m.text);
  const auto html = quoted_printable(m.html);
  // Quoted-printable writes every "=" as "=3D", so a boundary that starts "=_" can appear in
  // neither part.
  const auto boundary = "=_verdict_" + content_hash(text + html);

  std::string out;
  add_header(out, "Date", mail_date(m.date));
  add_header(out, "Message-ID", "<" + m.message_id + ">");
  add_header(out, "From",
             (m.from_name.empty() ? "" : display_name(m.from_name) + " ") + "<" + m.from_address +
                 ">");
  add_header(out, "To", "<" + m.to_address + ">");
  add_header(out, "Subject", encoded_header_text(m.subject));
  add_header(out, "MIME-Version", "1.0");
  if (!m.unsubscribe_url.empty() || !m.unsubscribe_mailto.empty()) {
    // Each address on a folded line of its own, so the header's lines stay within 78
    // characters unless an address alone is longer (an address is never folded inside).
    std::string ways;
    for (const auto *uri : {&m.unsubscribe_url, &m.unsubscribe_mailto})
      if (!uri->empty()) ways += (ways.empty() ? "\r\n <" : ",\r\n <") + *uri + ">";
    out += "List-Unsubscribe:" + ways + "\r\n";
    // RFC 8058: the https address takes a POST of exactly this, with no other step.
    if (!m.unsubscribe_url.empty())
      add_header(out, "List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
  }
  add_header(out, "Content-Type", "multipart/alternative; boundary=\"" + boundary + "\"");
  out += "\r\nThis is a message in MIME format: a plain text and an HTML version.\r\n";
  const auto part = [&](const char *type, const std::string &body) {
    out += "\r\n--" + boundary + "\r\n";
    out += std::string("Content-Type: ") + type + "; charset=utf-8\r\n";
    out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
    out += body;
  };
  part("text/plain", text);
  part("text/html", html);
  out += "\r\n--" + boundary + "--\r\n";
  return out;
}

} // namespace verdict
