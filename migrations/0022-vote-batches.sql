-- Votes reach the log, and the published numbers, in batches (docs/NUMBERS.md): a vote's
-- entry waits in vote_log_pending, and a batch appends every waiting entry at once, all dated
-- the batch's hour and shuffled by a keyed hash (store/vote_log.cpp). In arrival order, one
-- reader's votes on a quiet site were adjacent leaves of one hour, which picked them out
-- together; in a batch they are among the hour's others, in an order nobody outside can
-- foresee. The numbers the pages show (tools.community_*, pair_tallies, tally_changes) move
-- with the log, when a batch is appended, not with the vote: each is the log's replay at the
-- size the page names, which is what `verdict verify` checks.
--
-- A pending row is a vote event as the triggers saw it: the entry's fields (the voter and the
-- network as the vote row keeps them; the log's pseudonyms are made when it is appended) and
-- what the event changes in its target's numbers, so a batch sums the changes without
-- replaying anything.
CREATE TABLE vote_log_pending (
  seq                INTEGER PRIMARY KEY, -- arrival order
  at                 TEXT NOT NULL,       -- the vote's time, for a vote published alone
  target             TEXT NOT NULL,       -- 'tool:12', 'pair:3-7'
  event              TEXT NOT NULL CHECK (event IN ('cast', 'changed', 'withdrawn')),
  choice,                                 -- 'ship'/'skip', or the picked tool's id
  set_aside          TEXT,
  voter              TEXT NOT NULL,
  network            TEXT,
  place              INTEGER,
  first              INTEGER NOT NULL,    -- changes to the target's numbers
  second             INTEGER NOT NULL,
  set_aside_network  INTEGER NOT NULL,
  set_aside_too_fast INTEGER NOT NULL
);
-- When the last batch was appended (seconds since 1970): every node's clock asks for one at
-- each period's end, and only the first asked is made (aggregates::apply_in, PublishVotes).
CREATE TABLE vote_batches (
  only_row     INTEGER PRIMARY KEY CHECK (only_row = 1),
  published_at INTEGER NOT NULL
);

-- The numbers no longer follow the vote rows: a batch moves them (and its tally_events rows).
DROP TRIGGER tool_vote_counted;
DROP TRIGGER tool_vote_recounted;
DROP TRIGGER tool_vote_uncounted;
DROP TRIGGER pair_vote_counted;
DROP TRIGGER pair_vote_recounted;
DROP TRIGGER pair_vote_uncounted;
DROP TRIGGER tool_vote_tallied;
DROP TRIGGER tool_vote_retallied;
DROP TRIGGER tool_vote_untallied;
DROP TRIGGER pair_vote_tallied;
DROP TRIGGER pair_vote_retallied;
DROP TRIGGER pair_vote_untallied;

-- The log's triggers (0021) now leave the event waiting, with its changes to the numbers; a
-- vote's receipt (log_leaf) is empty until its batch is appended.
DROP TRIGGER tool_vote_logged;
DROP TRIGGER tool_vote_change_logged;
DROP TRIGGER tool_vote_withdrawal_logged;
DROP TRIGGER pair_vote_logged;
DROP TRIGGER pair_vote_change_logged;
DROP TRIGGER pair_vote_withdrawal_logged;
DROP TRIGGER vote_event_appended;
DROP VIEW vote_events;

CREATE TRIGGER tool_vote_logged AFTER INSERT ON tool_votes BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'cast', NEW.verdict, NEW.set_aside, NEW.voter,
          NEW.network, NEW.place,
          NEW.set_aside IS NULL AND NEW.verdict = 'ship',
          NEW.set_aside IS NULL AND NEW.verdict = 'skip',
          NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast');
END;
CREATE TRIGGER tool_vote_change_logged AFTER UPDATE OF verdict, set_aside ON tool_votes
  WHEN OLD.verdict IS NOT NEW.verdict OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'changed', NEW.verdict, NEW.set_aside, NEW.voter,
          NEW.network, NEW.place,
          (NEW.set_aside IS NULL AND NEW.verdict = 'ship') -
            (OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
          (NEW.set_aside IS NULL AND NEW.verdict = 'skip') -
            (OLD.set_aside IS NULL AND OLD.verdict = 'skip'),
          (NEW.set_aside IS 'network') - (OLD.set_aside IS 'network'),
          (NEW.set_aside IS 'too_fast') - (OLD.set_aside IS 'too_fast'));
  UPDATE tool_votes SET log_leaf = NULL WHERE voter = NEW.voter AND tool_id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_withdrawal_logged AFTER DELETE ON tool_votes BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (OLD.cast_at, 'tool:' || OLD.tool_id, 'withdrawn', NULL, OLD.set_aside, OLD.voter,
          OLD.network, OLD.place,
          -(OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
          -(OLD.set_aside IS NULL AND OLD.verdict = 'skip'),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
CREATE TRIGGER pair_vote_logged AFTER INSERT ON pair_votes BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' || NEW.high_tool_id, 'cast',
          NEW.pick_tool_id, NEW.set_aside, NEW.voter, NEW.network, NEW.place,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id,
          NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast');
END;
CREATE TRIGGER pair_vote_change_logged AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
  WHEN OLD.pick_tool_id IS NOT NEW.pick_tool_id OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' || NEW.high_tool_id, 'changed',
          NEW.pick_tool_id, NEW.set_aside, NEW.voter, NEW.network, NEW.place,
          (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id) -
            (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
          (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id) -
            (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
          (NEW.set_aside IS 'network') - (OLD.set_aside IS 'network'),
          (NEW.set_aside IS 'too_fast') - (OLD.set_aside IS 'too_fast'));
  UPDATE pair_votes SET log_leaf = NULL
   WHERE voter = NEW.voter AND low_tool_id = NEW.low_tool_id
     AND high_tool_id = NEW.high_tool_id;
END;
CREATE TRIGGER pair_vote_withdrawal_logged AFTER DELETE ON pair_votes BEGIN
  INSERT INTO vote_log_pending (at, target, event, choice, set_aside, voter, network, place,
                                first, second, set_aside_network, set_aside_too_fast)
  VALUES (OLD.cast_at, 'pair:' || OLD.low_tool_id || '-' || OLD.high_tool_id, 'withdrawn',
          NULL, OLD.set_aside, OLD.voter, OLD.network, OLD.place,
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
          -(OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
          -(OLD.set_aside IS 'network'), -(OLD.set_aside IS 'too_fast'));
END;
