-- A voter's receipts (/receipts): each of their current votes' place in the vote log. The log
-- finds a voter's entries by their pseudonym, the keyed hash already in each entry, kept beside
-- it in a column of its own and indexed; the leaf is still only the entry's text, so the column
-- is no part of what checkpoints sign. The pseudonym is made once per entry, for both.
ALTER TABLE vote_log ADD COLUMN voter TEXT;
UPDATE vote_log SET voter = json_extract(entry, '$.voter');
CREATE INDEX vote_log_by_voter ON vote_log (voter, leaf);

DROP TRIGGER vote_event_appended;
CREATE TRIGGER vote_event_appended INSTEAD OF INSERT ON vote_events BEGIN
  INSERT INTO vote_log (leaf, entry, voter)
  SELECT (SELECT coalesce(max(leaf) + 1, 0) FROM vote_log),
         json_object('at', NEW.at, 'target', NEW.target, 'event', NEW.event,
                     'choice', NEW.choice, 'set_aside', NEW.set_aside, 'voter', pseudonym,
                     'network', vote_log_pseudonym(NEW.network)),
         pseudonym
    FROM (SELECT vote_log_pseudonym(NEW.voter) AS pseudonym);
END;
