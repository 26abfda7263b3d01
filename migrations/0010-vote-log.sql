-- The vote log (store/vote_log.h): every vote event — cast, changed, withdrawn; counted or
-- set aside and why — appended by these triggers in the transaction that wrote the vote, so
-- no write of a vote, by any path, escapes it. Entries are the leaves of an RFC 6962 Merkle
-- tree (base/merkle.h), `leaf` counting from 0; their hashes are made where the tree is read,
-- not while a vote waits. An entry holds no reader data: the voter and the network are keyed
-- hashes under the site secret 'vote_log' (made here), so they match nothing kept elsewhere
-- in the file. vote_log_pseudonym is the store's function (store/vote_log.cpp): a connection
-- without it cannot write a vote, which is as it should be.
--
-- An entry, one JSON object, keys in this order:
--   {"at":"2026-11-24T16:00:00Z","target":"tool:12","event":"cast","choice":"ship",
--    "set_aside":null,"voter":"<32 hex>","network":"<32 hex>"}
-- target: 'tool:<id>' or 'pair:<low id>-<high id>' (auth/vote_tokens.h); choice: 'ship' or
-- 'skip' on a tool, the picked tool's id on a pair, null when withdrawn; set_aside: null when
-- counted, else 'network' or 'too_fast' (domain/counting.h); network: null for a vote cast
-- before the counting rule.
INSERT INTO site_secrets (name, value) VALUES ('vote_log', lower(hex(randomblob(32))))
  ON CONFLICT (name) DO NOTHING;

CREATE TABLE vote_log (
  leaf  INTEGER PRIMARY KEY CHECK (leaf >= 0),
  entry TEXT NOT NULL
);

-- Where a vote event is written: one row inserted here appends one entry, made in one place.
CREATE VIEW vote_events AS
  SELECT NULL AS at, NULL AS target, NULL AS event, NULL AS choice, NULL AS set_aside,
         NULL AS voter, NULL AS network
   WHERE 0;
CREATE TRIGGER vote_event_appended INSTEAD OF INSERT ON vote_events BEGIN
  INSERT INTO vote_log (leaf, entry)
  VALUES ((SELECT coalesce(max(leaf) + 1, 0) FROM vote_log),
          json_object('at', NEW.at, 'target', NEW.target, 'event', NEW.event,
                      'choice', NEW.choice, 'set_aside', NEW.set_aside,
                      'voter', vote_log_pseudonym(NEW.voter),
                      'network', vote_log_pseudonym(NEW.network)));
END;

-- The votes already cast open the log, oldest first, as cast.
INSERT INTO vote_events
SELECT cast_at, 'tool:' || tool_id, 'cast', verdict, set_aside, voter, network FROM tool_votes
UNION ALL
SELECT cast_at, 'pair:' || low_tool_id || '-' || high_tool_id, 'cast', pick_tool_id, set_aside,
       voter, network
  FROM pair_votes
 ORDER BY 1, 2, 6;

CREATE TRIGGER tool_vote_logged AFTER INSERT ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'cast', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network);
END;
CREATE TRIGGER tool_vote_change_logged AFTER UPDATE OF verdict, set_aside ON tool_votes
  WHEN OLD.verdict IS NOT NEW.verdict OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'tool:' || NEW.tool_id, 'changed', NEW.verdict,
                                  NEW.set_aside, NEW.voter, NEW.network);
END;
CREATE TRIGGER tool_vote_withdrawal_logged AFTER DELETE ON tool_votes BEGIN
  INSERT INTO vote_events VALUES (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'tool:' || OLD.tool_id,
                                  'withdrawn', NULL, OLD.set_aside, OLD.voter, OLD.network);
END;

CREATE TRIGGER pair_vote_logged AFTER INSERT ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'cast', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network);
END;
CREATE TRIGGER pair_vote_change_logged AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
  WHEN OLD.pick_tool_id IS NOT NEW.pick_tool_id OR OLD.set_aside IS NOT NEW.set_aside BEGIN
  INSERT INTO vote_events VALUES (NEW.cast_at, 'pair:' || NEW.low_tool_id || '-' ||
                                  NEW.high_tool_id, 'changed', NEW.pick_tool_id, NEW.set_aside,
                                  NEW.voter, NEW.network);
END;
CREATE TRIGGER pair_vote_withdrawal_logged AFTER DELETE ON pair_votes BEGIN
  INSERT INTO vote_events VALUES (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'pair:' ||
                                  OLD.low_tool_id || '-' || OLD.high_tool_id, 'withdrawn', NULL,
                                  OLD.set_aside, OLD.voter, OLD.network);
END;
