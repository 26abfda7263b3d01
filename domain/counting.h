// Which reader votes the published community numbers count. A cookie is not a person: one
// person can drop cookies, or move between the addresses of one network (an office, a home
// router, a cloud subnet). So every vote cast is stored, and the numbers count a vote under
// one rule, kept here with its numbers and stated on /methodology. Nothing is weighted and
// nothing is hidden: a vote is counted or set aside, and every set-aside vote is shown with
// its reason beside the number it was kept out of.
//
// The rule, for a vote on one target (a tool, or a head-to-head pair) from a page the server
// issued (auth/vote_tokens.h refuses votes from anywhere else):
//
//   | sent after its page | votes counted on the target now                        | vote     |
//   |---------------------|--------------------------------------------------------|----------|
//   | under 2 seconds     | any                                                    | too_fast |
//   | at least that       | this voter's own vote is counted                       | counted  |
//   | at least that       | under 3 of its network's, and under 12 of its wider    | counted  |
//   |                     | network's (the /16 or /32 its network is in)           |          |
//   | at least that       | 3 or more of its network's, or 12 of its wider one's   | network  |
//
//   too_fast and network name why a vote is set aside.
//
// A ceiling, not a rate: a counted vote holds one of its network's places (and one of its
// wider network's) on the target for as long as it stands, whenever it was cast, so however
// long a network votes, no more than 3 of its readers are counted on a target at once, and
// 12 of its wider network's. A counted reader who changes their mind keeps their place; a
// place frees only when its vote is withdrawn (or its tool deleted). Then the oldest vote set
// aside for its network that fits is counted in it (store/votes.cpp), and so a vote set aside
// for its network waits for a place rather than for a date. A vote set aside as too fast
// is judged again when its voter sends it again.
// The nested quota is what rotating addresses across a cloud provider's or a carrier's /24s
// (or /48s) meets: their /16 (or /32) holds 12 places per target, however many /24s they
// use. The trade-off, kept honest on /methodology: readers behind one office NAT share three
// counted votes per target, and a wider network twelve; their further votes are stored and
// shown as cast, not counted, until a place frees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/model.h"

namespace verdict {

// Readers of one network counted per target at once, and of one wider network.
constexpr int64_t kCountedVotersPerNetwork = 3;
constexpr int64_t kCountedVotersPerWiderNetwork = 12;
// The rule before its ceiling (migrations/0021-standing-places.sql) held a network's place for
// a rolling window of this many UTC days, today included: the log's entries of that time are
// checked against it (domain/tallies.h CountingRuleCheck).
constexpr int64_t kCountingWindowDays = 30;
// A network: the addresses one household, office or subnet is given. IPv4 /24; IPv6 /48 (one
// site's allocation: a /64 is one LAN, and a site has 65,536 of them). Its wider network: the
// IPv4 /16 or IPv6 /32 it is in (a provider's block).
constexpr int kIpv4NetworkBits = 24;
constexpr int kIpv6NetworkBits = 48;
constexpr int kIpv4WiderNetworkBits = 16;
constexpr int kIpv6WiderNetworkBits = 32;
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
// address written as IPv6 (::ffff:203.0.113.9), or carried in one by a tunnel or translator
// (6to4, Teredo, NAT64), is its IPv4 network. Text that is no address
// (which only a misconfigured proxy would send) is its own network.
std::string network_of(std::string_view address);
// The wider network the address's network is in: "203.0.0.0/16", "2001:db8::/32"; text that is
// no address is its own, as above.
std::string wider_network_of(std::string_view address);

// What the rule reads of a vote's networks on its target.
struct CountedAround {
  int64_t network_voters = 0;    // places its network holds (votes counted now)
  int64_t wider_voters = 0;      // places its wider network holds
  bool voter_among_them = false; // this voter's own vote is counted, holding a place
};

// The rule above. `seconds_on_page`: since the vote's page was made. Empty: counted.
std::optional<SetAsideReason> judge_vote(int64_t seconds_on_page, const CountedAround &counted);

// Why a vote was set aside, as a reader reads it: "too many from one network".
std::string reason_text(SetAsideReason reason);
// The code a set-aside vote is stored and published under ("network", "too_fast").
const char *reason_code(SetAsideReason reason);
std::optional<SetAsideReason> reason_from_code(std::string_view code);

// What the counting left out of a number, for beside it: "" when nothing was set aside, else
// "49 cast, 12 set aside: too many from one network" (each reason with its count
// when there are several). `counted` is the number shown, so the phrase gives cast, counted
// and set aside.
std::string set_aside_phrase(const SetAside &set_aside, int64_t counted);
// " (" that phrase ")", to follow a number, or "" when nothing was set aside.
std::string with_set_aside(const SetAside &set_aside, int64_t counted);

} // namespace verdict
