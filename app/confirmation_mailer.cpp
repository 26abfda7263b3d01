#include "app/confirmation_mailer.h"

#include <algorithm>
#include <iostream>

#include "auth/secrets.h"
#include "domain/subscription.h"

namespace verdict {

namespace {

// How often the thread looks for mails whose retry time has come, when nothing wakes it.
constexpr auto kLookEvery = std::chrono::seconds(15);
// Mails sent per look; the rest wait for the next.
constexpr int64_t kBatch = 50;
// How long a mail claimed is left to the mailer that claimed it before it is due again.
constexpr int64_t kClaimSeconds = 600;

} // namespace

ConfirmationMailer::ConfirmationMailer(Store &store, SiteWrites &writes, const Views &views,
                                       MailSetup setup, std::string unsubscribe_key, Clock clock)
    : store_(store), writes_(writes), views_(views), setup_(std::move(setup)),
      unsubscribe_key_(std::move(unsubscribe_key)), clock_(std::move(clock)) {
  thread_ = std::thread([this] { run(); });
}

ConfirmationMailer::~ConfirmationMailer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void ConfirmationMailer::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_one();
}

int64_t ConfirmationMailer::retry_delay(int64_t attempts) {
  int64_t delay = 60;
  for (int64_t n = 1; n < attempts && delay < 3600; ++n)
    delay *= 2;
  return std::min<int64_t>(delay, 3600);
}

void ConfirmationMailer::run() {
  SmtpClient smtp(setup_.smtp, [this] { return stopping_.load(); });
  for (;;) {
    try {
      send_due(smtp);
    } catch (const std::exception &e) {
      // The database refused (a file replaced underneath, say): the mail stays owed.
      std::cerr << "verdict: confirmation mails: " << e.what() << "\n";
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, kLookEvery, [this] { return stopping_ || woken_; });
    if (stopping_) return;
    woken_ = false;
  }
}

std::string ConfirmationMailer::compose(const ConfirmationDue &due, const std::string &token,
                                        int64_t now) {
  const Subscriber subscriber{due.subscriber_id, due.email, "", "pending", ""};
  const auto site = store_.site_copy();
  const auto bodies = mail::confirmation(views_, site, setup_.base_url + "/confirm/" + token);
  return compose_mail(mail_to(setup_, site, unsubscribe_key_, subscriber, bodies, now));
}

void ConfirmationMailer::send_due(SmtpClient &smtp) {
  for (const auto &due : store_.confirmations_due(clock_.now(), kBatch)) {
    if (stopping_) return;
    const auto now = clock_.now();
    if (!writes_.submit_or_throw(ClaimConfirmation{due.subscriber_id, kClaimSeconds}))
      continue; // another server's mailer has it
    const auto failed = [&](const std::string &error, bool for_good) {
      const bool give_up = for_good || due.attempts + 1 >= kConfirmationAttempts;
      std::cerr << "verdict: a confirmation mail could not be sent (" << error << "); "
                << (give_up ? "given up\n" : "trying again later\n");
      writes_.submit_or_throw(ConfirmationFailed{
          due.subscriber_id,
          give_up ? std::optional<int64_t>() : std::optional(now + retry_delay(due.attempts + 1)),
          error});
    };
    // A token of its own for this mail; only its hash is kept. It replaces any earlier
    // link, so only the newest mail's link confirms. The mail is made before the link is
    // kept: one that cannot be made changes nothing and waits its turn again.
    const auto token = auth::random_secret();
    std::string message;
    try {
      message = compose(due, token, now);
    } catch (const std::exception &e) {
      failed(std::string("the mail could not be made: ") + e.what(), false);
      continue;
    }
    if (!writes_.submit_or_throw(StartConfirmation{due.subscriber_id, auth::secret_hash(token),
                                                   now + kConfirmationLifetimeSeconds}))
      continue; // confirmed or gone meanwhile
    const auto result = smtp.send(setup_.from, due.email, message);
    if (result.sent()) {
      writes_.submit_or_throw(ConfirmationMailed{due.subscriber_id});
      continue;
    }
    failed(result.error, result.refused_for_good());
  }
}

} // namespace verdict
