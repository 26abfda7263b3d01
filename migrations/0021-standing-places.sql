-- The counting rule's ceiling (domain/counting.h): a network holds at most three places on a
-- target, and its wider network twelve, for as long as the votes holding them stand — not for
-- 30 days at a time, which let one network be counted anew each month. A counted vote holds
-- its place until it is withdrawn; a vote set aside for its network waits, and the oldest
-- waiting vote that fits takes a place when one frees (store/votes.cpp).
--
-- A vote's row now says what it holds: `wider`, its wider network (a keyed hash, as `network`
-- is), and `place`, which of its network's places on the target it holds (1 to 3; NULL when
-- set aside or cast before the rule). The places are read from the votes themselves, by
-- partial indexes that hold only counted votes (and, for the waiting, only the set aside).
ALTER TABLE tool_votes ADD COLUMN wider TEXT NOT NULL DEFAULT '';
ALTER TABLE tool_votes ADD COLUMN place INTEGER CHECK (place IS NULL OR place >= 1);
ALTER TABLE pair_votes ADD COLUMN wider TEXT NOT NULL DEFAULT '';
ALTER TABLE pair_votes ADD COLUMN place INTEGER CHECK (place IS NULL OR place >= 1);

-- The wider network of the votes counted in the last window, from the rule's own record of
-- it; a vote counted before that holds no place in its wider network (it had none to hold:
-- the wider quota was a window's).
UPDATE tool_votes
   SET wider = coalesce((SELECT max(wider) FROM counted_voters c
                          WHERE c.target = 'tool:' || tool_votes.tool_id
                            AND c.voter = tool_votes.voter AND c.network = tool_votes.network),
                        '')
 WHERE network IS NOT NULL;
UPDATE pair_votes
   SET wider = coalesce((SELECT max(wider) FROM counted_voters c
                          WHERE c.target = 'pair:' || pair_votes.low_tool_id || '-' ||
                                           pair_votes.high_tool_id
                            AND c.voter = pair_votes.voter AND c.network = pair_votes.network),
                        '')
 WHERE network IS NOT NULL;

-- Each counted vote's place, in the order its network's votes were cast: a network counted
-- more than three times under the monthly window keeps every vote it has (places 4 and on),
-- and takes no new place until fewer than three of its votes stand.
UPDATE tool_votes
   SET place = numbered.place
  FROM (SELECT voter, tool_id,
               row_number() OVER (PARTITION BY tool_id, network ORDER BY cast_at, voter) AS place
          FROM tool_votes WHERE set_aside IS NULL AND network IS NOT NULL) AS numbered
 WHERE numbered.voter = tool_votes.voter AND numbered.tool_id = tool_votes.tool_id;
UPDATE pair_votes
   SET place = numbered.place
  FROM (SELECT voter, low_tool_id, high_tool_id,
               row_number() OVER (PARTITION BY low_tool_id, high_tool_id, network
                                  ORDER BY cast_at, voter) AS place
          FROM pair_votes WHERE set_aside IS NULL AND network IS NOT NULL) AS numbered
 WHERE numbered.voter = pair_votes.voter AND numbered.low_tool_id = pair_votes.low_tool_id
   AND numbered.high_tool_id = pair_votes.high_tool_id;

DROP TABLE counted_voters;
CREATE INDEX tool_votes_places ON tool_votes (tool_id, network, place) WHERE set_aside IS NULL;
CREATE INDEX tool_votes_wider_places ON tool_votes (tool_id, wider) WHERE set_aside IS NULL;
CREATE INDEX tool_votes_waiting ON tool_votes (tool_id, wider, cast_at)
  WHERE set_aside = 'network';
CREATE INDEX pair_votes_places ON pair_votes (low_tool_id, high_tool_id, network, place)
  WHERE set_aside IS NULL;
CREATE INDEX pair_votes_wider_places ON pair_votes (low_tool_id, high_tool_id, wider)
  WHERE set_aside IS NULL;
CREATE INDEX pair_votes_waiting ON pair_votes (low_tool_id, high_tool_id, wider, cast_at)
  WHERE set_aside = 'network';

-- The log's entries from here on (docs/NUMBERS.md): a counted entry names the place it holds,
-- not its network — `place`, a keyed hash of the network, the target and the place's number —
-- so a reader who finds their own entry learns nothing of which other entries are their
-- network's, and anyone can still check that no place holds two votes at once. Voters have new
-- pseudonyms (the same key over another message: vote_log_pseudonym with a third argument),
-- and `at` is the hour, not the second.
--   {"at":"2026-11-28T19:00:00Z","target":"tool:12","event":"cast","choice":"ship",
--    "set_aside":null,"voter":"<32 hex>","place":"<32 hex>"}
DROP TRIGGER tool_vote_logged;
DROP TRIGGER tool_vote_change_logged;
DROP TRIGGER tool_vote_withdrawal_logged;
DROP TRIGGER pair_vote_logged;
DROP TRIGGER pair_vote_change_logged;
DROP TRIGGER pair_vote_withdrawal_logged;
DROP VIEW vote_events;
CREATE VIEW vote_events AS
  SELECT NULL AS at, NULL AS target, NULL AS event, NULL AS choice, NULL AS set_aside,
         NULL AS voter, NULL AS network, NULL AS place
   WHERE 0;
CREATE TRIGGER vote_event_appended INSTEAD OF INSERT ON vote_events BEGIN
  INSERT INTO vote_log (leaf, entry)
  VALUES ((SELECT coalesce(max(leaf) + 1, 0) FROM vote_log),
          json_object('at', strftime('%Y-%m-%dT%H:00:00Z', NEW.at), 'target', NEW.target,
                      'event', NEW.event, 'choice', NEW.choice, 'set_aside', NEW.set_aside,
                      'voter', vote_log_pseudonym(NEW.voter, NEW.target, 'voter'),
                      'place', vote_log_pseudonym(NEW.network || '#' || NEW.place, NEW.target,
                                                  'place')));
END;

-- Every vote standing now starts over under its new pseudonym: first every one is withdrawn
-- under the pseudonym it had, then every one is entered again under its new one, with its
-- place — each group in the order of its pseudonyms, and all dated as the log's last entry,
-- so nothing in an entry's leaf or time pairs an old pseudonym with a new one (what a target
-- with few votes still tells is in docs/NUMBERS.md). Every number stays what it was.
CREATE TEMP TABLE restarted AS
  SELECT 'tool:' || tool_id AS target, json_quote(verdict) AS choice, set_aside, voter, network,
         place
    FROM tool_votes
  UNION ALL
  SELECT 'pair:' || low_tool_id || '-' || high_tool_id, json_quote(pick_tool_id), set_aside,
         voter, network, place
    FROM pair_votes;
