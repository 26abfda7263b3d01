#include "domain/csv.h"

#include <string_view>

namespace verdict {

std::string csv_field(std::string_view value) {
  std::string out = "\"";
  if (!value.empty() && std::string_view("=+-@").find(value.front()) != std::string_view::npos)
    out += '\'';
  for (const char c : value)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string subscribers_csv(const std::vector<Subscriber> &subscribers) {
  // status last, so a sheet made from the older two columns reads the same
  std::string csv = "\"email\",\"subscribed_at\",\"status\"\r\n";
  for (const auto &subscriber : subscribers)
    csv += csv_field(subscriber.email) + "," + csv_field(subscriber.subscribed_at) + "," +
           csv_field(subscriber.status) + "\r\n";
  return csv;
}

} // namespace verdict
