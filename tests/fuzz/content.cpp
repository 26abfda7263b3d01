// libFuzzer target over the content file format (`verdict import`, the bundled content):
// parse_content must never crash on any bytes, and content it accepts must survive a trip
// through content_to_json unchanged and still be accepted.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "domain/content.h"

using namespace verdict;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  const auto parsed = parse_content(input);
  if (!parsed.errors.empty()) return 0;
  const auto json = content_to_json(parsed.content);
  const auto again = parse_content(json);
  if (!again.errors.empty()) std::abort();
  if (content_to_json(again.content) != json) std::abort();
  return 0;
}
