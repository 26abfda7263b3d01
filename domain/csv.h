// The subscriber list as a spreadsheet opens it (RFC 4180 CSV, with a header line), for the
// desk's export and `verdict subscribers export`: email, subscribed_at, status.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/model.h"

namespace verdict {

// One field quoted (RFC 4180); text a spreadsheet would take for a formula (=, +, -, @) is led
// by an apostrophe, so opening the file never runs one.
std::string csv_field(std::string_view value);
// The same field appended to `out`, for a file of many rows.
void append_csv_field(std::string &out, std::string_view value);

// Every field quoted (csv_field); a field a spreadsheet would take for a formula (=, +, -, @) is
// led by an apostrophe, so opening the file never runs one.
std::string subscribers_csv(const std::vector<Subscriber> &subscribers);

} // namespace verdict