CREATE TEMP TABLE restart_time AS
  SELECT coalesce((SELECT strftime('%Y-%m-%dT%H:00:00Z', json_extract(entry, '$.at'))
                     FROM vote_log ORDER BY leaf DESC LIMIT 1),
                  '1970-01-01T00:00:00Z') AS at;
INSERT INTO vote_log (leaf, entry)
SELECT (SELECT coalesce(max(leaf) + 1, 0) FROM vote_log) +
         row_number() OVER (ORDER BY target, vote_log_pseudonym(voter, target)) - 1,
       json_object('at', (SELECT at FROM temp.restart_time), 'target', target,
                   'event', 'withdrawn', 'choice', NULL, 'set_aside', set_aside,
                   'voter', vote_log_pseudonym(voter, target), 'network', NULL)
  FROM temp.restarted;
CREATE TEMP TABLE reentered AS
  SELECT (SELECT coalesce(max(leaf) + 1, 0) FROM vote_log) +
           row_number() OVER (ORDER BY target, vote_log_pseudonym(voter, target, 'voter')) - 1
           AS leaf,
         *
    FROM temp.restarted;
INSERT INTO vote_log (leaf, entry)
SELECT leaf, json_object('at', (SELECT at FROM temp.restart_time), 'target', target,
                         'event', 'rekeyed', 'choice', json(choice), 'set_aside', set_aside,
                         'voter', vote_log_pseudonym(voter, target, 'voter'),
                         'place', vote_log_pseudonym(network || '#' || place, target, 'place'))
  FROM temp.reentered ORDER BY leaf;
-- Each vote's receipt is now its new entry.
CREATE INDEX temp.reentered_by_vote ON reentered (target, voter);
UPDATE tool_votes
   SET log_leaf = (SELECT leaf FROM temp.reentered
                    WHERE target = 'tool:' || tool_votes.tool_id AND voter = tool_votes.voter);
UPDATE pair_votes
   SET log_leaf = (SELECT leaf FROM temp.reentered
                    WHERE target = 'pair:' || pair_votes.low_tool_id || '-' ||
                                   pair_votes.high_tool_id
                      AND voter = pair_votes.voter);
DROP TABLE temp.reentered;
-- The published tallies (0016) are the log's replay: each target restarted has entries on the
-- day they are dated, so it has that day's row too, though nothing changed in it.
INSERT INTO tally_events
SELECT DISTINCT 0, tool_id, tool_id, (SELECT at FROM temp.restart_time), 0, 0, 0, 0
  FROM tool_votes;
INSERT INTO tally_events
SELECT DISTINCT 1, low_tool_id, high_tool_id, (SELECT at FROM temp.restart_time), 0, 0, 0, 0
  FROM pair_votes;
DROP TABLE temp.restarted;
DROP TABLE temp.restart_time;

-- The triggers that log a vote (0012, 0018), now with its place: setting log_leaf, or a
-- place alone, fires none of them (they name the columns they watch).
CREATE TRIGGER tool_vote_logged AFTER INSERT ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'cast', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network, NEW.place);
  UPDATE tool_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND tool_id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_change_logged AFTER UPDATE OF verdict, set_aside ON tool_votes
  WHEN OLD.verdict IS NOT NEW.verdict OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'changed', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network, NEW.place);
  UPDATE tool_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND tool_id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_withdrawal_logged AFTER DELETE ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (OLD.cast_at, 'tool:' || OLD.tool_id, 'withdrawn', NULL,
                                  OLD.set_aside, OLD.voter, OLD.network, OLD.place);
END;
CREATE TRIGGER pair_vote_logged AFTER INSERT ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'cast', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network, NEW.place);
  UPDATE pair_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND low_tool_id = NEW.low_tool_id
     AND high_tool_id = NEW.high_tool_id;
END;
CREATE TRIGGER pair_vote_change_logged AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
  WHEN OLD.pick_tool_id IS NOT NEW.pick_tool_id OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'changed', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network, NEW.place);
  UPDATE pair_votes SET log_leaf = (SELECT max(leaf) FROM vote_log)
   WHERE voter = NEW.voter AND low_tool_id = NEW.low_tool_id
     AND high_tool_id = NEW.high_tool_id;
END;
CREATE TRIGGER pair_vote_withdrawal_logged AFTER DELETE ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (OLD.cast_at, 'pair:' || OLD.low_tool_id || '-' ||
                                  OLD.high_tool_id, 'withdrawn', NULL, OLD.set_aside, OLD.voter,
                                  OLD.network, OLD.place);
END;
