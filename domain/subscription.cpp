#include "domain/subscription.h"

#include <algorithm>
#include <charconv>

namespace verdict {

int64_t confirmation_resend_wait(int64_t sent) {
  constexpr int64_t first = 5 * 60, most = 24 * 3600;
  if (sent <= 0) return 0;
  int64_t wait = first;
  for (int64_t n = 1; n < sent && wait < most; ++n)
    wait *= 2;
  return std::min(wait, most);
}

std::optional<int> digest_days(std::string_view since) {
  if (since.size() < 2) return std::nullopt;
  const char unit = since.back();
  const auto digits = since.substr(0, since.size() - 1);
  if (unit != 'd' && unit != 'h') return std::nullopt;
  if (digits.front() == '0' || digits.size() > 4) return std::nullopt; // "07d", "00012h"
  int count = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  const int days = unit == 'd' ? count : (count + 23) / 24;
  if (days < 1 || days > 366) return std::nullopt;
  return days;
}

} // namespace verdict
