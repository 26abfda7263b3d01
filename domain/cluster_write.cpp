#include "domain/cluster_write.h"

#include <nlohmann/json.hpp>

namespace verdict {

namespace {

nlohmann::json as_json(const ClusterWrite &write) {
  return {{"id", write.id},
          {"kind", write.kind},
          {"taken_at_ms", write.taken_at_ms},
          {"today", write.today},
          {"arguments", write.arguments}};
}

// Moves the arguments out of `json`.
std::optional<ClusterWrite> write_of(nlohmann::json &json) {
  if (!json.is_object()) return std::nullopt;
  const auto text = [&json](const char *key) -> std::optional<std::string> {
    const auto found = json.find(key);
    if (found == json.end() || !found->is_string()) return std::nullopt;
    return found->get<std::string>();
  };
  const auto id = text("id"), kind = text("kind"), today = text("today");
  const auto at = json.find("taken_at_ms");
  const auto arguments = json.find("arguments");
  if (!id || !kind || !today || at == json.end() || !at->is_number_integer() ||
      arguments == json.end())
    return std::nullopt;
  // An older entry's arguments are a JSON text of their own.
  auto nested =
      arguments->is_string()
          ? nlohmann::json::parse(arguments->get_ref<const std::string &>(), nullptr, false)
          : std::move(*arguments);
  if (!nested.is_object()) return std::nullopt;
  return ClusterWrite{*id, *kind, at->get<int64_t>(), *today, std::move(nested)};
}

} // namespace

std::string encoded(const ClusterWrite &write) {
  return as_json(write).dump();
}

std::string encoded_together(const std::vector<ClusterWrite> &writes) {
  auto together = nlohmann::json::array();
  for (const auto &write : writes)
    together.push_back(as_json(write));
  return nlohmann::json{{"together", std::move(together)}}.dump();
}

std::optional<std::vector<ClusterWrite>> decoded_cluster_writes(std::string_view payload) {
  auto json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object()) return std::nullopt;
  const auto together = json.find("together");
  if (together == json.end()) {
    auto write = write_of(json);
    if (!write) return std::nullopt;
    return std::vector<ClusterWrite>{std::move(*write)};
  }
  if (!together->is_array() || together->empty() || json.size() != 1) return std::nullopt;
  std::vector<ClusterWrite> writes;
  for (auto &each : *together) {
    auto write = write_of(each);
    if (!write) return std::nullopt;
    writes.push_back(std::move(*write));
  }
  return writes;
}

} // namespace verdict
