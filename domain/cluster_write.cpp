#include "domain/cluster_write.h"

#include <nlohmann/json.hpp>

namespace verdict {

std::string encoded(const ClusterWrite &write) {
  const nlohmann::ordered_json json = {{"id", write.id},
                                       {"kind", write.kind},
                                       {"taken_at_ms", write.taken_at_ms},
                                       {"today", write.today},
                                       {"arguments", write.arguments}};
  return json.dump();
}

std::optional<ClusterWrite> decoded_cluster_write(std::string_view payload) {
  const auto json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object()) return std::nullopt;
  const auto text = [&json](const char *key) -> std::optional<std::string> {
    const auto found = json.find(key);
    if (found == json.end() || !found->is_string()) return std::nullopt;
    return found->get<std::string>();
  };
  const auto id = text("id"), kind = text("kind"), today = text("today"),
             arguments = text("arguments");
  const auto at = json.find("taken_at_ms");
  if (!id || !kind || !today || !arguments || at == json.end() || !at->is_number_integer())
    return std::nullopt;
  return ClusterWrite{*id, *kind, at->get<int64_t>(), *today, *arguments};
}

} // namespace verdict
