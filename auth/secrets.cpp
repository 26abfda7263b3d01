#include "auth/secrets.h"

#include <sodium.h>

#include <stdexcept>
#include <vector>

namespace verdict::auth {

namespace {

void start_sodium() {
  static const int started = sodium_init(); // thread-safe, once; 1 when already started
  if (started < 0) throw std::runtime_error("libsodium could not start");
}

std::string hex(const unsigned char *bytes, size_t length) {
  std::string out(length * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, length);
  out.pop_back();
  return out;
}

} // namespace

std::string password_problem(std::string_view password) {
  if (password.size() < kMinPasswordLength)
    return "must be at least " + std::to_string(kMinPasswordLength) + " characters";
  if (password.size() > kMaxPasswordLength)
    return "must be at most " + std::to_string(kMaxPasswordLength) + " characters";
  return {};
}

std::string hash_password(std::string_view password) {
  start_sodium();
  char hash[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(hash, password.data(), password.size(),
                            crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("out of memory while hashing a password");
  return hash;
}

bool password_matches(std::string_view hash, std::string_view password) {
  start_sodium();
  if (hash.size() >= crypto_pwhash_STRBYTES) return false;
  const std::string terminated(hash); // libsodium reads a C string
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(std::string_view hash) {
  start_sodium();
  const std::string terminated(hash);
  return crypto_pwhash_str_needs_rehash(terminated.c_str(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0;
}

const std::string &hash_matching_nothing() {
  static const std::string hash = hash_password(random_secret());
  return hash;
}

bool same_secret(std::string_view given, std::string_view kept) {
  start_sodium();
  return !kept.empty() && given.size() == kept.size() &&
         sodium_memcmp(given.data(), kept.data(), kept.size()) == 0;
}

std::string random_secret(size_t bytes) {
  start_sodium();
  std::vector<unsigned char> buffer(bytes);
  randombytes_buf(buffer.data(), buffer.size());
  return hex(buffer.data(), buffer.size());
}

std::string secret_hash(std::string_view secret) {
  start_sodium();
  unsigned char digest[crypto_generichash_BYTES];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char *>(secret.data()),
                     secret.size(), nullptr, 0);
  return hex(digest, sizeof digest);
}

KeyedHasher::KeyedHasher(std::string_view key) {
  start_sodium();
  if (sodium_hex2bin(key_.data(), key_.size(), key.data(), key.size(), nullptr, &key_length_,
                     nullptr) != 0 ||
      key_length_ < crypto_generichash_KEYBYTES_MIN)
    throw std::runtime_error("a key must be at least 16 random bytes as hex");
}

std::string KeyedHasher::operator()(std::string_view message) const {
  unsigned char digest[kKeyedHashBytes];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char *>(message.data()),
                     message.size(), key_.data(), key_length_);
  return hex(digest, sizeof digest);
}

std::string keyed_hash(std::string_view key, std::string_view message) {
  return KeyedHasher(key)(message);
}

} // namespace verdict::auth
