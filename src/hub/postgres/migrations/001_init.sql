-- The hub's first schema (PostgreSQL): workspaces, users, hashed tokens, the sources ledger keyed
-- (scope, sha256) with bodies apart from the rows listings read, the arrivals audit, and notes
-- with their versions and a generated tsvector column with a GIN index.
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
-- Ids are ULIDs, compared byte by byte (COLLATE "C") so their order is time order.
CREATE TABLE sources (
  id TEXT COLLATE "C" PRIMARY KEY,
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
  id TEXT COLLATE "C" PRIMARY KEY,
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

-- The 'simple' configuration (no stemming, no stop words) finds what FTS5's unicode61 finds.
ALTER TABLE notes ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')
) STORED;
CREATE INDEX notes_search ON notes USING gin (search);
