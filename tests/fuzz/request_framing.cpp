// libFuzzer target over transport/request_framing: whatever bytes a client sends, framing
// never crashes, and what it calls a whole request lies inside the bytes that arrived, with
// its dropped lines inside its head; a refusal always carries a 4xx/5xx status and a reason.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "transport/request_framing.h"

using namespace verdict::transport;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  const auto framing = frame_request(input);
  switch (framing.kind) {
  case Framing::Kind::complete:
    if (framing.skip + framing.head_length + framing.body_length > input.size()) std::abort();
    if (framing.body_length > FramingLimits{}.max_body) std::abort();
    for (const auto &[offset, length] : framing.dropped_lines)
      if (offset + length > framing.head_length) std::abort();
    break;
  case Framing::Kind::refused:
    if (framing.status < 400 || framing.status > 599 || framing.reason.empty()) std::abort();
    break;
  case Framing::Kind::incomplete:
    break;
  }
  return 0;
}
