#include "auth/mail_tokens.h"

#include <sodium.h>

#include <charconv>
#include <stdexcept>

#include "auth/secrets.h"
#include "domain/text.h"

namespace verdict::auth {

namespace {

constexpr size_t kMacBytes = 16; // 128 bits: far beyond guessing, short enough for a link

// The MAC of `message` under the hex `key`, as hex.
std::string mac(std::string_view key, std::string_view message) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
  unsigned char key_bytes[crypto_generichash_KEYBYTES_MAX];
  size_t key_length = 0;
  if (sodium_hex2bin(key_bytes, sizeof key_bytes, key.data(), key.size(), nullptr, &key_length,
                     nullptr) != 0 ||
      key_length < crypto_generichash_KEYBYTES_MIN)
    throw std::runtime_error("a mail key must be at least 16 random bytes as hex");
  unsigned char digest[kMacBytes];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char *>(message.data()),
                     message.size(), key_bytes, key_length);
  char hex[kMacBytes * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

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
  return std::to_string(subscriber_id) + "-" + mac(key, unsubscribe_message(subscriber_id, email));
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
  return until + "-" + mac(key, "subscribed\n" + until);
}

bool subscribed_marker_holds(std::string_view key, std::string_view marker, int64_t now) {
  std::string_view rest;
  const auto until = leading_number(marker, rest);
  if (!until || now > *until) return false;
  return same_secret(marker, subscribed_marker(key, *until));
}

} // namespace verdict::auth
