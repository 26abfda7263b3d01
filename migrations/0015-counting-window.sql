-- The counting rule over a rolling window with nested quotas (domain/counting.h): a voter
-- counted on a target holds their network's place for 30 days, and a network's wider network
-- (its /16 or /32) counts twelve voters per target in that time. counted_voters keeps each
-- voter's counting with its day, network and now its wider network (a keyed hash, empty for
-- the rows from before), and is read by network and by wider network over the window's days.
ALTER TABLE counted_voters ADD COLUMN wider TEXT NOT NULL DEFAULT '';
CREATE INDEX counted_voters_by_network ON counted_voters (network, target, day);
CREATE INDEX counted_voters_by_wider ON counted_voters (wider, target, day);
