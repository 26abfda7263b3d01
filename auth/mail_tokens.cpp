#include "auth/mail_tokens.h"

#include <charconv>
#include <stdexcept>

#include "auth/secrets.h"
#include "domain/text.h"

namespace verdict::auth {

namespace {

constexpr size_t kMacBytes = kKeyedHashBytes;

std::optional<int64_t> leading_number(std::string_view token, std::string_view &rest) {
  const auto dash = token.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash > 18 || token[0] == '0')
    return std::nullopt;
  int64_t number = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + dash, number);
  if (ec != std::errc() || end != token.data() + dash) return std::nullopt;
  rest = token.substr(dash + 1);
  return number;
}

std::string unsubscribe_message(int64_t subscriber_id, std::string_view email) {
  // Addresses are kept case-blind, so the link is made from the lower-case address.
  return "unsubscribe\n" + std::to_string(subscriber_id) + "\n" + ascii_lowercase(email);
}

} // namespace

std::string unsubscribe_token(std::string_view key, int64_t subscriber_id, std::string_view email) {
  return std::to_string(subscriber_id) + "-" +
         keyed_hash(key, unsubscribe_message(subscriber_id, email));
}

std::optional<int64_t> unsubscribe_token_id(std::string_view token) {
  std::string_view rest;
  const auto id = leading_number(token, rest);
  if (!id || rest.size() != kMacBytes * 2) return std::nullopt;
  return id;
}

bool unsubscribe_token_matches(std::string_view key, std::string_view token, int64_t subscriber_id,
                               std::string_view email) {
  return same_secret(token, unsubscribe_token(key, subscriber_id, email));
}

std::string subscribed_marker(std::string_view key, int64_t expires_at) {
  const auto until = std::to_string(expires_at);
  return until + "-" + keyed_hash(key, "subscribed\n" + until);
}

bool subscribed_marker_holds(std::string_view key, std::string_view marker, int64_t now) {
  std::string_view rest;
  const auto until = leading_number(marker, rest);
  if (!until || now > *until) return false;
  return same_secret(marker, subscribed_marker(key, *until));
}

} // namespace verdict::auth
