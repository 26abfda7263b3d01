// libFuzzer target over the request parsing Verdict owns: form bodies, the voter cookie,
// emails, return paths, pair slugs and the same-origin check. The input is split on 0x00 into
// the pieces each parser takes. Properties checked beyond "does not crash":
//   - a parsed form never holds a field outside the allowed list, nor invalid UTF-8, nor
//     control characters (but line feeds in its multi-line field); its error is valid UTF-8;
//   - a cut to whole characters is a start of the text, and valid when the text is; text made
//     reflectable is valid UTF-8 without control characters;
//   - a voter id is empty or exactly 32 lowercase hex digits, a session secret 64;
//   - a form field read alone is the value the whole form parses to, when the form parses;
//   - every pair split yields two valid slugs that rejoin to the input;
//   - an accepted return path starts with one "/" and names no other host or scheme;
//   - an accepted search text holds no control characters, no space at either end and at
//     most kMaxSearchCharacters characters;
//   - a vote token is good only when it is the one made for its target and time, and any
//     text's network (domain/counting.h) is the network of that network's own address.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "auth/vote_tokens.h"
#include "domain/counting.h"
#include "domain/slugs.h"
#include "domain/utf8.h"
#include "middleware/request_parsing.h"

using namespace verdict;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= input.size(); ++i) {
    if (i == input.size() || input[i] == '\0') {
      parts.push_back(input.substr(start, i - start));
      start = i + 1;
    }
  }
  while (parts.size() < 4)
    parts.emplace_back();

  const auto form = parse_form(parts[0], {"verdict", "back", "pick", "email"}, {"back"});
  if (!is_valid_utf8(form.error)) std::abort();
  for (const auto &[name, value] : form.fields) {
    if (name != "verdict" && name != "back" && name != "pick" && name != "email") std::abort();
    if (!is_valid_utf8(value)) std::abort();
    for (char c : value)
      if (static_cast<unsigned char>(c) < 0x20 && !(name == "back" && c == '\n')) std::abort();
  }
  // The desk's token check reads one field before the handler parses the whole form.
  const auto email = form_field(parts[0], "email");
  if (form.ok() && form.fields.count("email") && form.fields.at("email") != email) std::abort();
  const auto secret = session_secret_from_cookie(parts[1]);
  if (!secret.empty() && secret.size() != 64) std::abort();
  for (char c : secret)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) std::abort();
  const auto voter = voter_from_cookie(parts[1]);
  if (!voter.empty() && voter.size() != 32) std::abort();
  for (char c : voter)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) std::abort();
  for (const auto &[a, b] : pair_slug_splits(parts[2]))
    if (!is_valid_slug(a) || !is_valid_slug(b) || pair_slug(a, b) != parts[2]) std::abort();
  is_valid_email(parts[3]);
  if (is_local_return_path(parts[3])) {
    const auto path = parts[3];
    if (path.empty() || path[0] != '/') std::abort();
    if (path.size() > 1 && (path[1] == '/' || path[1] == '\\')) std::abort();
    if (path.find(':') != std::string_view::npos || path.find('\\') != std::string_view::npos)
      std::abort();
  }
  const auto search = parse_search_text({std::string(parts[3])});
  if (!is_valid_utf8(search.error)) std::abort();
  if (search.ok()) {
    if (!is_valid_utf8(search.text)) std::abort();
    const auto &text = search.text;
    size_t characters = 0;
    for (char c : text) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
      characters += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    }
    if (characters > kMaxSearchCharacters) std::abort();
    if (!text.empty() && (text.front() == ' ' || text.back() == ' ')) std::abort();
  }
  // Whatever a form's token field holds, it passes only as the token made for the target.
  static const std::string key(64, 'f');
  const auto check = auth::check_vote_token(key, parts[2], auth::tool_vote_target(7), 2000000000);
  if (!check.fault) {
    const auto made_at = 2000000000 - check.seconds_on_page;
    if (auth::vote_token(key, auth::tool_vote_target(7), made_at) != parts[2]) std::abort();
  }
  const auto network = network_of(parts[3]);
  if (const auto slash = network.find('/'); network.rfind("other:", 0) != 0) {
    if (slash == std::string::npos || network_of(network.substr(0, slash)) != network) std::abort();
  }
  // A cut ends between characters, and what is said back is valid UTF-8 without controls.
  const auto cut = cut_to_whole_characters(parts[3], parts[0].size());
  if (cut.size() > parts[0].size() || parts[3].substr(0, cut.size()) != cut) std::abort();
  if (is_valid_utf8(parts[3]) && !is_valid_utf8(cut)) std::abort();
  const auto shown = reflectable_text(parts[3], parts[0].size());
  if (!is_valid_utf8(shown) || shown.size() > parts[0].size() + 3) std::abort();
  for (char c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
  if (!is_valid_utf8(with_invalid_replaced(parts[3]))) std::abort();
  is_form_content_type(parts[3]);
  is_same_origin_request(parts[1], parts[2], parts[3], parts[0]);
  return 0;
}
