-- A tool's alternatives page (domain/alternatives.h) reads the head-to-heads a tool is in from
-- either side: the primary key finds those where it is the lower id, this index the others.
CREATE INDEX pair_tallies_by_high ON pair_tallies (high_tool_id);
