#include "app/digest_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/command_writes.h"
#include "app/init_command.h"
#include "app/subscriber_mail.h"
#include "auth/secrets.h"
#include "domain/clock.h"
#include "domain/numbers.h"
#include "domain/subscription.h"
#include "mail/smtp.h"
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
    throw std::runtime_error("no database at " + options.db + ": " + how_to_make_a_site(options));
  CommandWrites opened(options, "digest");
  auto &store = opened.store();
  auto &writes = opened.writes();
  const Views views;
  const auto setup = setup_of(options);
  // The server's key, so the links work there (made here if no server has run yet).
  const auto key = opened.keys().site_secret("unsubscribe", auth::random_secret());
  const auto site = store.site_copy();
  const bool dry_run = !options.dry_run_dir.empty();

  // Which digest this run sends, the rule store/digests.cpp states: the latest one while
  // anyone confirmed is still owed it, as it was made; else a new one of what no digest held.
  // A real run records it first (on a cluster, whichever node's run comes first makes it), then
  // reads it back as this file holds it: the digest owed. It resumes an earlier run's only if
  // one was owed before this run recorded.
  const auto today = utc_date_at(opened.clock().now_ms());
  const bool resumes = store.digest_to_send(today, options.since_days).resumed;
  if (!dry_run) writes.submit_or_throw(RecordDigest{today, options.since_days});
  auto digest = store.digest_to_send(today, options.since_days);
  digest.resumed = digest.resumed && resumes;
  const auto &recipients = digest.recipients;
  const auto comparisons =
      count_phrase(static_cast<int64_t>(digest.items.size()), "comparison", "comparisons");
  const auto subscribers =
      count_phrase(static_cast<int64_t>(recipients.size()), "subscriber", "subscribers");
  if (digest.items.empty()) {
    out << "Nothing new was published in the last "
        << count_phrase(options.since_days, "day", "days")
        << " (a comparison goes out in one digest only); no digest was sent.\n";
    return 0;
  }
  if (digest.id == 0 && recipients.empty()) {
    out << "Nobody has confirmed a subscription yet; no digest was made.\n";
    return 0;
  }
  if (digest.resumed)
    out << "Digest " << digest.id << " (" << comparisons << ") was made by an earlier run that "
        << "did not finish: it goes, as it was made, to the " << subscribers
        << " still owed it. A new digest is made once nobody is owed this one.\n";
  else
    out << (dry_run ? std::string("A new digest") : "Digest " + std::to_string(digest.id)) << ": "
        << comparisons << " from the last " << count_phrase(digest.days, "day", "days") << ", for "
        << subscribers << ".\n";
  if (digest.interrupted > 0)
    out << count_phrase(digest.interrupted, "send", "sends")
        << " of this digest stopped midway in an earlier run; whether they arrived is unknown, "
           "so they are not sent again.\n";
  if (recipients.empty()) {
    out << "Every confirmed subscriber has this digest already; nothing to send.\n";
    return 0;
  }

  const auto mail_for = [&](const Subscriber &subscriber) {
    const auto bodies = mail::digest(views, site, digest.items, digest.days, setup.base_url,
                                     unsubscribe_url(setup, key, subscriber));
    return compose_mail(mail_to(setup, site, key, subscriber, bodies, opened.clock().now()));
  };

  if (dry_run) {
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
  size_t done = 0, sent = 0, failed = 0, unknown = 0, skipped = 0;
  int in_a_row = 0;
  std::string last_failure, last_unknown;
  for (const auto &subscriber : recipients) {
    if (in_a_row == kFailuresInARow) break;
    ++done;
    // Made before the send is claimed: a mail that cannot be made leaves the send owed, and
    // the run goes on to the next address.
    std::string message;
    try {
      message = mail_for(subscriber);
    } catch (const std::exception &e) {
      last_failure = std::string("the mail could not be made: ") + e.what();
      writes.submit_or_throw(
          DigestSendFailed{digest.id, subscriber.id, SendFailure::refused, last_failure});
      ++failed;
      ++in_a_row;
      shown.show(done, sent, failed + unknown);
      continue;
    }
    // Claimed before it goes out: a run that dies now leaves a claim, never a second mail.
    if (!writes.submit_or_throw(ClaimDigestSend{digest.id, subscriber.id})) {
      ++skipped; // unsubscribed since, or another run has it
      shown.show(done, sent, failed + unknown);
      continue;
    }
    const auto result = smtp.send(setup.from, subscriber.email, message);
    switch (result.outcome) {
    case SmtpOutcome::accepted:
      writes.submit_or_throw(DigestSent{digest.id, subscriber.id});
      ++sent;
      in_a_row = 0;
      break;
    case SmtpOutcome::refused: // certainly not delivered: owed again, or given up
      writes.submit_or_throw(DigestSendFailed{digest.id, subscriber.id,
                                              result.refused_for_good()
                                                  ? SendFailure::refused_for_good
                                              : result.unreached() ? SendFailure::unreached
                                                                   : SendFailure::refused,
                                              result.error});
      last_failure = result.error;
      ++failed;
      ++in_a_row;
      break;
    case SmtpOutcome::unknown: // it may have arrived: the claim stays, so it is never resent
      last_unknown = result.error;
      ++unknown;
      ++in_a_row;
      break;
    }
    shown.show(done, sent, failed + unknown);
  }
  const auto not_tried = recipients.size() - done;
  out << "Sent " << sent << " of " << recipients.size() << ".";
  if (skipped > 0) out << " " << skipped << " left the list or were sent by another run meanwhile.";
  out << "\n";
  if (unknown > 0)
    out << count_phrase(static_cast<int64_t>(unknown), "send", "sends")
        << " went out whole but the server never said whether it took them (last: " << last_unknown
        << "); each may have arrived, so none of them is sent again.\n";
  if (not_tried > 0)
    out << "Stopped after " << kFailuresInARow << " failures in a row; " << not_tried
        << " not tried.\n";
  if (failed > 0)
    out << count_phrase(static_cast<int64_t>(failed), "send", "sends")
        << " failed (last: " << last_failure << "). Run the same command again to send to them; "
        << "nobody gets this digest twice. A send refused for good (5xx), or "
        << kDigestSendAttempts << " times, is not tried again.\n";
  else if (not_tried > 0)
    out << "Run the same command again to send to them; nobody gets this digest twice.\n";
  return failed + unknown > 0 ? 1 : 0;
}

} // namespace verdict
