#include "domain/cluster_write.h"

#include <nlohmann/json.hpp>

namespace verdict {

namespace {

constexpr const char *kToolVote = "tool_vote";

} // namespace

std::string encoded(const ToolVoteWrite &write) {
  nlohmann::ordered_json json = {
      {"kind", kToolVote},           {"tool", write.tool},
      {"voter", write.ballot.voter}, {"network", write.ballot.network},
      {"day", write.ballot.day},     {"seconds_on_page", write.ballot.seconds_on_page}};
  json["verdict"] = write.verdict ? nlohmann::ordered_json(verdict_word(*write.verdict))
                                  : nlohmann::ordered_json(nullptr);
  return json.dump();
}

std::optional<ToolVoteWrite> decoded_tool_vote(std::string_view payload) {
  const auto json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object() || json.value("kind", "") != kToolVote) return std::nullopt;
  const auto text = [&json](const char *key) -> std::optional<std::string> {
    const auto found = json.find(key);
    if (found == json.end() || !found->is_string()) return std::nullopt;
    return found->get<std::string>();
  };
  const auto tool = text("tool"), voter = text("voter"), network = text("network"),
             day = text("day");
  const auto seconds = json.find("seconds_on_page");
  const auto verdict = json.find("verdict");
  if (!tool || !voter || !network || !day || seconds == json.end() ||
      !seconds->is_number_integer() || verdict == json.end())
    return std::nullopt;
  ToolVoteWrite write{{*voter, *network, *day, seconds->get<int64_t>()}, *tool, std::nullopt};
  if (!verdict->is_null()) {
    if (!verdict->is_string()) return std::nullopt;
    write.verdict = verdict_from_word(verdict->get<std::string>());
    if (!write.verdict) return std::nullopt;
  }
  return write;
}

} // namespace verdict
