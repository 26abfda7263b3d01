// Feeds as Atom 1.0 (RFC 4287): what is new on the whole site, about one tool and from one
// reviewer. Every entry is a published comparison told in its own words and numbers (the
// editor's intro and bottom line, the verdict at a glance of domain/glance.h); a reviewer's
// entries tell what that reviewer said of the two tools. Every address in a feed is absolute
// under the site's public address, as feed readers need.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/model.h"
#include "domain/vote_log.h"
#include "render/views.h"

namespace verdict::feeds {

// Where each feed lives, and its title, which pages that link to it show too.
inline constexpr std::string_view kSitePath = "/feed.xml";
inline constexpr std::string_view kCheckpointsPath = "/transparency/feed.xml";
inline constexpr std::string_view kCheckpointsTitle = "Vote log checkpoints";
std::string tool_path(std::string_view tool_slug);
std::string reviewer_path(std::string_view reviewer_slug);
std::string site_title(const SiteCopy &site);
std::string tool_title(const Tool &tool, const SiteCopy &site);
std::string reviewer_title(const Reviewer &reviewer, const SiteCopy &site);

// Each feed as an Atom document; `base` is the site's public address
// ("https://verdict.example", no trailing slash).
std::string site_feed(const Views &views, const std::string &base,
                      const std::vector<FeedEntry> &entries, const SiteCopy &site);
std::string tool_feed(const Views &views, const std::string &base, const ToolFeed &feed,
                      const SiteCopy &site);
std::string reviewer_feed(const Views &views, const std::string &base, const ReviewerFeed &feed,
                          const SiteCopy &site);

// The vote log's signed checkpoints, newest first, each with its signed text, signature and the
// key: what a monitor follows to see every checkpoint the site signs and hold it to them.
std::string checkpoint_feed(const Views &views, const std::string &base,
                            const std::vector<Checkpoint> &checkpoints,
                            const std::string &public_key, const SiteCopy &site);

// `text` as XML 1.0 can carry it: each character XML forbids (control characters other than
// tab and line ends, U+FFFE, U+FFFF) and each byte that is not part of a UTF-8 character
// becomes U+FFFD. Content files may hold such characters; one of them would make the whole
// feed unreadable to every XML parser.
std::string xml_text(std::string_view text);

} // namespace verdict::feeds
