// The server's sender of confirmation mails. A sign-up only records that a mail is owed
// (Store::request_subscription, in the same transaction as the sign-up) and wakes this
// thread, so no HTTP answer ever waits for an SMTP server. The thread sends what is owed;
// a mail the server refused or could not take is tried again later (1, 2, 4… minutes, at most
// an hour apart), so a sign-up acknowledged while the SMTP server was down still gets its
// mail once it is back. One refused for good (5xx) or too often is given up
// (domain/subscription.h). A mail that cannot even be composed is a failure like any other:
// it waits its turn again and never holds up the mails behind it.
//
// A mail whose outcome is unknown (the server never answered after taking all of it) is tried
// again too, unlike a digest: a second confirmation mail only replaces the first one's link,
// while a lost one would leave the reader waiting for a mail that never comes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "app/subscriber_mail.h"
#include "render/views.h"
#include "store/site_writes.h"
#include "store/store.h"

namespace verdict {

class ConfirmationMailer {
public:
  // Starts the thread, which sends whatever was owed before this start too. `clock`: the
  // site's, the one its writes take their time from.
  // Its writes go through `writes` (a cluster's, on a node: store/site_writes.h), so however
  // many servers send, each mail due goes out once.
  ConfirmationMailer(Store &store, SiteWrites &writes, const Views &views, MailSetup setup,
                     std::string unsubscribe_key, Clock clock);
  ~ConfirmationMailer(); // stops the thread, abandoning a send in hand within about a second
  ConfirmationMailer(const ConfirmationMailer &) = delete;
  ConfirmationMailer &operator=(const ConfirmationMailer &) = delete;

  // A mail was queued: send it now rather than at the next look.
  void wake();

  // Seconds between a failed try and the next after `attempts` failures: 60 × 2^(attempts−1),
  // at most an hour.
  static int64_t retry_delay(int64_t attempts);

private:
  void run();
  void send_due(SmtpClient &smtp);
  // The mail for `due` with a link for `token`; throws when it cannot be made.
  std::string compose(const ConfirmationDue &due, const std::string &token, int64_t now);

  Store &store_;
  SiteWrites &writes_;
  const Views &views_;
  MailSetup setup_;
  std::string unsubscribe_key_;
  Clock clock_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool woken_ = false;
  std::atomic<bool> stopping_{false}; // read by a send in progress, without the mutex
  std::thread thread_;
};

} // namespace verdict
