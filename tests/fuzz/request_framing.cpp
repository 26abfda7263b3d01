// libFuzzer target over transport/request_framing: whatever bytes a client sends, framing
// never crashes, and what it calls a whole request lies inside the bytes that arrived, with
// the head handed to httplib still one request head (one blank line, at its end) that reads as
// the same coding; a refusal always carries a 4xx/5xx status and a reason.
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
    if (framing.body_length > FramingLimits{}.largest_body()) std::abort();
    {
      const auto head = head_for_parser(input.substr(framing.skip, framing.head_length), framing);
      if (!head.ends_with("\r\n\r\n") || head.find("\r\n\r\n") + 4 != head.size()) std::abort();
      // httplib must read the coding the framer chose: framed again, the head it is handed
      // names that coding and nothing else.
      FramingLimits roomier;
      roomier.max_head += 64;
      const auto again = frame_request(head, roomier);
      if (again.kind == Framing::Kind::refused || again.coding != framing.coding) std::abort();
    }
    break;
  case Framing::Kind::refused:
    if (framing.status < 400 || framing.status > 599 || framing.reason.empty()) std::abort();
    break;
  case Framing::Kind::incomplete:
    break;
  }
  return 0;
}
