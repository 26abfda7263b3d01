// Editors' passwords and sign-in secrets, through libsodium (a well-kept library, so that no
// cryptography is written here): Argon2id password hashes (crypto_pwhash_str, with libsodium's
// interactive limits), random secrets, and the one-way hash under which a session's secret is
// kept in the database.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace verdict::auth {

// What a password must be; empty when acceptable, otherwise what is wrong with it.
std::string password_problem(std::string_view password);
constexpr size_t kMinPasswordLength = 10;
constexpr size_t kMaxPasswordLength = 1024;

// An Argon2id hash in the standard "$argon2id$v=19$m=…" form, salted afresh each time.
std::string hash_password(std::string_view password);
// Whether `password` is the one `hash` was made from. Takes as long for any wrong password.
bool password_matches(std::string_view hash, std::string_view password);
// Whether `hash` was made with weaker limits than today's (then it is made again at sign-in).
bool needs_rehash(std::string_view hash);
// A hash that matches no password, for checking a password against when the address is
// unknown: the answer then takes as long as for a known one.
const std::string &hash_matching_nothing();

// Whether two secrets are equal, in time that does not depend on where they differ. An empty
// secret equals nothing.
bool same_secret(std::string_view given, std::string_view kept);

// `bytes` random bytes as lower-case hex.
std::string random_secret(size_t bytes = 32);
// How a secret is kept: BLAKE2b (crypto_generichash), hex. A secret is random, so no salt
// or slow hash is needed to keep it from being guessed from its hash.
std::string secret_hash(std::string_view secret);

// A keyed BLAKE2b MAC (crypto_generichash with a key) of `message`, hex: what proves a link
// or form was made here, and what a voter's network is kept as. `key` is a secret from
// random_secret() (hex, at least 16 bytes).
constexpr size_t kKeyedHashBytes = 16; // 128 bits: far beyond guessing, short enough for a link
std::string keyed_hash(std::string_view key, std::string_view message);

// The same keyed hash with its key read once, for many messages under one key.
class KeyedHasher {
public:
  explicit KeyedHasher(std::string_view key); // throws as keyed_hash does
  std::string operator()(std::string_view message) const;

private:
  std::array<unsigned char, 64> key_{}; // crypto_generichash_KEYBYTES_MAX
  size_t key_length_ = 0;
};

} // namespace verdict::auth
