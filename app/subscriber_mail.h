// What the server's confirmation mails and `verdict digest` share: how the site sends mail
// (from the command line's flags and environment), and a mail to one subscriber with its
// List-Unsubscribe headers, its id and its date.
#pragma once

#include <cstdint>
#include <string>

#include "domain/mail_message.h"
#include "domain/model.h"
#include "mail/smtp.h"
#include "render/mail.h"

namespace verdict {

struct MailSetup {
  SmtpSettings smtp;              // no url: no mail can be sent
  std::string from;               // the address mails come from
  std::string base_url;           // every link in a mail is absolute under it
  std::string unsubscribe_mailto; // the address List-Unsubscribe's mailto: names; empty: `from`
};

// The link that unsubscribes `subscriber` in one request (and takes RFC 8058's POST).
std::string unsubscribe_url(const MailSetup &setup, const std::string &unsubscribe_key,
                            const Subscriber &subscriber);

// `bodies` as a mail from the site to `subscriber` at `now` (seconds since 1970): From the
// site's name and address, a fresh Message-ID, List-Unsubscribe by https and by mailto with
// the subscriber's token in the subject, and List-Unsubscribe-Post.
MailMessage mail_to(const MailSetup &setup, const SiteCopy &site,
                    const std::string &unsubscribe_key, const Subscriber &subscriber,
                    const mail::Bodies &bodies, int64_t now);

} // namespace verdict
