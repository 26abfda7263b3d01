-- Verdict's database, schema version 1. The rules of the content model live here as well as in
-- the code: verdicts are ship or skip, one vote per voter per tool and per pair, and every
-- tally a page shows is a counter kept up to date by triggers inside the writing transaction,
-- so reading a page never counts rows.

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE categories (
  id   INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
  name TEXT NOT NULL CHECK (name <> '')
);

CREATE TABLE tools (
  id                 INTEGER PRIMARY KEY,
  slug               TEXT NOT NULL UNIQUE CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
  name               TEXT NOT NULL CHECK (name <> ''),
  category_id        INTEGER NOT NULL REFERENCES categories (id),
  tagline            TEXT NOT NULL,
  description        TEXT NOT NULL,
  entry              TEXT NOT NULL CHECK (entry IN ('Free', 'Paid', 'Freemium', 'Open weights')),
  vendor             TEXT NOT NULL DEFAULT '',
  url                TEXT NOT NULL DEFAULT '',
  pricing_notes      TEXT NOT NULL DEFAULT '',
  pricing_checked_on TEXT CHECK (pricing_checked_on IS NULL OR date(pricing_checked_on) = pricing_checked_on),
  pricing_source     TEXT NOT NULL DEFAULT '',
  panel_ships        INTEGER NOT NULL DEFAULT 0 CHECK (panel_ships >= 0),
  panel_reviews      INTEGER NOT NULL DEFAULT 0 CHECK (panel_reviews >= panel_ships),
  community_ships    INTEGER NOT NULL DEFAULT 0 CHECK (community_ships >= 0),
  community_votes    INTEGER NOT NULL DEFAULT 0 CHECK (community_votes >= community_ships)
);
CREATE INDEX tools_by_name ON tools (name, slug);
CREATE INDEX tools_by_category ON tools (category_id, name);

