-- the editor's desk. Editors sign in with a password kept as an Argon2id hash; a
-- signed-in browser is a session, of which only a hash of the cookie's secret is kept,
-- so a copy of the database (a backup) signs nobody in. The edit log keeps the editor's
-- address as it was, so it outlives the editor.
CREATE TABLE editors (
  id            INTEGER PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE CHECK (email <> '' AND email = lower(email)),
  password_hash TEXT NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE sessions (
  secret_hash TEXT PRIMARY KEY,
  editor_id   INTEGER NOT NULL REFERENCES editors (id) ON DELETE CASCADE,
  csrf_token  TEXT NOT NULL,
  expires_at  INTEGER NOT NULL -- seconds since 1970
) WITHOUT ROWID;
CREATE INDEX sessions_by_editor ON sessions (editor_id);
CREATE TABLE edit_log (
  id      INTEGER PRIMARY KEY,
  at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  editor  TEXT NOT NULL,
  action  TEXT NOT NULL
    CHECK (action IN ('created', 'updated', 'deleted', 'published', 'unpublished')),
  kind    TEXT NOT NULL,
  subject TEXT NOT NULL,
  before  TEXT, -- JSON; null for a creation
  after   TEXT  -- JSON; null for a deletion
);
-- An address changed at the desk keeps answering: the old slug leads to the new.
CREATE TABLE renamed_slugs (
  kind     TEXT NOT NULL CHECK (kind IN ('tool', 'reviewer', 'category')),
  old_slug TEXT NOT NULL,
  new_slug TEXT NOT NULL,
  PRIMARY KEY (kind, old_slug)
) WITHOUT ROWID;
CREATE INDEX renamed_slugs_by_new ON renamed_slugs (kind, new_slug);
-- The editor's bottom line, shown on the comparison's page.
ALTER TABLE comparisons ADD COLUMN bottom_line TEXT NOT NULL DEFAULT '';
