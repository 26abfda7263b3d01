// Every write the site's pages and the desk make, as one interface: a lone server's goes
// straight to its store (StoreWrites); a cluster node's goes through the cluster's stream of
// writes first and is applied from it on every node (app/cluster_writes.h). Handlers write
// only through this, so which of the two a site runs is decided once, where it starts.
// Each write means what the Store method of its name says (store/store.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domain/content.h"
#include "domain/model.h"
#include "domain/writes.h"
#include "store/store.h"

namespace verdict {

// Begins the failure a write's `done` hears when what follows is written for the reader (why
// the site cannot take writes now), to be shown as it is rather than a general apology.
inline constexpr std::string_view kForTheReader = "for the reader: ";

class SiteWrites {
public:
  virtual ~SiteWrites() = default;

  // A reader's votes, queued: `done` hears once the vote is durable, or why it was not taken.
  virtual void cast_tool_vote(const Ballot &ballot, int64_t tool_id, std::optional<Verdict> verdict,
                              WriteDone done) = 0;
  virtual void cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id,
                              std::optional<int64_t> pick, WriteDone done) = 0;

  // A write as a value (domain/writes.h): how it ended. Applied at once on a lone server; on a
  // cluster node, published to the stream and applied from it on every node.
  virtual WriteResult submit(const Write &write) = 0;

  // The digest's sign-ups.
  virtual SubscriptionRequest request_subscription(std::string_view email, int64_t now,
                                                   const std::function<bool()> &may_mail) = 0;
  virtual ConfirmationCheck confirm_subscription(std::string_view token_hash, int64_t now) = 0;
  virtual Resubscription resubscribe(int64_t id) = 0;

  // Confirmation mails, as the mailer sends them (app/confirmation_mailer.h).
  virtual bool claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds) = 0;
  virtual bool start_confirmation(int64_t subscriber_id, std::string_view token_hash,
                                  int64_t expires_at) = 0;
  virtual void confirmation_mailed(int64_t subscriber_id) = 0;
  virtual void confirmation_failed(int64_t subscriber_id, std::optional<int64_t> next_attempt_at,
                                   std::string_view error) = 0;

  // A run of the weekly digest: the digest it sends, recorded (Store::digest_to_send), and
  // each send's claim before it goes out and its end.
  virtual Digest record_digest(std::string_view today, int days) = 0;
  virtual bool claim_digest_send(int64_t digest_id, int64_t subscriber_id) = 0;
  virtual void digest_sent(int64_t digest_id, int64_t subscriber_id) = 0;
  virtual void digest_send_failed(int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                                  std::string_view error) = 0;

  // A checkpoint of the vote log, signed with the site's key, made at `now` (seconds).
  virtual void make_checkpoint(int64_t now) = 0;
  // Content as a file (`verdict import`).
  virtual ImportSummary import_content(const Content &content) = 0;
  // The site's secrets (store/store.h site_secret), and the vote log's signing key.
  virtual std::string site_secret(std::string_view name, std::string_view if_new) = 0;
  virtual std::string log_signing_key() = 0;
};

// A lone server's writes: its store's own.
class StoreWrites : public SiteWrites {
public:
  explicit StoreWrites(Store &store) : store_(store) {}

  void cast_tool_vote(const Ballot &ballot, int64_t tool_id, std::optional<Verdict> verdict,
                      WriteDone done) override;
  void cast_pair_vote(const Ballot &ballot, int64_t a_id, int64_t b_id, std::optional<int64_t> pick,
                      WriteDone done) override;
  WriteResult submit(const Write &write) override;
  SubscriptionRequest request_subscription(std::string_view email, int64_t now,
                                           const std::function<bool()> &may_mail) override;
  ConfirmationCheck confirm_subscription(std::string_view token_hash, int64_t now) override;
  Resubscription resubscribe(int64_t id) override;
  bool claim_confirmation(int64_t subscriber_id, int64_t now, int64_t lease_seconds) override;
  bool start_confirmation(int64_t subscriber_id, std::string_view token_hash,
                          int64_t expires_at) override;
  void confirmation_mailed(int64_t subscriber_id) override;
  void confirmation_failed(int64_t subscriber_id, std::optional<int64_t> next_attempt_at,
                           std::string_view error) override;
  Digest record_digest(std::string_view today, int days) override;
  bool claim_digest_send(int64_t digest_id, int64_t subscriber_id) override;
  void digest_sent(int64_t digest_id, int64_t subscriber_id) override;
  void digest_send_failed(int64_t digest_id, int64_t subscriber_id, SendFailure failure,
                          std::string_view error) override;
  void make_checkpoint(int64_t now) override;
  ImportSummary import_content(const Content &content) override;
  std::string site_secret(std::string_view name, std::string_view if_new) override;
  std::string log_signing_key() override;

private:
  Store &store_;
};

} // namespace verdict
