#include "transport/written_head.h"

#include "transport/http_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace verdict::transport {

namespace {

// Placeholders for the two open values: bytes no header value may hold.
constexpr std::string_view kLengthMark = "\x01";
constexpr std::string_view kEtagMark = "\x02";

} // namespace

HeadAround::HeadAround(Headers headers, std::string_view keep_alive) {
  headers.emplace_back("Content-Length", kLengthMark);
  headers.emplace_back("ETag", kEtagMark);
  headers.emplace_back("Keep-Alive", keep_alive);
  std::stable_sort(headers.begin(), headers.end(), [](const auto &x, const auto &y) {
    return less_ignoring_ascii_case(x.first, y.first);
  });
  std::string head = "HTTP/1.1 200 OK\r\n";
  for (const auto &[name, value] : headers)
    head += name + ": " + value + "\r\n";
  head += "\r\n";
  const auto length_at = head.find(kLengthMark);
  const auto etag_at = head.find(kEtagMark);
  if (length_at == std::string::npos || etag_at == std::string::npos || etag_at < length_at ||
      head.find(kLengthMark, length_at + 1) != std::string::npos ||
      head.find(kEtagMark, etag_at + 1) != std::string::npos)
    throw std::invalid_argument("a header value holds a control byte");
  before_length_ = head.substr(0, length_at);
  before_etag_ = head.substr(length_at + 1, etag_at - length_at - 1);
  after_etag_ = head.substr(etag_at + 1);
}

void HeadAround::write(std::string &out, size_t body_length, std::string_view etag) const {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, body_length).ptr;
  out += before_length_;
  out.append(digits, end);
  out += before_etag_;
  out += etag;
  out += after_etag_;
}

} // namespace verdict::transport
