-- A voter's receipts (/receipts): each current vote's place in the vote log. A vote's row keeps
-- the leaf of its latest log entry, written by the trigger that appends the entry, on the row
-- the vote has just written: no page of the file is touched that the vote did not touch
-- already, so a vote costs what it did. A withdrawn vote has no row, and no receipt.
ALTER TABLE tool_votes ADD COLUMN log_leaf INTEGER;
ALTER TABLE pair_votes ADD COLUMN log_leaf INTEGER;

-- The votes already cast: each one's latest entry, found once for all of them.
CREATE TEMP TABLE latest_entries AS
  SELECT json_extract(entry, '$.target') AS target, json_extract(entry, '$.voter') AS voter,
         max(leaf) AS leaf
    FROM vote_log GROUP BY 1, 2;
CREATE INDEX temp.latest_entries_by_vote ON latest_entries (target, voter);
UPDATE tool_votes
   SET log_leaf = (SELECT leaf FROM latest_entries
                    WHERE target = 'tool:' || tool_votes.tool_id
                      AND voter = vote_log_pseudonym(tool_votes.voter));
UPDATE pair_votes
   SET log_leaf = (SELECT leaf FROM latest_entries
                    WHERE target = 'pair:' || pair_votes.low_tool_id || '-' ||
                                   pair_votes.high_tool_id
                      AND voter = vote_log_pseudonym(pair_votes.voter));
DROP TABLE temp.latest_entries;

-- The triggers of 0010 that append a cast or a change, now also keeping its leaf. Setting
-- log_leaf fires no trigger: those on updates name the columns they watch.
DROP TRIGGER tool_vote_logged;
CREATE TRIGGER tool_vote_logged AFTER INSERT ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'cast', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network);
  UPDATE tool_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND tool_id = NEW.tool_id;
END;
DROP TRIGGER tool_vote_change_logged;
CREATE TRIGGER tool_vote_change_logged AFTER UPDATE OF verdict, set_aside ON tool_votes
  WHEN OLD.verdict IS NOT NEW.verdict OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'changed', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network);
  UPDATE tool_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND tool_id = NEW.tool_id;
END;
DROP TRIGGER pair_vote_logged;
CREATE TRIGGER pair_vote_logged AFTER INSERT ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'cast', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network);
  UPDATE pair_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND low_tool_id = NEW.low_tool_id
     AND high_tool_id = NEW.high_tool_id;
END;
DROP TRIGGER pair_vote_change_logged;
CREATE TRIGGER pair_vote_change_logged AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
  WHEN OLD.pick_tool_id IS NOT NEW.pick_tool_id OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'changed', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network);
  UPDATE pair_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND low_tool_id = NEW.low_tool_id
     AND high_tool_id = NEW.high_tool_id;
END;
