// Which representation of an answer a request gets, and whether the client holds it already:
// the one reading of Accept-Encoding (RFC 9110 §12.5.3) and If-None-Match (§13.1.2) for the
// whole server. The framer (transport/request_framing.h) picks the coding once per request,
// keys the shared cache by it and hands httplib an Accept-Encoding naming exactly that coding;
// handlers make each coding's ETag from it and answer 304 by it. Two readings of one header
// (httplib percent-decodes header values and looks for "br" anywhere in them; the framer did
// not) once let a brotli answer be kept for clients that cannot read brotli. Pure functions:
// unit-tested.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace verdict::transport {

// The content codings this server answers in (httplib compresses with brotli and gzip).
enum class ContentCoding : char { identity = 'i', gzip = 'g', brotli = 'b' };

// Accept-Encoding, read as RFC 9110 §12.5.3 says: a list of codings, each with an optional
// weight (";q=" 0 to 1, three decimals at most), names ignoring case, spaces around commas and
// semicolons allowed; several fields are one list (§5.3). An element that does not parse (a
// bad weight, another parameter) counts as absent. How each coding's weight is found:
//
//   named itself (x-gzip is gzip)  its own q; named twice, the lower (refusal wins)
//   not named, "*" named           the q of "*"
//   not named, no "*"              br, gzip: not acceptable; identity: acceptable, least wanted
//
// q=0 is "not acceptable". The answer is in the acceptable coding of highest q, br before
// gzip before identity at equal q. No field, or an empty one, is identity.
class AcceptEncoding {
public:
  // Adds one Accept-Encoding field's value.
  void add(std::string_view field_value);
  ContentCoding choice() const;

private:
  static constexpr int kUnnamed = -1;
  void weigh(int &weight, int q) { weight = weight == kUnnamed ? q : std::min(weight, q); }
  // q × 1000, or kUnnamed
  int brotli_ = kUnnamed, gzip_ = kUnnamed, identity_ = kUnnamed, any_ = kUnnamed;
};

// The coding for a request with this one Accept-Encoding value (tests' shorthand for
// AcceptEncoding).
ContentCoding choose_coding(std::string_view accept_encoding);

// The Accept-Encoding value that makes httplib compress in `coding` and in nothing else
// ("br", "gzip"); empty for identity, which is no header at all.
std::string_view accept_encoding_for(ContentCoding coding);

// Whether httplib compresses an answer of this Content-Type (its can_compress_content_type:
// text/* but event streams, and a few exact types such as image/svg+xml). Others are sent as
// they are whatever the client accepts.
bool is_compressible(std::string_view content_type);

// The coding an answer of `content_type` is sent in to a request for `requested`.
ContentCoding coding_of_answer(ContentCoding requested, std::string_view content_type);

// Each coding of an answer is a representation of its own and gets its own strong ETag
// (RFC 9110 §8.8.3): the identity one's with "-gz" or "-br" before its closing quote.
std::string etag_in_coding(std::string_view identity_etag, ContentCoding coding);

// Whether an If-None-Match value ("*", or a list of entity tags) names `etag`, by the weak
// comparison §13.1.2 prescribes for it (W/"x" names "x"). "*" names any current answer. A
// value that does not parse names nothing: the answer is then sent whole, which is always
// right.
bool none_match_names(std::string_view if_none_match, std::string_view etag);

} // namespace verdict::transport
