#include "app/settings_file.h"

#include <algorithm>

namespace verdict {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && is_space(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && is_space(text.back()))
    text.remove_suffix(1);
  return text;
}

bool is_variable_name(std::string_view name) {
  const auto letter = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  return !name.empty() && letter(name.front()) &&
         std::all_of(name.begin(), name.end(),
                     [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// A line quoted in a fault: its first word when that looks like a variable's name (capitals,
// digits and _), never more. The rest may be a password written without its `=`
// (`VERDICT_SMTP_PASSWORD hunter2`), or the line a password alone, and a report is shown,
// pasted and kept.
std::string redacted(std::string_view line) {
  const auto word = line.substr(0, line.find_first_of(" \t=:"));
  const bool a_name =
      !word.empty() && word.size() <= 64 && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (!a_name) return "(not shown: it may hold a secret)";
  return std::string(word) + (word.size() < line.size() ? " … (the rest not shown)" : "");
}

} // namespace

SettingsFile read_settings_file(std::string_view text) {
  SettingsFile file;
  size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = trimmed(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const auto equals = line.find('=');
    const auto name = equals == std::string_view::npos ? line : trimmed(line.substr(0, equals));
    if (equals == std::string_view::npos || !is_variable_name(name)) {
      file.faults.push_back("line " + std::to_string(number) +
                            " is not VARIABLE=VALUE: " + redacted(line));
      continue;
    }
    auto value = trimmed(line.substr(equals + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    file.values[std::string(name)] = std::string(value);
  }
  return file;
}

} // namespace verdict
