#include "auth/log_signing.h"

#include <sodium.h>

#include <array>
#include <stdexcept>

namespace verdict::auth {

namespace {

template <size_t N> std::string hex_of(const std::array<unsigned char, N> &bytes) {
  std::string out(2 * N + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), N);
  out.pop_back();
  return out;
}

// `text` as exactly N bytes of hex, or false.
template <size_t N> bool bytes_of(std::string_view text, std::array<unsigned char, N> &out) {
  size_t written = 0;
  const char *end = nullptr;
  return text.size() == 2 * N &&
         sodium_hex2bin(out.data(), N, text.data(), text.size(), nullptr, &written, &end) == 0 &&
         written == N && end == text.data() + text.size();
}

std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secret_key(std::string_view signing_key) {
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> key{};
  if (!bytes_of(signing_key, key)) throw std::runtime_error("not an Ed25519 signing key");
  return key;
}

void start() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
}

} // namespace

std::string new_signing_key() {
  start();
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> key{};
  crypto_sign_keypair(public_key.data(), key.data());
  return hex_of(key);
}

std::string public_key_of(std::string_view signing_key) {
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  crypto_sign_ed25519_sk_to_pk(public_key.data(), secret_key(signing_key).data());
  return hex_of(public_key);
}

std::string signature_of(std::string_view signing_key, std::string_view message) {
  start();
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  crypto_sign_detached(signature.data(), nullptr,
                       reinterpret_cast<const unsigned char *>(message.data()), message.size(),
                       secret_key(signing_key).data());
  return hex_of(signature);
}

bool signature_holds(std::string_view public_key, std::string_view message,
                     std::string_view signature) {
  start();
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> key{};
  std::array<unsigned char, crypto_sign_BYTES> signed_bytes{};
  return bytes_of(public_key, key) && bytes_of(signature, signed_bytes) &&
         crypto_sign_verify_detached(signed_bytes.data(),
                                     reinterpret_cast<const unsigned char *>(message.data()),
                                     message.size(), key.data()) == 0;
}

} // namespace verdict::auth
