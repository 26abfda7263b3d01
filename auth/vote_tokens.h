// The token every vote form carries, so a vote is taken only from a page this server made:
// "<seconds since 1970 when the page was made>.<keyed BLAKE2b MAC of the target and that
// time>". It is bound to its target (a tool, or a head-to-head pair) and to the moment its
// page was made, and signed with a key the database keeps (Store::site_secret), so it needs
// no memory per page or reader. It is the same for every reader of a page made at one moment,
// so anonymous pages stay identical bytes that any cache may keep; what it proves is that the
// vote came from a page of this site, made recently, some time before the vote
// (domain/counting.h: kSecondsToReadAPage, kVotePageLifetimeSeconds). Whose vote counts is the
// counting rule's business, not the token's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace verdict::auth {

// What a token is made for: "tool:12", "pair:3-7" (the pair's ids in ascending order, so
// either order of the pair's address takes the same token).
std::string tool_vote_target(int64_t tool_id);
std::string pair_vote_target(int64_t a_id, int64_t b_id);

// `key` is a secret from random_secret() (hex).
std::string vote_token(std::string_view key, std::string_view target, int64_t made_at);

enum class VoteTokenFault {
  missing,      // the form carried none
  not_for_this, // not a token this site made for this target
  expired,      // its page was made more than kVotePageLifetimeSeconds ago
  from_future,  // made later than now: not a page of this server's
};

struct VoteTokenCheck {
  std::optional<VoteTokenFault> fault; // empty: good
  int64_t seconds_on_page = 0;         // since the token's page was made, when good
};

VoteTokenCheck check_vote_token(std::string_view key, std::string_view token,
                                std::string_view target, int64_t now);

} // namespace verdict::auth
