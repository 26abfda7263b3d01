-- The vote log's tree (store/vote_log.cpp) and its signed checkpoints (domain/checkpoint.h).
-- vote_log_nodes keeps the hash of every perfect subtree of the leaves sealed so far (level
-- 0: the leaves' hashes; level L, index i: leaves i·2^L to (i+1)·2^L - 1), made when a
-- checkpoint is, so any root or proof up to it is O(log² n) lookups.
CREATE TABLE vote_log_nodes (
  level INTEGER NOT NULL CHECK (level >= 0),
  idx   INTEGER NOT NULL CHECK (idx >= 0),
  hash  BLOB NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TABLE checkpoints (
  id        INTEGER PRIMARY KEY,
  size      INTEGER NOT NULL CHECK (size >= 0),
  root      TEXT NOT NULL CHECK (length(root) = 64),
  made_at   INTEGER NOT NULL,
  signature TEXT NOT NULL CHECK (length(signature) = 128)
);
