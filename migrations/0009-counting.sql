-- counted, not just cast (domain/counting.h). Every vote stays stored with the
-- network it came from (a keyed hash, never the address) and, when the counting rule
-- kept it out of the numbers, why: set_aside is NULL for a counted vote. The tallies
-- count counted votes only and keep the set-aside ones by reason beside them, still in
-- the writing transaction. Votes cast before the rule have no network and stay counted.
-- counted_voters holds, per UTC day, network and target, the voters whose votes were
-- counted: what the rule reads; days before today are dropped as votes come in.
ALTER TABLE tool_votes ADD COLUMN network TEXT;
ALTER TABLE tool_votes ADD COLUMN set_aside TEXT
  CHECK (set_aside IS NULL OR set_aside IN ('network', 'too_fast'));
ALTER TABLE pair_votes ADD COLUMN network TEXT;
ALTER TABLE pair_votes ADD COLUMN set_aside TEXT
  CHECK (set_aside IS NULL OR set_aside IN ('network', 'too_fast'));
ALTER TABLE tools ADD COLUMN community_set_aside_network INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tools ADD COLUMN community_set_aside_too_fast INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pair_tallies ADD COLUMN set_aside_network INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pair_tallies ADD COLUMN set_aside_too_fast INTEGER NOT NULL DEFAULT 0;
CREATE TABLE counted_voters (
  day     TEXT NOT NULL, -- YYYY-MM-DD, UTC
  network TEXT NOT NULL,
  target  TEXT NOT NULL, -- 'tool:12', 'pair:3-7' (auth/vote_tokens.h)
  voter   TEXT NOT NULL,
  PRIMARY KEY (day, network, target, voter)
) WITHOUT ROWID;

DROP TRIGGER tool_vote_counted;
DROP TRIGGER tool_vote_recounted;
DROP TRIGGER tool_vote_uncounted;
CREATE TRIGGER tool_vote_counted AFTER INSERT ON tool_votes BEGIN
  UPDATE tools
     SET community_votes = community_votes + (NEW.set_aside IS NULL),
         community_ships = community_ships + (NEW.set_aside IS NULL AND NEW.verdict = 'ship'),
         community_set_aside_network = community_set_aside_network + (NEW.set_aside IS 'network'),
         community_set_aside_too_fast = community_set_aside_too_fast + (NEW.set_aside IS 'too_fast')
   WHERE id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_recounted AFTER UPDATE OF verdict, set_aside ON tool_votes BEGIN
  UPDATE tools
     SET community_votes = community_votes - (OLD.set_aside IS NULL) + (NEW.set_aside IS NULL),
         community_ships = community_ships - (OLD.set_aside IS NULL AND OLD.verdict = 'ship')
                                          + (NEW.set_aside IS NULL AND NEW.verdict = 'ship'),
         community_set_aside_network = community_set_aside_network
           - (OLD.set_aside IS 'network') + (NEW.set_aside IS 'network'),
         community_set_aside_too_fast = community_set_aside_too_fast
           - (OLD.set_aside IS 'too_fast') + (NEW.set_aside IS 'too_fast')
   WHERE id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_uncounted AFTER DELETE ON tool_votes BEGIN
  UPDATE tools
     SET community_votes = community_votes - (OLD.set_aside IS NULL),
         community_ships = community_ships - (OLD.set_aside IS NULL AND OLD.verdict = 'ship'),
         community_set_aside_network = community_set_aside_network - (OLD.set_aside IS 'network'),
         community_set_aside_too_fast = community_set_aside_too_fast - (OLD.set_aside IS 'too_fast')
   WHERE id = OLD.tool_id;
END;

DROP TRIGGER pair_vote_counted;
DROP TRIGGER pair_vote_recounted;
DROP TRIGGER pair_vote_uncounted;
CREATE TRIGGER pair_vote_counted AFTER INSERT ON pair_votes BEGIN
  INSERT INTO pair_tallies (low_tool_id, high_tool_id, low_picks, high_picks,
                            set_aside_network, set_aside_too_fast)
  VALUES (NEW.low_tool_id, NEW.high_tool_id,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id,
          NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id,
          NEW.set_aside IS 'network', NEW.set_aside IS 'too_fast')
  ON CONFLICT (low_tool_id, high_tool_id) DO UPDATE
    SET low_picks = low_picks + excluded.low_picks,
        high_picks = high_picks + excluded.high_picks,
        set_aside_network = set_aside_network + excluded.set_aside_network,
        set_aside_too_fast = set_aside_too_fast + excluded.set_aside_too_fast;
END;
CREATE TRIGGER pair_vote_recounted AFTER UPDATE OF pick_tool_id, set_aside ON pair_votes
BEGIN
  UPDATE pair_tallies
     SET low_picks = low_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id)
                               + (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.low_tool_id),
         high_picks = high_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id)
                                 + (NEW.set_aside IS NULL AND NEW.pick_tool_id = NEW.high_tool_id),
         set_aside_network = set_aside_network
           - (OLD.set_aside IS 'network') + (NEW.set_aside IS 'network'),
         set_aside_too_fast = set_aside_too_fast
           - (OLD.set_aside IS 'too_fast') + (NEW.set_aside IS 'too_fast')
   WHERE low_tool_id = NEW.low_tool_id AND high_tool_id = NEW.high_tool_id;
END;
CREATE TRIGGER pair_vote_uncounted AFTER DELETE ON pair_votes BEGIN
  UPDATE pair_tallies
     SET low_picks = low_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.low_tool_id),
         high_picks = high_picks - (OLD.set_aside IS NULL AND OLD.pick_tool_id = OLD.high_tool_id),
         set_aside_network = set_aside_network - (OLD.set_aside IS 'network'),
         set_aside_too_fast = set_aside_too_fast - (OLD.set_aside IS 'too_fast')
   WHERE low_tool_id = OLD.low_tool_id AND high_tool_id = OLD.high_tool_id;
END;
