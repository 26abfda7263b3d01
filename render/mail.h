// The weekly digest's mails as words: subject, plain text and HTML, from the templates in
// views/ (mail_*.mustache). Turning them into a message for SMTP is domain/mail_message.h's.
#pragma once

#include <string>
#include <vector>

#include "domain/model.h"
#include "render/views.h"

namespace verdict::mail {

struct Bodies {
  std::string subject, text, html;
};

// Asks the reader to confirm at `confirm_url`. Its body holds no unsubscribe link: link
// scanners open every link in a mail, and one that unsubscribed would kill the confirmation
// link before the reader saw it. Leaving is the List-Unsubscribe header's (a POST).
Bodies confirmation(const Views &views, const SiteCopy &site, const std::string &confirm_url);

// The comparisons published in the last `days` days, each with its verdict at a glance
// (domain/glance.h) and its address under `base_url`.
Bodies digest(const Views &views, const SiteCopy &site, const std::vector<DigestItem> &items,
              int days, const std::string &base_url, const std::string &unsubscribe_url);

} // namespace verdict::mail
