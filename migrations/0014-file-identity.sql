-- Which database this file is, and how many times its log has been copied into it, written
-- inside the file: the record beside it (site.db-wal-owner) names the file state its log was
-- written on by these two values, so no operator's tool that changes the file's timestamps
-- or inode without changing its bytes (touch, cp -p, a restore of the same bytes) makes the
-- site take its own log for another file's (store/database_file.h).
CREATE TABLE file_identity (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  file_id     TEXT NOT NULL,    -- random, made with the file; a backup gets one of its own
  checkpoints INTEGER NOT NULL  -- counted up in the log just before each copy into the file
);
INSERT INTO file_identity (id, file_id, checkpoints) VALUES (1, lower(hex(randomblob(16))), 0);
