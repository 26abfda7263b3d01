-- Every time a write stamps is the time it was taken (domain/writes.h WriteContext), bound by
-- the store into its statements, never SQLite's clock: a cluster node applying the write an
-- hour later, or a restart replaying the stream, stamps the same time as every other node.
-- The four triggers that dated a withdrawal by the clock now date it by the row: the store
-- sets the vote's cast_at to the withdrawal's time before it deletes the row (a reader's
-- withdrawal, or a tool deleted with its votes), and an UPDATE OF cast_at alone fires none of
-- the log's or tallies' triggers (they watch the choice and the standing).
-- The schema's DEFAULT times stay as they are (SQLite cannot change a column's default short
-- of copying the table): every INSERT of the store's gives the time itself.
DROP TRIGGER tool_vote_withdrawal_logged;
CREATE TRIGGER tool_vote_withdrawal_logged AFTER DELETE ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (OLD.cast_at, 'tool:' || OLD.tool_id, 'withdrawn', NULL,
                                  OLD.set_aside, OLD.voter, OLD.network);
END;
DROP TRIGGER pair_vote_withdrawal_logged;
CREATE TRIGGER pair_vote_withdrawal_logged AFTER DELETE ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (OLD.cast_at, 'pair:' || OLD.low_tool_id || '-' ||
                                  OLD.high_tool_id, 'withdrawn', NULL, OLD.set_aside, OLD.voter,
                                  OLD.network);
END;
DROP TRIGGER tool_vote_untallied;
CREATE TRIGGER tool_vote_untallied AFTER DELETE ON tool_votes BEGIN
  INSERT INTO tally_events
  VALUES (0, OLD.tool_id, OLD.tool_id, OLD.cast_at,
          -(OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
          -(OLD.set_aside IS NULL AND OLD.verdict = 'skip'),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
DROP TRIGGER pair_vote_untallied;
CREATE TRIGGER pair_vote_untallied AFTER DELETE ON pair_votes BEGIN
  INSERT INTO tally_events
  VALUES (1, OLD.low_tool_id, OLD.high_tool_id, OLD.cast_at,
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
