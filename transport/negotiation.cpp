#include "transport/negotiation.h"

#include <algorithm>
#include <iterator>
#include <optional>

#include "transport/http_text.h"

namespace verdict::transport {

namespace {

// qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), as thousandths.
std::optional<int> qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
  const bool one = text[0] == '1';
  if (text.size() == 1) return one ? 1000 : 0;
  if (text[1] != '.' || text.size() > 5) return std::nullopt;
  int thousandths = 0, scale = 100;
  for (const char c : text.substr(2)) {
    if (c < '0' || c > '9' || (one && c != '0')) return std::nullopt;
    thousandths += (c - '0') * scale;
    scale /= 10;
  }
  return one ? 1000 : thousandths;
}

// An element's weight: 1000 without ";q=", none when what follows the name is not a weight.
std::optional<int> weight_of(std::string_view parameters) {
  if (parameters.empty()) return 1000;
  parameters = without_outer_whitespace(parameters.substr(1)); // past the ';'
  if (parameters.size() < 2 || (parameters[0] != 'q' && parameters[0] != 'Q') ||
      parameters[1] != '=')
    return std::nullopt;
  return qvalue(parameters.substr(2));
}

} // namespace

void AcceptEncoding::add(std::string_view field_value) {
  while (!field_value.empty()) {
    const auto comma = field_value.find(',');
    const auto element = field_value.substr(0, comma);
    field_value.remove_prefix(comma == std::string_view::npos ? field_value.size() : comma + 1);
    const auto semicolon = element.find(';');
    const auto name = without_outer_whitespace(element.substr(0, semicolon));
    const auto q = weight_of(semicolon == std::string_view::npos ? std::string_view()
                                                                 : element.substr(semicolon));
    if (name.empty() || !q) continue; // an empty element, or one that does not parse: absent
    if (equals_ignoring_ascii_case(name, "br"))
      weigh(brotli_, *q);
    else if (equals_ignoring_ascii_case(name, "gzip") || equals_ignoring_ascii_case(name, "x-gzip"))
      weigh(gzip_, *q);
    else if (equals_ignoring_ascii_case(name, "identity"))
      weigh(identity_, *q);
    else if (name == "*")
      weigh(any_, *q);
  }
}

ContentCoding AcceptEncoding::choice() const {
  const auto weight = [this](int named) { return named != kUnnamed ? named : any_; };
  // Identity unnamed and not covered by "*" is acceptable at the lowest rank (0 here, where a
  // compressed coding needs more than 0 to be acceptable at all).
  const int identity = weight(identity_) == kUnnamed ? 0 : weight(identity_);
  const bool identity_excluded = weight(identity_) == 0;
  auto best = ContentCoding::identity;
  int best_weight = identity_excluded ? kUnnamed : identity;
  if (const int gzip = weight(gzip_); gzip > 0 && gzip >= best_weight) {
    best = ContentCoding::gzip;
    best_weight = gzip;
  }
  if (const int brotli = weight(brotli_); brotli > 0 && brotli >= best_weight)
    best = ContentCoding::brotli;
  // When nothing is acceptable (say "identity;q=0" alone) RFC 9110 §12.5.3 lets the server
  // answer 406 or disregard the field; identity disregards it. Every client and cache can read
  // it, and a reader gets the page rather than an error about a header they never chose.
  return best;
}

ContentCoding choose_coding(std::string_view accept_encoding) {
  AcceptEncoding accepted;
  accepted.add(accept_encoding);
  return accepted.choice();
}

std::string_view accept_encoding_for(ContentCoding coding) {
  switch (coding) {
  case ContentCoding::brotli:
    return "br";
  case ContentCoding::gzip:
    return "gzip";
  case ContentCoding::identity:
    break;
  }
  return {};
}

bool is_compressible(std::string_view content_type) {
  static constexpr std::string_view exact[] = {"image/svg+xml",        "application/javascript",
                                               "application/json",     "application/xml",
                                               "application/protobuf", "application/xhtml+xml"};
  return std::find(std::begin(exact), std::end(exact), content_type) != std::end(exact) ||
         (content_type.starts_with("text/") && content_type != "text/event-stream");
}

ContentCoding coding_of_answer(ContentCoding requested, std::string_view content_type) {
  return is_compressible(content_type) ? requested : ContentCoding::identity;
}

std::string etag_in_coding(std::string_view identity_etag, ContentCoding coding) {
  std::string etag(identity_etag);
  if (coding == ContentCoding::identity || etag.size() < 2 || etag.back() != '"') return etag;
  etag.insert(etag.size() - 1, coding == ContentCoding::brotli ? "-br" : "-gz");
  return etag;
}

bool none_match_names(std::string_view if_none_match, std::string_view etag) {
  if (etag.starts_with("W/")) etag.remove_prefix(2);
  auto rest = without_outer_whitespace(if_none_match);
  if (rest == "*") return true;
  // #entity-tag: [ "W/" ] DQUOTE *etagc DQUOTE, separated by commas and spaces.
  while (!rest.empty()) {
    if (rest.front() == ',' || rest.front() == ' ' || rest.front() == '\t') {
      rest.remove_prefix(1);
      continue;
    }
    if (rest.starts_with("W/")) rest.remove_prefix(2);
    if (rest.empty() || rest.front() != '"') return false;
    const auto close = rest.find('"', 1);
    if (close == std::string_view::npos) return false;
    if (rest.substr(0, close + 1) == etag) return true;
    rest.remove_prefix(close + 1);
    if (!rest.empty() && rest.front() != ',' && rest.front() != ' ' && rest.front() != '\t')
      return false;
  }
  return false;
}

} // namespace verdict::transport
