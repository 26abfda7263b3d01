// The settings file the service reads (/etc/default/verdict, systemd's EnvironmentFile=), read
// by `verdict doctor` so that it judges the install with the settings the site runs with.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace verdict {

struct SettingsFile {
  std::map<std::string, std::string> values; // VARIABLE → value; a line left blank is kept empty
  std::vector<std::string> faults;           // lines systemd would not read, by their number
};

// Reads `text` as systemd reads an EnvironmentFile: VARIABLE=VALUE lines, '#' and ';' begin a
// comment line, blank lines are skipped, a value wholly in double or single quotes loses them;
// a later line of the same variable wins.
SettingsFile read_settings_file(std::string_view text);

} // namespace verdict
