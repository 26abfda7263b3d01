-- A node of a cluster applies the cluster's writes in the order of their sequence in the
-- replicated stream (cluster/write_stream.h). The last sequence applied is kept here, written
-- in the same transaction as the write itself, so a write is applied once, whatever stops the
-- node between two. A node alone never writes it.
CREATE TABLE cluster_applied (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  sequence INTEGER NOT NULL CHECK (sequence >= 0)
);
