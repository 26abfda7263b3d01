// The cluster's key: one secret file the operator makes once (`verdict cluster key --out FILE`)
// and gives every node (--cluster-key). It is what makes the stream of writes the cluster's
// own, whoever else can reach the NATS servers: every entry is sealed with it (libsodium's
// XChaCha20-Poly1305, the entry's id bound in), so a process holding the broker's credentials
// but not this file can neither read an entry nor make one a node would apply; and the site's
// secrets (the keys of vote tokens, voters' networks, unsubscribe links, known devices and the
// vote log's signing key) come from it, so they never travel as entries and every node signs
// and checks alike. A site that was served alone before keeps its secrets: `--db` carries them
// into the file, and they are used instead of the derived ones.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace verdict::cluster {

// The file cannot be used as a cluster key; what() says why, for the operator.
struct BadClusterKey : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The secrets the site keeps under these names (Store::site_secret), and the vote log's
// signing key: what a key file may carry, and what is derived from it otherwise.
inline constexpr std::array<std::string_view, 5> kSiteSecretNames = {
    "unsubscribe", "vote_tokens", "voter_networks", "known_devices", "vote_log_signing"};

class ClusterKey {
public:
  // Reads a key file; BadClusterKey when it is missing, unreadable, readable by others than
  // its owner, or not one `verdict cluster key` made.
  static ClusterKey from_file(const std::string &path);
  // A new key file's text: a random key, and `carried` secrets (name → value) kept as they are.
  static std::string new_file_text(const std::map<std::string, std::string> &carried = {});
  // From a file's text, for tests and from_file.
  static ClusterKey from_text(std::string_view text);

  // `plain` sealed for the stream under `id` (the entry's message id) at `sealed_at_ms`
  // (since 1970); only open() with the same key and id gives them back. The time lets a
  // reader tell an entry published again long after it was sealed (a replay) from a fresh one.
  std::string seal(std::string_view plain, std::string_view id, int64_t sealed_at_ms) const;
  struct Opened {
    std::string plain;
    int64_t sealed_at_ms = 0;
  };
  // A sealed entry's text and time; nothing when it was not sealed with this key for `id`
  // (forged, truncated, changed, or moved under another id).
  std::optional<Opened> open(std::string_view sealed, std::string_view id) const;
  // Whether `bytes` are in the form a seal takes (its mark, a nonce and a tag), whatever key
  // made it: what a node given another key would see of the cluster's entries, as against
  // junk that is nobody's.
  static bool looks_sealed(std::string_view bytes);

  // The site secret `name` (one of kSiteSecretNames, or another name for a key of the
  // cluster's own, such as "voter_cookies"): the one carried in the file, else derived.
  std::string secret(std::string_view name) const;
  // What tells this key from another without saying anything of it: a node's file keeps it, so
  // a node started with another key is refused before it writes (app/stream_follower.h).
  std::string fingerprint() const;

private:
  std::array<unsigned char, 32> key_{};     // the operator's secret
  std::array<unsigned char, 32> sealing_{}; // derived from it: seals the entries
  std::map<std::string, std::string, std::less<>> carried_;
};

} // namespace verdict::cluster
