#include "app/subscriber_mail.h"

#include "auth/mail_tokens.h"
#include "auth/secrets.h"

namespace verdict {

std::string unsubscribe_url(const MailSetup &setup, const std::string &unsubscribe_key,
                            const Subscriber &subscriber) {
  return setup.base_url + "/unsubscribe/" +
         auth::unsubscribe_token(unsubscribe_key, subscriber.id, subscriber.email);
}

MailMessage mail_to(const MailSetup &setup, const SiteCopy &site,
                    const std::string &unsubscribe_key, const Subscriber &subscriber,
                    const mail::Bodies &bodies, int64_t now) {
  MailMessage message;
  message.from_name = site.site_name;
  message.from_address = setup.from;
  message.to_address = subscriber.email;
  message.subject = bodies.subject;
  message.date = now;
  const auto at = setup.from.find('@');
  message.message_id =
      auth::random_secret(16) + (at == std::string::npos ? "@verdict" : setup.from.substr(at));
  message.text = bodies.text;
  message.html = bodies.html;
  message.unsubscribe_url = unsubscribe_url(setup, unsubscribe_key, subscriber);
  const auto &mailbox = setup.unsubscribe_mailto.empty() ? setup.from : setup.unsubscribe_mailto;
  // The token in the subject is what whoever reads that mailbox acts on; it is hex and
  // digits, so it needs no escaping in the URI.
  message.unsubscribe_mailto =
      "mailto:" + mailbox + "?subject=unsubscribe%20" +
      auth::unsubscribe_token(unsubscribe_key, subscriber.id, subscriber.email);
  return message;
}

} // namespace verdict
