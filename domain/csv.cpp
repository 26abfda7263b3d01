#include "domain/csv.h"

#include <string_view>

namespace verdict {

void append_csv_field(std::string &out, std::string_view value) {
  out += '"';
  if (!value.empty() && std::string_view("=+-@").find(value.front()) != std::string_view::npos)
    out += '\'';
  for (size_t quote; (quote = value.find('"')) != std::string_view::npos;) {
    out.append(value.substr(0, quote + 1)).append(1, '"'); // a quote is written twice
    value.remove_prefix(quote + 1);
  }
  out.append(value);
  out += '"';
}

std::string csv_field(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 3);
  append_csv_field(out, value);
  return out;
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
