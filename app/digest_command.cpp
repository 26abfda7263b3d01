#include "app/digest_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/subscriber_mail.h"
#include "auth/secrets.h"
#include "domain/numbers.h"
#include "domain/subscription.h"
#include "handlers/responses.h"
#include "render/views.h"
#include "store/store.h"

namespace verdict {

namespace {

// A server that refuses this many in a row is down or refusing us: stop rather than fail
// every remaining address, and let the next run send to them.
constexpr int kFailuresInARow = 5;

class Progress {
public:
  Progress(std::ostream &out, bool terminal, size_t total)
      : out_(out), terminal_(terminal), total_(total), step_(std::max<size_t>(1, total / 10)) {}
  // `done` addresses of the total were dealt with: `sent` of them sent, `failed` refused.
  void show(size_t done, size_t sent, size_t failed) {
    const bool last = done == total_;
    if (!terminal_ && !last && done % step_ != 0) return;
    out_ << (terminal_ ? "\r" : "") << "sent " << sent << "/" << total_;
    if (failed > 0) out_ << " (" << failed << " failed)";
    out_ << (terminal_ && !last ? "" : "\n") << std::flush;
  }

private:
  std::ostream &out_;
  bool terminal_;
  size_t total_, step_;
};

MailSetup setup_of(const Options &options) {
  return {{options.smtp_url, options.smtp_starttls, options.smtp_user, options.smtp_password},
          options.mail_from,
          options.base_url,
          options.unsubscribe_mailto};
}

} // namespace

int run_digest(const Options &options, std::ostream &out, std::ostream &progress,
               bool progress_is_terminal) {
  if (!std::filesystem::exists(options.db))
    throw std::runtime_error("no database at " + options.db);
  Store store(options.db);
  const Views views;
  const auto setup = setup_of(options);
  // The server's key, so the links work there (made here if no server has run yet).
  const auto key = store.site_secret("unsubscribe", auth::random_secret());
  const auto site = store.site_copy();
  const auto days = count_phrase(options.since_days, "day", "days");

  const auto items = store.digest_items(utc_today(), options.since_days);
  if (items.empty()) {
    out << "Nothing was published in the last " << days << "; no digest was sent.\n";
    return 0;
  }
  std::vector<int64_t> ids;
  for (const auto &item : items)
    ids.push_back(item.id);
  const auto digest = digest_identity(ids);
  const auto recipients = store.digest_recipients(digest);
  out << "Digest " << digest << ": "
      << count_phrase(static_cast<int64_t>(items.size()), "comparison", "comparisons")
      << " from the last " << days << ".\n";
  if (const auto interrupted = store.digest_sends_interrupted(digest); interrupted > 0)
    out << count_phrase(interrupted, "send", "sends")
        << " of this digest stopped midway in an earlier run; whether they arrived is unknown, "
           "so they are not sent again.\n";
  if (recipients.empty()) {
    out << "Every confirmed subscriber has this digest already; nothing to send.\n";
    return 0;
  }

  const auto mail_for = [&](const Subscriber &subscriber) {
    const auto bodies = mail::digest(views, site, items, options.since_days, setup.base_url,
                                     unsubscribe_url(setup, key, subscriber));
    return compose_mail(mail_to(setup, site, key, subscriber, bodies, unix_now()));
  };

  if (!options.dry_run_dir.empty()) {
    std::filesystem::create_directories(options.dry_run_dir);
    for (const auto &subscriber : recipients) {
      const auto path = std::filesystem::path(options.dry_run_dir) /
                        ("digest-" + std::to_string(subscriber.id) + ".eml");
      std::ofstream file(path, std::ios::binary | std::ios::trunc);
      file << mail_for(subscriber);
      if (!file.flush()) throw std::runtime_error("cannot write " + path.string());
    }
    out << "Dry run: wrote "
        << count_phrase(static_cast<int64_t>(recipients.size()), "mail", "mails") << " to "
        << options.dry_run_dir << "; nothing was sent or recorded.\n";
    return 0;
  }

  SmtpClient smtp(setup.smtp);
  Progress shown(progress, progress_is_terminal, recipients.size());
  size_t done = 0, failed = 0, skipped = 0;
  int in_a_row = 0;
  std::string last_error;
  for (const auto &subscriber : recipients) {
    // Claimed before it goes out: a run that dies now leaves a claim, never a second mail.
    if (!store.claim_digest_send(digest, subscriber.id)) {
      ++skipped; // unsubscribed since, or another run has it
      ++done;
      shown.show(done, done - skipped - failed, failed);
      continue;
    }
    const auto result = smtp.send(setup.from, subscriber.email, mail_for(subscriber));
    ++done;
    if (result.sent) {
      store.digest_sent(digest, subscriber.id);
      in_a_row = 0;
    } else {
      store.digest_send_failed(digest, subscriber.id);
      ++failed;
      last_error = result.error;
      if (++in_a_row == kFailuresInARow) break;
    }
    shown.show(done, done - skipped - failed, failed);
  }
  const auto sent = done - skipped - failed;
  const auto not_tried = recipients.size() - done;
  out << "Sent " << sent << " of " << recipients.size() << ".";
  if (skipped > 0) out << " " << skipped << " left the list or were sent by another run meanwhile.";
  out << "\n";
  if (failed == 0) return 0;
  out << count_phrase(static_cast<int64_t>(failed), "send", "sends")
      << " failed (last: " << last_error << ")";
  if (not_tried > 0)
    out << "; stopped after " << kFailuresInARow << " failures in a row, " << not_tried
        << " not tried";
  out << ". Run the same command again to send to them; nobody gets this digest twice.\n";
  return 1;
}

} // namespace verdict
