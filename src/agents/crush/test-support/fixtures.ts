// Test fixtures: Crush's `crush.db` with the schema its migrations build (internal/db/migrations,
// 20250424200609 … 20260127000000, commit 37f36e93), the rows Crush writes, and `projects.json`.
import type Database from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withWriter } from '../../../../test/support/sqlite.js';

/** The schema after every migration, as `goose up` leaves it (triggers included). */
export const crushSchema = `
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at AFTER UPDATE ON sessions
BEGIN UPDATE sessions SET updated_at = strftime('%s', 'now') WHERE id = new.id; END;
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);
CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert AFTER INSERT ON messages
BEGIN UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id; END;
ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
ALTER TABLE messages ADD COLUMN provider TEXT;
ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE sessions ADD COLUMN todos TEXT;
CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);
`;

export interface CrushPartFixture {
  type: 'text' | 'reasoning' | 'tool_call' | 'tool_result' | 'finish' | 'shell_command' | 'binary' | 'image_url';
  data: Record<string, unknown>;
}

export interface CrushMessageFixture {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  /** Epoch seconds, as Crush's `strftime('%s', 'now')` writes them. */
  at: number;
  parts: CrushPartFixture[];
  model?: string;
  summary?: boolean;
}

export interface CrushSessionFixture {
  id: string;
  parentId?: string;
  title: string;
  at: number;
  promptTokens?: number;
  completionTokens?: number;
  cost?: number;
  messages: CrushMessageFixture[];
}

export const text = (t: string): CrushPartFixture => ({ type: 'text', data: { text: t } });
export const finish = (reason: string, time: number, message?: string): CrushPartFixture => ({
  type: 'finish',
  data: { reason, time, ...(message === undefined ? {} : { message }) },
});
export const toolCall = (id: string, name: string, input: Record<string, unknown>): CrushPartFixture => ({
  type: 'tool_call',
  data: { id, name, input: JSON.stringify(input), provider_executed: false, finished: true },
});
export const toolResult = (id: string, name: string, content: string, isError = false): CrushPartFixture => ({
  type: 'tool_result',
  data: { tool_call_id: id, name, content, data: '', mime_type: '', metadata: '', is_error: isError },
});
export const reasoning = (t: string): CrushPartFixture => ({
  type: 'reasoning',
  data: { thinking: t, signature: 'sig', started_at: 1, finished_at: 2 },
});

export function user(id: string, at: number, words: string): CrushMessageFixture {
  return { id, role: 'user', at, parts: [text(words)] };
}

export function assistant(id: string, at: number, parts: CrushPartFixture[], model = 'claude-sonnet-4-5'): CrushMessageFixture {
  return {
    id,
    role: 'assistant',
    at,
    parts: [...parts, finish(parts.some((p) => p.type === 'tool_call') ? 'tool_use' : 'end_turn', at + 1)],
    model,
  };
}

/** Creates `path` with Crush's schema (WAL, as Crush runs it) and the sessions given. */
export function writeCrushDatabase(path: string, sessions: readonly CrushSessionFixture[]): void {
  withWriter(path, (db) => {
    db.pragma('journal_mode = wal');
    db.exec(crushSchema);
    insertCrushSessions(db, sessions);
  });
}

/** Inserts the sessions with their messages, in one transaction, into a database of this schema. */
export function insertCrushSessions(db: Database.Database, sessions: readonly CrushSessionFixture[]): void {
  const addSession = db.prepare(
    'INSERT INTO sessions (id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, summary_message_id, updated_at, created_at) VALUES (?, ?, ?, 0, ?, ?, ?, NULL, ?, ?)',
  );
  const addMessage = db.prepare(
    'INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const s of sessions) {
      addSession.run(s.id, s.parentId ?? null, s.title, s.promptTokens ?? 0, s.completionTokens ?? 0, s.cost ?? 0, s.at, s.at);
      for (const m of s.messages) {
        const finished = m.parts.find((p) => p.type === 'finish');
        addMessage.run(
          m.id,
          s.id,
          m.role,
          JSON.stringify(m.parts),
          m.model ?? null,
          m.model === undefined ? null : 'anthropic',
          m.summary === true ? 1 : 0,
          m.at,
          m.at,
          finished === undefined ? null : m.at + 1,
        );
      }
    }
  })();
}

/** Writes `projects.json` in Crush's global data directory (internal/projects/projects.go). */
export async function writeProjects(home: string, projects: readonly { path: string; dataDir: string }[]): Promise<void> {
  await mkdir(home, { recursive: true });
  const list = projects.map((p) => ({ path: p.path, data_dir: p.dataDir, last_accessed: '2026-10-01T10:00:00Z' }));
  await writeFile(join(home, 'projects.json'), JSON.stringify({ projects: list }, null, 2));
}

/** One project: its `.crush/crush.db` holding the sessions, and its line in `projects.json`. */
export async function writeCrushProject(
  home: string,
  project: string,
  sessions: readonly CrushSessionFixture[],
  others: readonly string[] = [],
): Promise<string> {
  const database = join(project, '.crush', 'crush.db');
  await mkdir(dirname(database), { recursive: true });
  writeCrushDatabase(database, sessions);
  await writeProjects(
    home,
    [project, ...others].map((p) => ({ path: p, dataDir: join(p, '.crush') })),
  );
  return database;
}
