-- the weekly digest by mail: double opt-in, one-click unsubscribe, sends recorded.
-- An address is pending until its owner follows the confirmation mail's link; only
-- confirmed addresses get the digest. Addresses kept before confirmation existed never
-- confirmed, so they start pending too. confirmed_at says an address was ever
-- confirmed, so undoing an unsubscription gives back what it was and no more. Only a
-- hash of a confirmation token is kept (as for sessions), and kept after use so a second
-- click can say it was used. Resends are rationed per address (domain/subscription.h) by
-- the count and time of the last one.
ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
  CHECK (status IN ('pending', 'confirmed', 'unsubscribed'));
ALTER TABLE subscribers ADD COLUMN confirm_hash TEXT;
ALTER TABLE subscribers ADD COLUMN confirm_expires_at INTEGER; -- seconds since 1970
ALTER TABLE subscribers ADD COLUMN confirmations_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE subscribers ADD COLUMN confirmation_asked_at INTEGER; -- seconds since 1970
ALTER TABLE subscribers ADD COLUMN confirmed_at INTEGER; -- seconds since 1970; NULL: never
CREATE UNIQUE INDEX subscribers_by_confirm_hash ON subscribers (confirm_hash)
  WHERE confirm_hash IS NOT NULL;
CREATE INDEX subscribers_by_status ON subscribers (status, id);
-- Keys the site makes once and keeps: the unsubscribe links' MAC key. Apart from
-- settings, which is content and goes out with `verdict export`.
CREATE TABLE site_secrets (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL CHECK (length(value) >= 32)
) WITHOUT ROWID;
-- Confirmation mails owed: kept with the subscription in one transaction, so an
-- acknowledged sign-up never loses its mail while the SMTP server is down; the server
-- sends them from a thread of its own and retries. A mail refused for good (5xx) or
-- too many times is given up: no next attempt, its last error kept for the desk.
CREATE TABLE confirmation_outbox (
  subscriber_id   INTEGER PRIMARY KEY REFERENCES subscribers (id) ON DELETE CASCADE,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER, -- seconds since 1970; NULL: given up
  last_error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX confirmation_outbox_by_due ON confirmation_outbox (next_attempt_at);
-- Each digest as the run that first made it recorded it: the comparisons it holds and
-- the confirmed subscribers owed it then. A rerun resumes it as it was made, whatever
-- was published or confirmed since; a comparison is in one digest at most (UNIQUE), so
-- nobody gets the same comparison in two digests. `days` is the --since it was made for.
CREATE TABLE digests (
  id         INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  days       INTEGER NOT NULL CHECK (days BETWEEN 1 AND 366)
);
CREATE TABLE digest_items (
  digest_id     INTEGER NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
  comparison_id INTEGER NOT NULL UNIQUE REFERENCES comparisons (id) ON DELETE CASCADE,
  PRIMARY KEY (digest_id, comparison_id)
) WITHOUT ROWID;
-- Who is owed which digest, and who got it. A send is owed when the digest is made,
-- claimed ('sending') before the message goes out and marked 'sent' once the SMTP
-- server took it. One the server certainly did not take is owed again, or 'failed'
-- (given up) after a permanent refusal or too many. A claim whose outcome is unknown
-- (a run that died, a server that never answered after the whole message) stays
-- 'sending' and is never sent again: nobody gets the same digest twice.
CREATE TABLE digest_sends (
  digest_id     INTEGER NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
  subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  state         TEXT NOT NULL DEFAULT 'owed'
    CHECK (state IN ('owed', 'sending', 'sent', 'failed')),
  attempts      INTEGER NOT NULL DEFAULT 0, -- refusals so far
  last_error    TEXT NOT NULL DEFAULT '',
  at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (digest_id, subscriber_id)
) WITHOUT ROWID;
CREATE INDEX digest_sends_by_state ON digest_sends (digest_id, state, subscriber_id);
CREATE INDEX digest_sends_by_subscriber ON digest_sends (subscriber_id);
