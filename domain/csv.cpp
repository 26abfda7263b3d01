#include "domain/csv.h"

#include <string_view>

namespace verdict {

std::string subscribers_csv(const std::vector<Subscriber> &subscribers) {
  const auto quoted = [](const std::string &value) {
    std::string out = "\"";
    if (!value.empty() && std::string_view("=+-@").find(value.front()) != std::string_view::npos)
      out += '\'';
    for (const char c : value)
      out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  std::string csv = "\"email\",\"subscribed_at\"\r\n";
  for (const auto &subscriber : subscribers)
    csv += quoted(subscriber.email) + "," + quoted(subscriber.subscribed_at) + "\r\n";
  return csv;
}

} // namespace verdict