CREATE TABLE reviewers (
  id          INTEGER PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
  name        TEXT NOT NULL CHECK (name <> ''),
  lens        TEXT NOT NULL CHECK (lens <> ''),
  bio         TEXT NOT NULL DEFAULT '',
  panel_order INTEGER NOT NULL, -- a tool's reviews are shown in this order
  ships       INTEGER NOT NULL DEFAULT 0,
  reviews     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE reviews (
  id          INTEGER PRIMARY KEY,
  tool_id     INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  reviewer_id INTEGER NOT NULL REFERENCES reviewers (id) ON DELETE CASCADE,
  verdict     TEXT NOT NULL CHECK (verdict IN ('ship', 'skip')),
  quote       TEXT NOT NULL CHECK (quote <> ''),
  UNIQUE (tool_id, reviewer_id)
);
CREATE INDEX reviews_by_reviewer ON reviews (reviewer_id);

CREATE TRIGGER review_counted AFTER INSERT ON reviews BEGIN
  UPDATE tools SET panel_reviews = panel_reviews + 1,
                   panel_ships = panel_ships + (NEW.verdict = 'ship') WHERE id = NEW.tool_id;
  UPDATE reviewers SET reviews = reviews + 1,
                       ships = ships + (NEW.verdict = 'ship') WHERE id = NEW.reviewer_id;
END;
CREATE TRIGGER review_uncounted AFTER DELETE ON reviews BEGIN
  UPDATE tools SET panel_reviews = panel_reviews - 1,
                   panel_ships = panel_ships - (OLD.verdict = 'ship') WHERE id = OLD.tool_id;
  UPDATE reviewers SET reviews = reviews - 1,
                       ships = ships - (OLD.verdict = 'ship') WHERE id = OLD.reviewer_id;
END;
CREATE TRIGGER review_recounted AFTER UPDATE OF verdict, tool_id, reviewer_id ON reviews BEGIN
  UPDATE tools SET panel_reviews = panel_reviews - 1,
                   panel_ships = panel_ships - (OLD.verdict = 'ship') WHERE id = OLD.tool_id;
  UPDATE reviewers SET reviews = reviews - 1,
                       ships = ships - (OLD.verdict = 'ship') WHERE id = OLD.reviewer_id;
  UPDATE tools SET panel_reviews = panel_reviews + 1,
                   panel_ships = panel_ships + (NEW.verdict = 'ship') WHERE id = NEW.tool_id;
  UPDATE reviewers SET reviews = reviews + 1,
                       ships = ships + (NEW.verdict = 'ship') WHERE id = NEW.reviewer_id;
END;

-- One row per unordered pair of tools; the row's order is the order the editor published.
CREATE TABLE comparisons (
  id           INTEGER PRIMARY KEY,
  tool_a_id    INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  tool_b_id    INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  published_on TEXT CHECK (published_on IS NULL OR date(published_on) = published_on),
  intro        TEXT NOT NULL DEFAULT '',
  CHECK (tool_a_id <> tool_b_id)
);
CREATE UNIQUE INDEX comparisons_by_pair
  ON comparisons (min(tool_a_id, tool_b_id), max(tool_a_id, tool_b_id));
CREATE INDEX comparisons_by_b ON comparisons (tool_b_id);
CREATE INDEX comparisons_by_a ON comparisons (tool_a_id);
CREATE INDEX comparisons_by_date ON comparisons (published_on) WHERE published_on IS NOT NULL;

-- A reader's ship/skip on a tool. The voter is the random id from their cookie.
CREATE TABLE tool_votes (
  voter   TEXT NOT NULL CHECK (length(voter) = 32),
  tool_id INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  verdict TEXT NOT NULL CHECK (verdict IN ('ship', 'skip')),
  cast_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (voter, tool_id)
) WITHOUT ROWID;

CREATE TRIGGER tool_vote_counted AFTER INSERT ON tool_votes BEGIN
  UPDATE tools SET community_votes = community_votes + 1,
                   community_ships = community_ships + (NEW.verdict = 'ship') WHERE id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_recounted AFTER UPDATE OF verdict ON tool_votes BEGIN
  UPDATE tools SET community_ships = community_ships - (OLD.verdict = 'ship') + (NEW.verdict = 'ship')
   WHERE id = NEW.tool_id;
END;
CREATE TRIGGER tool_vote_uncounted AFTER DELETE ON tool_votes BEGIN
  UPDATE tools SET community_votes = community_votes - 1,
                   community_ships = community_ships - (OLD.verdict = 'ship') WHERE id = OLD.tool_id;
END;

-- A reader's head-to-head pick. Stored by the pair's ids in ascending order so the vote
-- survives the editor publishing the pair in either order.
CREATE TABLE pair_votes (
  voter        TEXT NOT NULL CHECK (length(voter) = 32),
  low_tool_id  INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  high_tool_id INTEGER NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  pick_tool_id INTEGER NOT NULL CHECK (pick_tool_id IN (low_tool_id, high_tool_id)),
  cast_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  CHECK (low_tool_id < high_tool_id),
  PRIMARY KEY (voter, low_tool_id, high_tool_id)
) WITHOUT ROWID;

CREATE TABLE pair_tallies (
  low_tool_id  INTEGER NOT NULL,
  high_tool_id INTEGER NOT NULL,
  low_picks    INTEGER NOT NULL DEFAULT 0 CHECK (low_picks >= 0),
  high_picks   INTEGER NOT NULL DEFAULT 0 CHECK (high_picks >= 0),
  PRIMARY KEY (low_tool_id, high_tool_id)
) WITHOUT ROWID;

CREATE TRIGGER pair_vote_counted AFTER INSERT ON pair_votes BEGIN
  INSERT INTO pair_tallies (low_tool_id, high_tool_id, low_picks, high_picks)
  VALUES (NEW.low_tool_id, NEW.high_tool_id,
          NEW.pick_tool_id = NEW.low_tool_id, NEW.pick_tool_id = NEW.high_tool_id)
  ON CONFLICT (low_tool_id, high_tool_id) DO UPDATE
    SET low_picks = low_picks + excluded.low_picks, high_picks = high_picks + excluded.high_picks;
END;
CREATE TRIGGER pair_vote_recounted AFTER UPDATE OF pick_tool_id ON pair_votes BEGIN
  UPDATE pair_tallies
     SET low_picks = low_picks - (OLD.pick_tool_id = OLD.low_tool_id) + (NEW.pick_tool_id = NEW.low_tool_id),
         high_picks = high_picks - (OLD.pick_tool_id = OLD.high_tool_id) + (NEW.pick_tool_id = NEW.high_tool_id)
   WHERE low_tool_id = NEW.low_tool_id AND high_tool_id = NEW.high_tool_id;
END;
CREATE TRIGGER pair_vote_uncounted AFTER DELETE ON pair_votes BEGIN
  UPDATE pair_tallies
     SET low_picks = low_picks - (OLD.pick_tool_id = OLD.low_tool_id),
         high_picks = high_picks - (OLD.pick_tool_id = OLD.high_tool_id)
   WHERE low_tool_id = OLD.low_tool_id AND high_tool_id = OLD.high_tool_id;
END;

CREATE TABLE subscribers (
  id            INTEGER PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 254),
  subscribed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
