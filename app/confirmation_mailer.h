// The server's sender of confirmation mails. A sign-up only records that a mail is owed
// (Store::request_subscription, in the same transaction as the sign-up) and wakes this
// thread, so no HTTP answer ever waits for an SMTP server. The thread sends what is owed;
// a mail the server refused or could not take is tried again later (1, 2, 4… minutes, at most
// an hour apart), so a sign-up acknowledged while the SMTP server was down still gets its
// mail once it is back.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "app/subscriber_mail.h"
#include "render/views.h"
#include "store/store.h"

namespace verdict {

class ConfirmationMailer {
public:
  // Starts the thread, which sends whatever was owed before this start too. `clock` gives
  // seconds since 1970.
  ConfirmationMailer(Store &store, const Views &views, MailSetup setup, std::string unsubscribe_key,
                     std::function<int64_t()> clock);
  ~ConfirmationMailer(); // stops the thread after the mail in hand
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

  Store &store_;
  const Views &views_;
  MailSetup setup_;
  std::string unsubscribe_key_;
  std::function<int64_t()> clock_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool woken_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace verdict
