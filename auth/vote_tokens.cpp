#include "auth/vote_tokens.h"

#include <algorithm>
#include <charconv>

#include "auth/secrets.h"
#include "domain/counting.h"
#include "domain/tallies.h"

namespace verdict::auth {

namespace {

std::string token_message(std::string_view target, int64_t made_at) {
  return "vote\n" + std::string(target) + "\n" + std::to_string(made_at);
}

} // namespace

std::string tool_vote_target(int64_t tool_id) {
  return vote_target_code(tool_target(tool_id));
}

std::string pair_vote_target(int64_t a_id, int64_t b_id) {
  return vote_target_code(pair_target(a_id, b_id));
}

std::string vote_token(std::string_view key, std::string_view target, int64_t made_at) {
  return std::to_string(made_at) + "." + keyed_hash(key, token_message(target, made_at));
}

VoteTokenCheck check_vote_token(std::string_view key, std::string_view token,
                                std::string_view target, int64_t now) {
  if (token.empty()) return {VoteTokenFault::missing};
  const auto dot = token.find('.');
  int64_t made_at = 0;
  if (dot == std::string_view::npos || dot == 0 || dot > 12 || token[0] == '0')
    return {VoteTokenFault::not_for_this};
  const auto [end, ec] = std::from_chars(token.data(), token.data() + dot, made_at);
  if (ec != std::errc() || end != token.data() + dot) return {VoteTokenFault::not_for_this};
  if (!same_secret(token.substr(dot + 1), keyed_hash(key, token_message(target, made_at))))
    return {VoteTokenFault::not_for_this};
  if (made_at > now) return {VoteTokenFault::from_future};
  if (now - made_at > kVotePageLifetimeSeconds) return {VoteTokenFault::expired};
  return {std::nullopt, now - made_at};
}

} // namespace verdict::auth
