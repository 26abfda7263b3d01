-- Pseudonyms that do not link (docs/NUMBERS.md): from here on, a vote's entry names its voter
-- and its network by keyed hashes of the voter (or network) with the vote's target, so one
-- reader's entries on two tools, or one network's, share nothing an outsider can match. On one
-- target a voter keeps one pseudonym, so the counting rule and the tallies are still checked
-- target by target. Entries already in the log are never rewritten (their hashes are the
-- Merkle tree's leaves); they keep the first format's one pseudonym across targets.
DROP TRIGGER vote_event_appended;
CREATE TRIGGER vote_event_appended INSTEAD OF INSERT ON vote_events BEGIN
  INSERT INTO vote_log (leaf, entry)
  VALUES ((SELECT coalesce(max(leaf) + 1, 0) FROM vote_log),
          json_object('at', NEW.at, 'target', NEW.target, 'event', NEW.event,
                      'choice', NEW.choice, 'set_aside', NEW.set_aside,
                      'voter', vote_log_pseudonym(NEW.voter, NEW.target),
                      'network', vote_log_pseudonym(NEW.network, NEW.target)));
END;

-- Every vote standing now is carried over to its new pseudonym by one 'rekeyed' entry: its
-- choice and standing as they are, the new pseudonyms, and the one it had ('was'), so a replay
-- of the log moves the vote from one to the other and every number stays what it was. Dated
-- as the vote was cast and in a fixed order, so every node of a cluster appends the same
-- entries to the same log.
-- A choice is kept as JSON text: a tool's word and a pair's id share one column, which would
-- otherwise turn the id into text.
CREATE TEMP TABLE rekeyed AS
  SELECT (SELECT coalesce(max(leaf) + 1, 0) FROM vote_log) +
           row_number() OVER (ORDER BY at, target, vote_log_pseudonym(voter, target)) - 1 AS leaf,
         *
    FROM (SELECT cast_at AS at, 'tool:' || tool_id AS target, json_quote(verdict) AS choice,
                 set_aside, voter, network
            FROM tool_votes
          UNION ALL
          SELECT cast_at, 'pair:' || low_tool_id || '-' || high_tool_id, json_quote(pick_tool_id),
                 set_aside, voter, network
            FROM pair_votes);
INSERT INTO vote_log (leaf, entry)
SELECT leaf, json_object('at', at, 'target', target, 'event', 'rekeyed', 'choice', json(choice),
                         'set_aside', set_aside, 'voter', vote_log_pseudonym(voter, target),
                         'network', vote_log_pseudonym(network, target),
                         'was', vote_log_pseudonym(voter))
  FROM temp.rekeyed ORDER BY leaf;
-- Each vote's receipt is now its rekeyed entry, its latest.
CREATE INDEX temp.rekeyed_by_vote ON rekeyed (target, voter);
UPDATE tool_votes
   SET log_leaf = (SELECT leaf FROM temp.rekeyed
                    WHERE target = 'tool:' || tool_votes.tool_id AND voter = tool_votes.voter);
UPDATE pair_votes
   SET log_leaf = (SELECT leaf FROM temp.rekeyed
                    WHERE target = 'pair:' || pair_votes.low_tool_id || '-' ||
                                   pair_votes.high_tool_id
                      AND voter = pair_votes.voter);
DROP TABLE temp.rekeyed;
