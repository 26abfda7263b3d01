-- lists are read a page at a time. The panel in panel order without reading and
-- sorting all of it; a tool's comparisons newest first from the indexes alone (these
-- replace the single-column ones, and still serve the foreign keys).
CREATE INDEX reviewers_in_panel_order ON reviewers (panel_order, id);
CREATE INDEX comparisons_by_a_and_date ON comparisons (tool_a_id, published_on);
CREATE INDEX comparisons_by_b_and_date ON comparisons (tool_b_id, published_on);
DROP INDEX comparisons_by_a;
DROP INDEX comparisons_by_b;
