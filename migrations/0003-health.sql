-- one row that /healthz rewrites to prove a write still reaches the disk.
CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at TEXT NOT NULL);
