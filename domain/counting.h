// Which reader votes the published community numbers count. A cookie is not a person: one
// person can drop cookies, or move between the addresses of one network (an office, a home
// router, a cloud subnet). So every vote cast is stored, and the numbers count a vote under
// one rule, kept here with its numbers and stated on /methodology. Nothing is weighted and
// nothing is hidden: a vote is counted or set aside, and every set-aside vote is shown with
// its reason beside the number it was kept out of.
//
// The rule, for a vote on one target (a tool, or a head-to-head pair), cast on one UTC day
// from a page the server issued (auth/vote_tokens.h refuses votes from anywhere else):
//
//   | sent after its page was made | its network's voters counted on the target | vote      |
//   |------------------------------|---------------------------------------------|-----------|
//   | under kSecondsToReadAPage    | any                                         | too_fast  |
//   | at least that                | this voter is already one of them           | counted   |
//   | at least that                | fewer than kCountedVotersPerNetworkPerDay   | counted   |
//   | at least that                | kCountedVotersPerNetworkPerDay or more      | network   |
//
//   Voters counted on the UTC day the vote is cast; too_fast and network name why a vote
//   is set aside.
//
// A counted vote stays counted when its voter changes it (their place was taken once); a
// set-aside vote is judged again whenever its voter sends it again, so a reader who was too
// quick, or whose office used up its share yesterday, is counted when they vote again.
// The trade-off: more than three readers behind one office NAT voting on the same thing on
// the same day have their fourth and later votes set aside (stored and shown, not counted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/model.h"

namespace verdict {

// Readers of one network counted per target per UTC day.
constexpr int64_t kCountedVotersPerNetworkPerDay = 3;
// A network: the addresses one household, office or subnet is given. IPv4 /24; IPv6 /48 (one
// site's allocation: a /64 is one LAN, and a site has 65,536 of them).
constexpr int kIpv4NetworkBits = 24;
constexpr int kIpv6NetworkBits = 48;
// A vote sent sooner than this after its page was made came from a script, not a reader. The
// clock counts whole seconds (a token holds the second its page was made), so what is set aside
// is a vote sent in that second or the next: always less than this, though not every such vote.
constexpr int64_t kSecondsToReadAPage = 2;
// A vote is taken only from a page made at most this long before (auth/vote_tokens.h): a tab
// left open over a day is reloaded before its vote is taken.
constexpr int64_t kVotePageLifetimeSeconds = 24 * 3600;
// Pages with vote forms are made again at least this often, even when nothing changed, so a
// page handed out from a cache carries a form at most this old.
constexpr int64_t kVotePageRenewalSeconds = 3600;

// The network an address belongs to, as text: "203.0.113.0/24", "2001:db8:1::/48". An IPv4
// address written as IPv6 (::ffff:203.0.113.9) is its IPv4 network. Text that is no address
// (which only a misconfigured proxy would send) is its own network.
std::string network_of(std::string_view address);

// The rule above. `seconds_on_page`: since the vote's page was made; `counted_voters`: voters
// of the vote's network already counted on its target that day; `voter_among_them`: this
// voter is one of those. Empty: counted.
std::optional<SetAsideReason> judge_vote(int64_t seconds_on_page, int64_t counted_voters,
                                         bool voter_among_them);

// Why a vote was set aside, as a reader reads it: "more than 3 from one network in a day".
std::string reason_text(SetAsideReason reason);
// The code a set-aside vote is stored and published under ("network", "too_fast").
const char *reason_code(SetAsideReason reason);
std::optional<SetAsideReason> reason_from_code(std::string_view code);

// What the counting left out of a number, for beside it: "" when nothing was set aside, else
// "49 cast · 12 set aside: more than 3 from one network in a day" (each reason with its count
// when there are several). `counted` is the number shown, so the phrase gives cast, counted
// and set aside.
std::string set_aside_phrase(const SetAside &set_aside, int64_t counted);
// " (" that phrase ")", to follow a number, or "" when nothing was set aside.
std::string with_set_aside(const SetAside &set_aside, int64_t counted);

} // namespace verdict
