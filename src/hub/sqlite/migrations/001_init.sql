-- The hub's first schema (SQLite): workspaces, users, hashed tokens, the sources ledger keyed
-- (scope, sha256) with bodies apart from the rows listings read, the arrivals audit, and notes
-- with their versions and an FTS5 index kept by triggers.
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  created_at TEXT NOT NULL
);

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX tokens_user ON tokens (user_id);

-- scope_key: 'u:<user id>' (personal) or 'w:<workspace id>' (shared).
CREATE TABLE sources (
  id TEXT PRIMARY KEY,
  scope_key TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  owner_id TEXT NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  project TEXT,
  agent TEXT,
  session_id TEXT,
  started_at TEXT,
  sha256 TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (scope_key, sha256)
);
CREATE INDEX sources_scope_id ON sources (scope_key, id);
CREATE INDEX sources_scope_project ON sources (scope_key, project, id);
CREATE INDEX sources_scope_agent ON sources (scope_key, agent, id);

CREATE TABLE source_bodies (
  source_id TEXT PRIMARY KEY REFERENCES sources (id),
  body TEXT NOT NULL
);

-- Every upload, new or not: who sent what, when, and what redaction on arrival found.
CREATE TABLE arrivals (
  id TEXT PRIMARY KEY,
  source_id TEXT NOT NULL REFERENCES sources (id),
  user_id TEXT NOT NULL REFERENCES users (id),
  created INTEGER NOT NULL,
  redactions INTEGER NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX arrivals_source ON arrivals (source_id);

CREATE TABLE notes (
  id TEXT NOT NULL UNIQUE,
  scope_key TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  owner_id TEXT NOT NULL REFERENCES users (id),
  slug TEXT NOT NULL,
  title TEXT NOT NULL,
  project TEXT,
  body TEXT NOT NULL,
  version INTEGER NOT NULL,
  author TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (scope_key, slug)
);
CREATE INDEX notes_scope_project ON notes (scope_key, project);

CREATE TABLE note_versions (
  note_id TEXT NOT NULL REFERENCES notes (id),
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  project TEXT,
  body TEXT NOT NULL,
  author TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users (id),
  at TEXT NOT NULL,
  PRIMARY KEY (note_id, version)
);

CREATE VIRTUAL TABLE notes_fts USING fts5 (
  title, body, content = 'notes', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts (rowid, title, body) VALUES (new.rowid, new.title, new.body);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE OF title, body ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
  INSERT INTO notes_fts (rowid, title, body) VALUES (new.rowid, new.title, new.body);
END;
