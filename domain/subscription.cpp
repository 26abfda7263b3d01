#include "domain/subscription.h"

#include <algorithm>
#include <charconv>

#include "domain/dates.h"
#include "domain/text.h"

namespace verdict {

int64_t confirmation_resend_wait(int64_t sent) {
  constexpr int64_t first = 5 * 60, most = 24 * 3600;
  if (sent <= 0) return 0;
  int64_t wait = first;
  for (int64_t n = 1; n < sent && wait < most; ++n)
    wait *= 2;
  return std::min(wait, most);
}

std::string mailbox_of(std::string_view email) {
  const auto at = email.rfind('@');
  if (at == std::string_view::npos) return ascii_lowercase(email);
  auto local = ascii_lowercase(email.substr(0, at));
  const auto domain = mailbox_domain_of(email);
  // A local part that starts with "+" is all name, no tag.
  if (const auto plus = local.find('+'); plus != std::string::npos && plus > 0) local.erase(plus);
  if (domain == "gmail.com") std::erase(local, '.');
  return local + "@" + domain;
}

std::string mailbox_domain_of(std::string_view email) {
  const auto at = email.rfind('@');
  auto domain = ascii_lowercase(at == std::string_view::npos ? "" : email.substr(at + 1));
  return domain == "googlemail.com" ? "gmail.com" : domain;
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

std::string senders_share_used_text(std::string_view domain, int64_t now, int64_t room_at) {
  const auto share = domain.empty()
                         ? "sign-ups from your network have had their share of confirmation "
                           "mail for the hour (" +
                               std::to_string(kConfirmationMailsPerNetwork) + " an hour)"
                         : "sign-ups from your network to addresses at " + std::string(domain) +
                               " have had their share of confirmation mail for the hour (" +
                               std::to_string(kConfirmationMailsPerDomainPerNetwork) + " an hour)";
  const auto minutes = std::max<int64_t>(1, (room_at - now + 59) / 60);
  return "No confirmation mail went out, and the address was not kept: " + share +
         ". Please try again after " + utc_time_of(room_at) + " (in " + std::to_string(minutes) +
         (minutes == 1 ? " minute)." : " minutes).");
}

} // namespace verdict
