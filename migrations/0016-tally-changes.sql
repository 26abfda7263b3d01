-- The published tallies kept as they happen (/data/tallies.csv and .json, domain/tallies.h):
-- what each UTC day's vote events changed in each target's standing, counted by the vote
-- tables' triggers in the vote's own transaction, so the open data costs a read of a row per
-- target per day with votes (summed as it is read: a day's standing is its changes and those
-- of the days before) instead of a replay of the whole log. The figures are the log's replay
-- by definition: the rows of a site from before this step are made by that replay
-- (store/vote_log.cpp, in this step's transaction), and the tests check them against it.
--
-- A target is (pair, low, high): a tool is (0, id, id), a head-to-head (1, lower id, higher
-- id), so the rows sort as the log's targets do. first: counted ships, or counted picks of
-- the lower id; second: counted skips, or picks of the higher id; set aside by reason.
-- Changes, not standings: a vote adds to one row, without reading the day before.
CREATE TABLE tally_changes (
  pair               INTEGER NOT NULL CHECK (pair IN (0, 1)),
  low                INTEGER NOT NULL,
  high               INTEGER NOT NULL,
  day                TEXT NOT NULL, -- YYYY-MM-DD (UTC)
  first              INTEGER NOT NULL,
  second             INTEGER NOT NULL,
  set_aside_network  INTEGER NOT NULL,
  set_aside_too_fast INTEGER NOT NULL,
  PRIMARY KEY (pair, low, high, day)
) WITHOUT ROWID;

-- One vote event's change to its target's standing, written where the log's entry is: a row
-- inserted here adds to its day's changes. As in the replay, an event dated before the
-- target's latest day counts in that day.
CREATE VIEW tally_events AS
  SELECT NULL AS pair, NULL AS low, NULL AS high, NULL AS at, NULL AS first, NULL AS second,
         NULL AS set_aside_network, NULL AS set_aside_too_fast
   WHERE 0;
CREATE TRIGGER tally_event_counted INSTEAD OF INSERT ON tally_events BEGIN
  INSERT INTO tally_changes (pair, low, high, day, first, second, set_aside_network,
                             set_aside_too_fast)
  VALUES (NEW.pair, NEW.low, NEW.high,
          max(substr(NEW.at, 1, 10),
              coalesce((SELECT max(day) FROM tally_changes
                         WHERE pair = NEW.pair AND low = NEW.low AND high = NEW.high), '')),
          NEW.first, NEW.second, NEW.set_aside_network, NEW.set_aside_too_fast)
  ON CONFLICT (pair, low, high, day) DO UPDATE
     SET first = first + excluded.first, second = second + excluded.second,
         set_aside_network = set_aside_network + excluded.set_aside_network,
         set_aside_too_fast = set_aside_too_fast + excluded.set_aside_too_fast;
END;

-- The events, as the log's triggers (migrations/0010-vote-log.sql, 0012-receipts.sql) append
-- them: a cast, a change of choice or standing, a withdrawal (dated when it happened).
CREATE TRIGGER tool_vote_tallied AFTER INSERT ON tool_votes BEGIN
  INSERT INTO tally_events
  VALUES (0, NEW.tool_id, NEW.tool_id, NEW.cast_at,
          NEW.set_aside IS NULL AND NEW.verdict = 'ship',
          NEW.set_aside IS NULL AND NEW.verdict = 'skip',
          NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast');
END;
CREATE TRIGGER tool_vote_retallied AFTER UPDATE OF verdict, set_aside ON tool_votes
  WHEN OLD.verdict IS NOT NEW.verdict OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO tally_events
  VALUES (0, NEW.tool_id, NEW.tool_id, NEW.cast_at,
          (NEW.set_aside IS NULL AND NEW.verdict = 'ship') -
            (OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
          (NEW.set_aside IS NULL AND NEW.verdict = 'skip') -
            (OLD.set_aside IS NULL AND OLD.verdict = 'skip'),
          (NEW.set_aside IS 'network') - (OLD.set_aside IS 'network'),
          (NEW.set_aside IS 'too_fast') - (OLD.set_aside IS 'too_fast'));
END;
CREATE TRIGGER tool_vote_untallied AFTER DELETE ON tool_votes BEGIN
  INSERT INTO tally_events
  VALUES (0, OLD.tool_id, OLD.tool_id, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),
          -(OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
          -(OLD.set_aside IS NULL AND OLD.verdict = 'skip'),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
CREATE TRIGGER pair_vote_tallied AFTER INSERT ON pair_votes BEGIN
  INSERT INTO tally_events
  VALUES (1, NEW.low_tool_id, NEW.high_tool_id, NEW.cast_at,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id,
          NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast');
END;
CREATE TRIGGER pair_vote_retallied AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
  WHEN OLD.pick_tool_id IS NOT NEW.pick_tool_id OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO tally_events
  VALUES (1, NEW.low_tool_id, NEW.high_tool_id, NEW.cast_at,
          (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id) -
            (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
          (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id) -
            (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
          (NEW.set_aside IS 'network') - (OLD.set_aside IS 'network'),
          (NEW.set_aside IS 'too_fast') - (OLD.set_aside IS 'too_fast'));
END;
CREATE TRIGGER pair_vote_untallied AFTER DELETE ON pair_votes BEGIN
  INSERT INTO tally_events
  VALUES (1, OLD.low_tool_id, OLD.high_tool_id, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
