-- a deep page of a long list is found from where it starts, learnt from earlier reads
-- (store/page_starts.h). Each such list has a version that every change to its rows or
-- their order changes. A random value, not a count: a version names one order even
-- across files, such as a backup restored under the running server.
CREATE TABLE list_versions (
  list    TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO list_versions (list, version)
  VALUES ('tools_by_name', random()), ('published_comparisons', random());
CREATE TRIGGER tools_by_name_gains AFTER INSERT ON tools
BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
CREATE TRIGGER tools_by_name_loses AFTER DELETE ON tools
BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
CREATE TRIGGER tools_by_name_reorders AFTER UPDATE OF name, slug ON tools
  WHEN OLD.name IS NOT NEW.name OR OLD.slug IS NOT NEW.slug
BEGIN UPDATE list_versions SET version = random() WHERE list = 'tools_by_name'; END;
CREATE TRIGGER published_comparisons_gain AFTER INSERT ON comparisons
  WHEN NEW.published_on IS NOT NULL
BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
END;
CREATE TRIGGER published_comparisons_lose AFTER DELETE ON comparisons
  WHEN OLD.published_on IS NOT NULL
BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
END;
CREATE TRIGGER published_comparisons_reorder AFTER UPDATE OF published_on ON comparisons
  WHEN OLD.published_on IS NOT NEW.published_on
BEGIN UPDATE list_versions SET version = random() WHERE list = 'published_comparisons';
END;
