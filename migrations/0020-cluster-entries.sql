-- A node of a cluster applies each entry of the cluster's stream once, ever. The stream itself
-- keeps an entry's id only within its duplicate window (two minutes), so an entry published
-- again under its id after that is stored anew; its id is kept here until nothing published
-- again could still pass for new (store/apply_write.h apply_entry: until `forget_at_ms`, by
-- the stream's clock), and an entry whose id is here is applied as nothing.
CREATE TABLE cluster_entry_ids (
  id TEXT PRIMARY KEY,
  forget_at_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX cluster_entry_ids_by_forgetting ON cluster_entry_ids (forget_at_ms);

-- Entries skipped as not the cluster's (app/stream_follower.h), counted in the same
-- transaction as the skip, so a restarted node still says how many, and the last.
ALTER TABLE cluster_applied ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0 CHECK (skipped >= 0);
ALTER TABLE cluster_applied ADD COLUMN last_skipped INTEGER NOT NULL DEFAULT 0;
