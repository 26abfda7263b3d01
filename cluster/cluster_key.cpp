#include "cluster/cluster_key.h"

#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace verdict::cluster {

namespace {

// The file's first line, so a key file is recognised for what it is (and a later format can
// be told apart).
constexpr std::string_view kFileHeader = "verdict-cluster-key 1";
// A sealed entry: this mark, a random 24-byte nonce, then the ciphertext and its 16-byte tag.
constexpr std::string_view kSealMark = "VS1";

void start_sodium() {
  static const int started = sodium_init();
  if (started < 0) throw std::runtime_error("libsodium could not start");
}

std::string hex_of(const unsigned char *bytes, size_t length) {
  std::string out(length * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, length);
  out.pop_back();
  return out;
}

bool is_hex(std::string_view text) {
  return !text.empty() && text.size() % 2 == 0 && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

// A 32-byte key of its own for each purpose: BLAKE2b keyed with the operator's key, over the
// purpose's name, so knowing one derived key tells nothing of another or of the file's.
std::array<unsigned char, 32> derived(const std::array<unsigned char, 32> &key,
                                      std::string_view purpose) {
  std::array<unsigned char, 32> out{};
  const std::string message = "verdict cluster: " + std::string(purpose);
  crypto_generichash(out.data(), out.size(),
                     reinterpret_cast<const unsigned char *>(message.data()), message.size(),
                     key.data(), key.size());
  return out;
}

// What a sealed entry's tag covers besides its text: its id, so an entry copied under another
// id does not open.
std::string bound_to(std::string_view id) {
  return "verdict entry\n" + std::string(id);
}

} // namespace

ClusterKey ClusterKey::from_text(std::string_view text) {
  start_sodium();
  std::istringstream lines{std::string(text)};
  std::string line;
  bool header = false, keyed = false;
  ClusterKey made;
  while (std::getline(lines, line)) {
    if (line.empty() || line.front() == '#') continue;
    if (!header) {
      if (line != kFileHeader)
        throw BadClusterKey("it is not a key made by `verdict cluster key` (its first line is "
                            "not \"" +
                            std::string(kFileHeader) + "\")");
      header = true;
      continue;
    }
    std::istringstream words(line);
    std::string word, name, value, extra;
    words >> word;
    if (word == "key" && (words >> value) && !(words >> extra) && value.size() == 64 &&
        is_hex(value)) {
      sodium_hex2bin(made.key_.data(), made.key_.size(), value.data(), value.size(), nullptr,
                     nullptr, nullptr);
      keyed = true;
    } else if (word == "secret" && (words >> name >> value) && !(words >> extra) &&
               std::find(kSiteSecretNames.begin(), kSiteSecretNames.end(), name) !=
                   kSiteSecretNames.end() &&
               is_hex(value)) {
      made.carried_[name] = value;
    } else {
      throw BadClusterKey("its line \"" + line.substr(0, 40) + "\" is not one it can hold");
    }
  }
  if (!header || !keyed) throw BadClusterKey("it holds no key");
  made.sealing_ = derived(made.key_, "sealing");
  return made;
}

ClusterKey ClusterKey::from_file(const std::string &path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0)
    throw BadClusterKey("there is no file " + path + " (make one with `verdict cluster key --out " +
                        path + "` and copy it to every node)");
  if ((status.st_mode & 077) != 0)
    throw BadClusterKey(path + " can be read by others than its owner: chmod 600 " + path);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  if (!file) throw BadClusterKey(path + " cannot be read");
  try {
    return from_text(text.str());
  } catch (const BadClusterKey &e) {
    throw BadClusterKey(path + ": " + e.what());
  }
}

std::string ClusterKey::new_file_text(const std::map<std::string, std::string> &carried) {
  start_sodium();
  std::array<unsigned char, 32> key{};
  randombytes_buf(key.data(), key.size());
  std::string text = "# The cluster's key (docs/CLUSTER.md): give this file, mode 600, to every "
                     "node as --cluster-key.\n# Whoever holds it can write to the site: keep it "
                     "as you keep the database.\n" +
                     std::string(kFileHeader) + "\nkey " + hex_of(key.data(), key.size()) + "\n";
  for (const auto &[name, value] : carried)
    text += "secret " + name + " " + value + "\n";
  return text;
}

std::string ClusterKey::seal(std::string_view text, std::string_view id,
                             int64_t sealed_at_ms) const {
  // The time, as 8 bytes big-endian, before the text: both under the seal.
  std::string plain(8, '\0');
  for (int i = 0; i < 8; ++i)
    plain[static_cast<size_t>(i)] =
        static_cast<char>((static_cast<uint64_t>(sealed_at_ms) >> (56 - 8 * i)) & 0xff);
  plain.append(text);
  std::string sealed(kSealMark);
  std::array<unsigned char, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES> nonce{};
  randombytes_buf(nonce.data(), nonce.size());
  sealed.append(reinterpret_cast<const char *>(nonce.data()), nonce.size());
  const auto bound = bound_to(id);
  const auto start = sealed.size();
  sealed.resize(start + plain.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES);
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      reinterpret_cast<unsigned char *>(sealed.data() + start), &written,
      reinterpret_cast<const unsigned char *>(plain.data()), plain.size(),
      reinterpret_cast<const unsigned char *>(bound.data()), bound.size(), nullptr, nonce.data(),
      sealing_.data());
  sealed.resize(start + written);
  return sealed;
}

bool ClusterKey::looks_sealed(std::string_view bytes) {
  constexpr auto kNonce = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
  constexpr auto kTag = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  return bytes.size() >= kSealMark.size() + kNonce + kTag + 8 && bytes.starts_with(kSealMark);
}

std::optional<ClusterKey::Opened> ClusterKey::open(std::string_view sealed,
                                                   std::string_view id) const {
  constexpr auto kNonce = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
  constexpr auto kTag = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  if (!looks_sealed(sealed)) return std::nullopt;
  const auto *nonce = reinterpret_cast<const unsigned char *>(sealed.data() + kSealMark.size());
  const auto cipher = sealed.substr(kSealMark.size() + kNonce);
  const auto bound = bound_to(id);
  std::string plain(cipher.size() - kTag, '\0');
  unsigned long long written = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(
          reinterpret_cast<unsigned char *>(plain.data()), &written, nullptr,
          reinterpret_cast<const unsigned char *>(cipher.data()), cipher.size(),
          reinterpret_cast<const unsigned char *>(bound.data()), bound.size(), nonce,
          sealing_.data()) != 0)
    return std::nullopt;
  if (written < 8) return std::nullopt;
  uint64_t at = 0;
  for (size_t i = 0; i < 8; ++i)
    at = (at << 8) | static_cast<unsigned char>(plain[i]);
  return Opened{plain.substr(8, written - 8), static_cast<int64_t>(at)};
}

std::string ClusterKey::fingerprint() const {
  const auto print = derived(key_, "fingerprint");
  return hex_of(print.data(), 16);
}

std::string ClusterKey::secret(std::string_view name) const {
  if (const auto kept = carried_.find(name); kept != carried_.end()) return kept->second;
  const auto seed = derived(key_, std::string("secret ") + std::string(name));
  if (name != "vote_log_signing") return hex_of(seed.data(), seed.size());
  // The vote log's Ed25519 key, as auth::new_signing_key() writes one: the same on every node.
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> signing{};
  crypto_sign_seed_keypair(public_key.data(), signing.data(), seed.data());
  return hex_of(signing.data(), signing.size());
}

} // namespace verdict::cluster
