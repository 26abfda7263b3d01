#include "domain/write_encoding.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace verdict {

using nlohmann::json;

namespace {

// Each kind's name, in the order of Write's alternatives.
constexpr std::array<std::string_view, std::variant_size_v<Write>> kKindNames = {
    "create_category",      "update_category",      "delete_category",     "create_tool",
    "update_tool",          "delete_tool",          "create_reviewer",     "update_reviewer",
    "delete_reviewer",      "create_review",        "update_review",       "delete_review",
    "create_comparison",    "update_comparison",    "delete_comparison",   "add_editor",
    "remove_editor",        "set_editor_password",  "start_session",       "end_session",
    "erase_subscriber",     "unsubscribe",          "tool_vote",           "pair_vote",
    "request_subscription", "confirm_subscription", "resubscribe",         "claim_confirmation",
    "start_confirmation",   "confirmation_mailed",  "confirmation_failed", "record_digest",
    "claim_digest_send",    "digest_sent",          "digest_send_failed",  "make_checkpoint",
    "import_content",       "publish_votes"};

// Every kind has a name, and no two kinds share one: an entry is read as the kind it names.
constexpr bool names_differ() {
  for (size_t i = 0; i < kKindNames.size(); ++i)
    for (size_t j = i + 1; j < kKindNames.size(); ++j)
      if (kKindNames[i] == kKindNames[j]) return false;
  for (const auto name : kKindNames)
    if (name.empty()) return false;
  return true;
}
static_assert(names_differ(), "a kind of write has no name, or two kinds have one");

// The arguments' version this code writes, and the newest it reads.
constexpr int kVersion = 1;

// An item as the content file writes it (domain/content.h), and read back.
template <class Item> json item_argument(const Item &item) {
  return json::parse(item_json(item));
}
template <class Item> Item item_in(const json &arguments) {
  Item item;
  if (!read_item_json(arguments.at("item").dump(), item))
    throw std::invalid_argument("its item is not one");
  return item;
}
std::string text_in(const json &arguments, const char *key) {
  const auto &value = arguments.at(key);
  if (!value.is_string()) throw std::invalid_argument(std::string(key) + " is not a text");
  return value.get<std::string>();
}

int64_t number_in(const json &arguments, const char *key) {
  const auto &value = arguments.at(key);
  if (!value.is_number_integer())
    throw std::invalid_argument(std::string(key) + " is not a whole number");
  return value.get<int64_t>();
}

bool flag_in(const json &arguments, const char *key) {
  const auto &value = arguments.at(key);
  if (!value.is_boolean()) throw std::invalid_argument(std::string(key) + " is not true or false");
  return value.get<bool>();
}
// A flag written only when set (a vote's `batched`, a checkpoint's `by_hand`): absent in an
// entry of a version before it was, which meant it unset.
bool set_flag_in(const json &arguments, const char *key) {
  return arguments.contains(key) && flag_in(arguments, key);
}
json with_flag_if_set(json arguments, const char *key, bool set) {
  if (set) arguments[key] = true;
  return arguments;
}
json optional_number(const std::optional<int64_t> &value) {
  return value ? json(*value) : json(nullptr);
}
std::optional<int64_t> optional_number_in(const json &arguments, const char *key) {
  if (arguments.at(key).is_null()) return std::nullopt;
  return number_in(arguments, key);
}

// A ballot as the stream carries it: what the taking node saw, never how long the page was
// open (judged from the token where the vote is applied: read back as 0 until it is).
json ballot_argument(const Ballot &ballot) {
  return {{"voter", ballot.voter},
          {"network", ballot.network},
          {"wider", ballot.wider},
          {"day", ballot.day},
          {"token", ballot.token}};
}
Ballot ballot_in(const json &arguments) {
  const auto &ballot = arguments.at("ballot");
  // "wider" from a node of this version on; an older node's vote meets no wider quota.
  return {text_in(ballot, "voter"),
          text_in(ballot, "network"),
          text_in(ballot, "day"),
          0,
          text_in(ballot, "token"),
          ballot.contains("wider") ? text_in(ballot, "wider") : std::string()};
}

// Each kind's arguments, written.
json encoded(const CreateCategory &w) {
  return {{"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const UpdateCategory &w) {
  return {{"slug", w.slug}, {"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const DeleteCategory &w) {
  return {{"slug", w.slug}, {"editor", w.editor}};
}
json encoded(const CreateTool &w) {
  return {{"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const UpdateTool &w) {
  return {{"slug", w.slug}, {"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const DeleteTool &w) {
  return {{"slug", w.slug}, {"editor", w.editor}};
}
json encoded(const CreateReviewer &w) {
  return {{"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const UpdateReviewer &w) {
  return {{"slug", w.slug}, {"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const DeleteReviewer &w) {
  return {{"slug", w.slug}, {"editor", w.editor}};
}
json encoded(const CreateReview &w) {
  return {{"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const UpdateReview &w) {
  return {{"tool", w.tool},
          {"reviewer", w.reviewer},
          {"item", item_argument(w.item)},
          {"editor", w.editor}};
}
json encoded(const DeleteReview &w) {
  return {{"tool", w.tool}, {"reviewer", w.reviewer}, {"editor", w.editor}};
}
json encoded(const CreateComparison &w) {
  return {{"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const UpdateComparison &w) {
  return {{"pair", w.pair}, {"item", item_argument(w.item)}, {"editor", w.editor}};
}
json encoded(const DeleteComparison &w) {
  return {{"pair", w.pair}, {"editor", w.editor}};
}

json encoded(const AddEditor &w) {
  return {{"email", w.email}, {"password_hash", w.password_hash}};
}
json encoded(const RemoveEditor &w) {
  return {{"email", w.email}};
}
json encoded(const SetEditorPassword &w) {
  return {{"email", w.email}, {"password_hash", w.password_hash}};
}
json encoded(const StartSession &w) {
  return {{"secret_hash", w.secret_hash},
          {"editor_id", w.editor_id},
          {"csrf", w.csrf_token},
          {"expires_at", w.expires_at}};
}
json encoded(const EndSession &w) {
  return {{"secret_hash", w.secret_hash}};
}
json encoded(const EraseSubscriber &w) {
  return {{"id", w.id}, {"editor", w.editor}};
}
json encoded(const Unsubscribe &w) {
  return {{"id", w.id}};
}

json encoded(const CastToolVote &w) {
  return with_flag_if_set({{"ballot", ballot_argument(w.ballot)},
                           {"tool", w.tool},
                           {"verdict", w.verdict ? json(verdict_word(*w.verdict)) : json(nullptr)}},
                          "batched", w.batched);
}
json encoded(const CastPairVote &w) {
  return with_flag_if_set({{"ballot", ballot_argument(w.ballot)},
                           {"a", w.a},
                           {"b", w.b},
                           {"pick", optional_number(w.pick)}},
                          "batched", w.batched);
}
json encoded(const RequestSubscription &w) {
  return {{"email", w.email}, {"now", w.now}, {"may_mail", w.may_mail}};
}
json encoded(const ConfirmSubscription &w) {
  return {{"token_hash", w.token_hash}, {"now", w.now}};
}
json encoded(const Resubscribe &w) {
  return {{"id", w.id}};
}
json encoded(const ClaimConfirmation &w) {
  return {{"subscriber", w.subscriber}, {"now", w.now}, {"lease", w.lease_seconds}};
}
json encoded(const StartConfirmation &w) {
  return {{"subscriber", w.subscriber}, {"token_hash", w.token_hash}, {"expires_at", w.expires_at}};
}
json encoded(const ConfirmationMailed &w) {
  return {{"subscriber", w.subscriber}};
}
json encoded(const ConfirmationFailed &w) {
  return {{"subscriber", w.subscriber},
          {"next", optional_number(w.next_attempt_at)},
          {"error", w.error}};
}
json encoded(const RecordDigest &w) {
  return {{"today", w.today}, {"days", w.days}};
}
json encoded(const ClaimDigestSend &w) {
  return {{"digest", w.digest}, {"subscriber", w.subscriber}};
}
json encoded(const DigestSent &w) {
  return {{"digest", w.digest}, {"subscriber", w.subscriber}};
}
json encoded(const DigestSendFailed &w) {
  return {{"digest", w.digest},
          {"subscriber", w.subscriber},
          {"failure", static_cast<int>(w.failure)},
          {"error", w.error}};
}
json encoded(const MakeCheckpoint &w) {
  return with_flag_if_set({{"now", w.now}}, "by_hand", w.by_hand);
}
json encoded(const PublishVotes &w) {
  return {{"every_seconds", w.every_seconds}};
}
// The content as its file writes it, as one text (read as `verdict import` reads a file).
json encoded(const ImportContent &w) {
  return {{"content", content_to_json(w.content)}};
}

// Each kind's arguments, read.
template <class Kind> Kind decoded(const json &a);
template <> CreateCategory decoded(const json &a) {
  return {item_in<ContentCategory>(a), text_in(a, "editor")};
}
template <> UpdateCategory decoded(const json &a) {
  return {text_in(a, "slug"), item_in<ContentCategory>(a), text_in(a, "editor")};
}
template <> DeleteCategory decoded(const json &a) {
  return {text_in(a, "slug"), text_in(a, "editor")};
}
template <> CreateTool decoded(const json &a) {
  return {item_in<ContentTool>(a), text_in(a, "editor")};
}
template <> UpdateTool decoded(const json &a) {
  return {text_in(a, "slug"), item_in<ContentTool>(a), text_in(a, "editor")};
}
template <> DeleteTool decoded(const json &a) {
  return {text_in(a, "slug"), text_in(a, "editor")};
}
template <> CreateReviewer decoded(const json &a) {
  return {item_in<ContentReviewer>(a), text_in(a, "editor")};
}
template <> UpdateReviewer decoded(const json &a) {
  return {text_in(a, "slug"), item_in<ContentReviewer>(a), text_in(a, "editor")};
}
template <> DeleteReviewer decoded(const json &a) {
  return {text_in(a, "slug"), text_in(a, "editor")};
}
template <> CreateReview decoded(const json &a) {
  return {item_in<ContentReview>(a), text_in(a, "editor")};
}
template <> UpdateReview decoded(const json &a) {
  return {text_in(a, "tool"), text_in(a, "reviewer"), item_in<ContentReview>(a),
          text_in(a, "editor")};
}
template <> DeleteReview decoded(const json &a) {
  return {text_in(a, "tool"), text_in(a, "reviewer"), text_in(a, "editor")};
}
template <> CreateComparison decoded(const json &a) {
  return {item_in<ContentComparison>(a), text_in(a, "editor")};
}
template <> UpdateComparison decoded(const json &a) {
  return {text_in(a, "pair"), item_in<ContentComparison>(a), text_in(a, "editor")};
}
template <> DeleteComparison decoded(const json &a) {
  return {text_in(a, "pair"), text_in(a, "editor")};
}

template <> AddEditor decoded(const json &a) {
  return {text_in(a, "email"), text_in(a, "password_hash")};
}
template <> RemoveEditor decoded(const json &a) {
  return {text_in(a, "email")};
}
template <> SetEditorPassword decoded(const json &a) {
  return {text_in(a, "email"), text_in(a, "password_hash")};
}
template <> StartSession decoded(const json &a) {
  return {text_in(a, "secret_hash"), number_in(a, "editor_id"), text_in(a, "csrf"),
          number_in(a, "expires_at")};
}
template <> EndSession decoded(const json &a) {
  return {text_in(a, "secret_hash")};
}
template <> EraseSubscriber decoded(const json &a) {
  return {number_in(a, "id"), text_in(a, "editor")};
}
template <> Unsubscribe decoded(const json &a) {
  return {number_in(a, "id")};
}

template <> CastToolVote decoded(const json &a) {
  std::optional<Verdict> verdict;
  if (!a.at("verdict").is_null()) {
    verdict = verdict_from_word(text_in(a, "verdict"));
    if (!verdict) throw std::invalid_argument("its verdict is not ship or skip");
  }
  return {ballot_in(a), number_in(a, "tool"), verdict, set_flag_in(a, "batched")};
}
template <> CastPairVote decoded(const json &a) {
  return {ballot_in(a), number_in(a, "a"), number_in(a, "b"), optional_number_in(a, "pick"),
          set_flag_in(a, "batched")};
}
template <> RequestSubscription decoded(const json &a) {
  return {text_in(a, "email"), number_in(a, "now"), flag_in(a, "may_mail")};
}
template <> ConfirmSubscription decoded(const json &a) {
  return {text_in(a, "token_hash"), number_in(a, "now")};
}
template <> Resubscribe decoded(const json &a) {
  return {number_in(a, "id")};
}
template <> ClaimConfirmation decoded(const json &a) {
  return {number_in(a, "subscriber"), number_in(a, "now"), number_in(a, "lease")};
}
template <> StartConfirmation decoded(const json &a) {
  return {number_in(a, "subscriber"), text_in(a, "token_hash"), number_in(a, "expires_at")};
}
template <> ConfirmationMailed decoded(const json &a) {
  return {number_in(a, "subscriber")};
}
template <> ConfirmationFailed decoded(const json &a) {
  return {number_in(a, "subscriber"), optional_number_in(a, "next"), text_in(a, "error")};
}
template <> RecordDigest decoded(const json &a) {
  return {text_in(a, "today"), static_cast<int>(number_in(a, "days"))};
}
template <> ClaimDigestSend decoded(const json &a) {
  return {number_in(a, "digest"), number_in(a, "subscriber")};
}
template <> DigestSent decoded(const json &a) {
  return {number_in(a, "digest"), number_in(a, "subscriber")};
}
template <> DigestSendFailed decoded(const json &a) {
  const auto failure = number_in(a, "failure");
  if (failure < 0 || failure > static_cast<int64_t>(SendFailure::refused_for_good))
    throw std::invalid_argument("its failure is not one this version knows");
  return {number_in(a, "digest"), number_in(a, "subscriber"), static_cast<SendFailure>(failure),
          text_in(a, "error")};
}
template <> MakeCheckpoint decoded(const json &a) {
  return {number_in(a, "now"), set_flag_in(a, "by_hand")};
}
template <> PublishVotes decoded(const json &a) {
  const auto every = number_in(a, "every_seconds");
  if (every < 0) throw std::invalid_argument("its period is less than nothing");
  return {every};
}
// Content this version's rules refuse came from a newer version's: read as one it cannot.
template <> ImportContent decoded(const json &a) {
  auto parsed = parse_content(text_in(a, "content"));
  if (!parsed.errors.empty())
    throw std::invalid_argument("its content is not valid here: " + parsed.errors[0]);
  return {std::move(parsed.content)};
}

// The alternative at `index`, read from `arguments`.
template <size_t... I>
Write decoded_at(size_t index, const json &arguments, std::index_sequence<I...>) {
  std::optional<Write> write;
  ((I == index ? (write.emplace(std::in_place_index<I>,
                                decoded<std::variant_alternative_t<I, Write>>(arguments)),
                  0)
               : 0),
   ...);
  return std::move(*write);
}

} // namespace

std::string_view kind_name(const Write &write) {
  return kKindNames[write.index()];
}

json arguments_of(const Write &write) {
  auto arguments = std::visit([](const auto &kind) { return encoded(kind); }, write);
  arguments["v"] = kVersion;
  return arguments;
}

std::optional<Write> write_from(std::string_view kind, const json &arguments) {
  size_t index = 0;
  while (index < kKindNames.size() && kKindNames[index] != kind)
    ++index;
  if (index == kKindNames.size()) return std::nullopt;
  if (!arguments.is_object()) throw std::invalid_argument("its arguments are not an object");
  try {
    if (const auto version = arguments.value("v", 1); version > kVersion)
      throw std::invalid_argument("its arguments are of version " + std::to_string(version) +
                                  ", newer than " + std::to_string(kVersion));
    return decoded_at(index, arguments, std::make_index_sequence<std::variant_size_v<Write>>());
  } catch (const json::exception &e) {
    throw std::invalid_argument(std::string("its arguments are not a ") + std::string(kind) +
                                "'s: " + e.what());
  }
}

} // namespace verdict
