// Test fixtures: Goose's `sessions/sessions.db` with the schema `create_schema` builds (session/
// storage.rs at commit 865e4a03, schema version 13), and legacy `sessions/<id>.jsonl` files.
import type Database from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withWriter } from '../../../../test/support/sqlite.js';

export const gooseSchema = `
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
INSERT OR IGNORE INTO schema_version (version) VALUES (13);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    accumulated_cost REAL,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto',
    archived_at TIMESTAMP,
    project_id TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id);
CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id);
CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type);
`;

export type GooseContent = Record<string, unknown>;

export interface GooseMessageFixture {
  id: string;
  role: 'user' | 'assistant';
  /** Epoch seconds (`Message.created`). */
  created: number;
  content: GooseContent[];
  userVisible?: boolean;
}

export interface GooseSessionFixture {
  id: string;
  name: string;
  workingDir: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC, as SQLite's CURRENT_TIMESTAMP writes it. */
  createdAt: string;
  type?: string;
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
  model?: string;
  messages: GooseMessageFixture[];
}

export const text = (t: string): GooseContent => ({ type: 'text', text: t });
export const thinking = (t: string): GooseContent => ({ type: 'thinking', thinking: t, signature: 'sig' });
export const toolRequest = (id: string, name: string, args: Record<string, unknown>): GooseContent => ({
  type: 'toolRequest',
  id,
  toolCall: { status: 'success', value: { name, arguments: args } },
});
export const toolResponse = (id: string, output: string, isError = false): GooseContent => ({
  type: 'toolResponse',
  id,
  toolResult: { status: 'success', value: { content: [{ type: 'text', text: output }], isError } },
});
export const notification = (msg: string): GooseContent => ({ type: 'systemNotification', notificationType: 'inlineMessage', msg });

export const user = (id: string, created: number, words: string): GooseMessageFixture => ({
  id,
  role: 'user',
  created,
  content: [text(words)],
});
export const assistant = (id: string, created: number, content: GooseContent[]): GooseMessageFixture => ({
  id,
  role: 'assistant',
  created,
  content,
});

const metadataOf = (m: GooseMessageFixture) => JSON.stringify({ userVisible: m.userVisible ?? true, agentVisible: true });

/** Creates `<home>/sessions/sessions.db` (WAL, as Goose runs it) with the sessions given; answers its path. */
export async function writeGooseDatabase(home: string, sessions: readonly GooseSessionFixture[]): Promise<string> {
  const dir = join(home, 'sessions');
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'sessions.db');
  withWriter(path, (db) => {
    db.pragma('journal_mode = wal');
    db.exec(gooseSchema);
    insertGooseSessions(db, sessions);
  });
  return path;
}

/** Inserts the sessions with their messages, in one transaction, into a database of this schema. */
export function insertGooseSessions(db: Database.Database, sessions: readonly GooseSessionFixture[]): void {
  const addSession = db.prepare(
    `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data,
       total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens,
       accumulated_cost, provider_name, model_config_json, goose_mode)
     VALUES (?, ?, FALSE, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, 'anthropic', ?, 'auto')`,
  );
  const addMessage = db.prepare(
    'INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const s of sessions) {
      const input = s.inputTokens ?? 0;
      const output = s.outputTokens ?? 0;
      addSession.run(
        s.id,
        s.name,
        s.type ?? 'user',
        s.workingDir,
        s.createdAt,
        s.createdAt,
        Math.min(input + output, 5000),
        Math.min(input, 4000),
        Math.min(output, 1000),
        input + output,
        input,
        output,
        s.cost ?? null,
        JSON.stringify({ model_name: s.model ?? 'claude-sonnet-4-5', context_limit: 200000, temperature: null, max_tokens: null }),
      );
      for (const m of s.messages) addMessage.run(m.id, s.id, m.role, JSON.stringify(m.content), m.created, metadataOf(m));
    }
  })();
}

/** Writes a legacy `<home>/sessions/<id>.jsonl`: the metadata line, then one message per line. */
export async function writeLegacySession(home: string, s: GooseSessionFixture): Promise<string> {
  const dir = join(home, 'sessions');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${s.id}.jsonl`);
  const meta = {
    working_dir: s.workingDir,
    description: s.name,
    schedule_id: null,
    message_count: s.messages.length,
    total_tokens: null,
    input_tokens: null,
    output_tokens: null,
    accumulated_total_tokens: (s.inputTokens ?? 0) + (s.outputTokens ?? 0),
    accumulated_input_tokens: s.inputTokens ?? 0,
    accumulated_output_tokens: s.outputTokens ?? 0,
  };
  const lines = [
    meta,
    ...s.messages.map((m) => ({ role: m.role, created: m.created, content: m.content, metadata: JSON.parse(metadataOf(m)) })),
  ];
  await writeFile(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
}
