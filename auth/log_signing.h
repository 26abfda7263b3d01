// The vote log's signatures: Ed25519 through libsodium (crypto_sign_detached). The site makes
// its key once and keeps it in the database; anyone checks a checkpoint with the public key
// the site shows on /transparency.
#pragma once

#include <string>
#include <string_view>

namespace verdict::auth {

// A new Ed25519 key: the 64-byte secret key (which holds the public key) as hex.
std::string new_signing_key();
// The public key of a secret key from new_signing_key(), 32 bytes as hex.
std::string public_key_of(std::string_view signing_key);
// The signature of `message` under `signing_key`, 64 bytes as hex.
std::string signature_of(std::string_view signing_key, std::string_view message);
// Whether `signature` (hex) is `public_key`'s (hex) signature of `message`. False for any text
// that is not a key or a signature.
bool signature_holds(std::string_view public_key, std::string_view message,
                     std::string_view signature);

} // namespace verdict::auth
