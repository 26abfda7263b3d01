-- full-text search (/search, store/search.cpp) over tools' names, taglines and
-- descriptions and the panel's quotes. External-content FTS5 tables: the index holds
-- only its terms and reads the text itself from the tables when it makes an excerpt, so
-- no text is stored twice. (A contentless index cannot make excerpts, and SQLite 3.40,
-- Debian 12's, cannot delete from one.) The index reads the text through a view that
-- takes out \x01 and \x02, the characters a search result marks its matches with, so no
-- stored text can pass for a mark. Triggers keep the index in step inside the writing
-- transaction: an old text leaves the index before its row changes (read through the
-- same view, so exactly what was indexed), a new one enters after. Only a change of the
-- indexed text touches the index: a tool's tallies move on every vote. The existing rows
-- are indexed at the end.
CREATE VIEW tool_search_text AS
  SELECT id, replace(replace(name, char(1), ''), char(2), '') AS name,
         replace(replace(tagline, char(1), ''), char(2), '') AS tagline,
         replace(replace(description, char(1), ''), char(2), '') AS description
    FROM tools;
CREATE VIRTUAL TABLE tool_search USING fts5 (
  name, tagline, description, content = 'tool_search_text', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2');
CREATE VIEW review_search_text AS
  SELECT id, replace(replace(quote, char(1), ''), char(2), '') AS quote FROM reviews;
CREATE VIRTUAL TABLE review_search USING fts5 (
  quote, content = 'review_search_text', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER tool_search_learns AFTER INSERT ON tools BEGIN
  INSERT INTO tool_search (rowid, name, tagline, description)
    SELECT id, name, tagline, description FROM tool_search_text WHERE id = NEW.id;
END;
CREATE TRIGGER tool_search_forgets BEFORE DELETE ON tools BEGIN
  INSERT INTO tool_search (tool_search, rowid, name, tagline, description)
    SELECT 'delete', id, name, tagline, description FROM tool_search_text
     WHERE id = OLD.id;
END;
CREATE TRIGGER tool_search_unlearns BEFORE UPDATE OF id, name, tagline, description
  ON tools
  WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name
    OR OLD.tagline IS NOT NEW.tagline OR OLD.description IS NOT NEW.description
BEGIN
  INSERT INTO tool_search (tool_search, rowid, name, tagline, description)
    SELECT 'delete', id, name, tagline, description FROM tool_search_text
     WHERE id = OLD.id;
END;
CREATE TRIGGER tool_search_relearns AFTER UPDATE OF id, name, tagline, description
  ON tools
  WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name
    OR OLD.tagline IS NOT NEW.tagline OR OLD.description IS NOT NEW.description
BEGIN
  INSERT INTO tool_search (rowid, name, tagline, description)
    SELECT id, name, tagline, description FROM tool_search_text WHERE id = NEW.id;
END;

CREATE TRIGGER review_search_learns AFTER INSERT ON reviews BEGIN
  INSERT INTO review_search (rowid, quote)
    SELECT id, quote FROM review_search_text WHERE id = NEW.id;
END;
CREATE TRIGGER review_search_forgets BEFORE DELETE ON reviews BEGIN
  INSERT INTO review_search (review_search, rowid, quote)
    SELECT 'delete', id, quote FROM review_search_text WHERE id = OLD.id;
END;
CREATE TRIGGER review_search_unlearns BEFORE UPDATE OF id, quote ON reviews
  WHEN OLD.id IS NOT NEW.id OR OLD.quote IS NOT NEW.quote
BEGIN
  INSERT INTO review_search (review_search, rowid, quote)
    SELECT 'delete', id, quote FROM review_search_text WHERE id = OLD.id;
END;
CREATE TRIGGER review_search_relearns AFTER UPDATE OF id, quote ON reviews
  WHEN OLD.id IS NOT NEW.id OR OLD.quote IS NOT NEW.quote
BEGIN
  INSERT INTO review_search (rowid, quote)
    SELECT id, quote FROM review_search_text WHERE id = NEW.id;
END;

INSERT INTO tool_search (tool_search) VALUES ('rebuild');
INSERT INTO review_search (review_search) VALUES ('rebuild');
