-- Search's indexes (migration 7) made anew with prefix indexes of three and four letters: the
-- last word a reader types is also looked for as the start of longer words ("codes" finds
-- Codestral), and without them a short start of a common word ("the" starts their, them,
-- then…) makes FTS5 merge the lists of every word it starts, for each search: milliseconds on
-- a large site. With them a start of three or four letters is one list, read as a word is; a
-- longer start begins few words. The triggers of migration 7 name the tables, so they keep
-- the new ones in step as they kept the old. Both are rebuilt from the text they index.
DROP TABLE tool_search;
CREATE VIRTUAL TABLE tool_search USING fts5 (
  name, tagline, description, content = 'tool_search_text', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '3 4');
INSERT INTO tool_search (tool_search) VALUES ('rebuild');
DROP TABLE review_search;
CREATE VIRTUAL TABLE review_search USING fts5 (
  quote, content = 'review_search_text', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '3 4');
INSERT INTO review_search (review_search) VALUES ('rebuild');
