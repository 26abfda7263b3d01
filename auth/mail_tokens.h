// The weekly digest's links that prove something without a password: the unsubscribe link
// every mail carries, and the marker that lets /subscribed open only right after a real
// sign-up. Both are keyed BLAKE2b MACs (libsodium's crypto_generichash with a key), checked in
// constant time.
//
// An unsubscribe link must be in every mail for as long as the address gets mail, so it is
// not a random token kept per address but made again from a key the site keeps
// (Store::site_secret): "<subscriber id>-<MAC of the id and the address>". The address is in
// the MAC so that a link can never unsubscribe someone else who later gets the same row id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace verdict::auth {

// `key` is a secret from random_secret() (hex).
std::string unsubscribe_token(std::string_view key, int64_t subscriber_id, std::string_view email);
// The subscriber id a token names, before checking it; empty when it is not a token's shape.
std::optional<int64_t> unsubscribe_token_id(std::string_view token);
// Whether `token` is the one made for this subscriber.
bool unsubscribe_token_matches(std::string_view key, std::string_view token, int64_t subscriber_id,
                               std::string_view email);

// A marker good until `expires_at` (seconds since 1970), and whether one is good at `now`.
std::string subscribed_marker(std::string_view key, int64_t expires_at);
bool subscribed_marker_holds(std::string_view key, std::string_view marker, int64_t now);

} // namespace verdict::auth
