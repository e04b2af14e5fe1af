// Test fixtures: one OpenCode session description written either as a SQLite database with the
// schema of OpenCode v1.2's first migration, or as the JSON tree under `storage/`.
import type Database from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withWriter } from '../../../../test/support/sqlite.js';

export interface FixturePart {
  id: string;
  /** The part without its ids, as the database's `data` column holds it. */
  data: Record<string, unknown>;
}

export interface FixtureMessage {
  id: string;
  created: number;
  /** The message info without its ids (`role`, `time`, `modelID`, `tokens`…). */
  data: Record<string, unknown>;
  parts: FixturePart[];
}

export interface FixtureSession {
  id: string;
  parentId?: string;
  directory: string;
  title: string;
  created: number;
  updated: number;
  messages: FixtureMessage[];
}

/** The tables OpenCode reads sessions from, as its first SQLite migration creates them. */
export const opencodeSchema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_color text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL,
  title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer,
  summary_files integer, summary_diffs text, revert text, permission text, time_created integer NOT NULL,
  time_updated integer NOT NULL, time_compacting integer, time_archived integer,
  CONSTRAINT fk_session_project_id_project_id_fk FOREIGN KEY (project_id) REFERENCES project(id) ON DELETE CASCADE);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL,
  data text NOT NULL, CONSTRAINT fk_message_session_id_session_id_fk FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL,
  CONSTRAINT fk_part_message_id_message_id_fk FOREIGN KEY (message_id) REFERENCES message(id) ON DELETE CASCADE);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_project_idx ON session (project_id);
CREATE INDEX session_parent_idx ON session (parent_id);
`;

/** Creates `path` with OpenCode's schema and the sessions given (WAL, as OpenCode runs it; UTF-8 unless told). */
export function writeDatabase(
  path: string,
  sessions: readonly FixtureSession[],
  journal: 'wal' | 'delete' = 'wal',
  encoding: 'UTF-8' | 'UTF-16le' = 'UTF-8',
): void {
  withWriter(path, (db) => {
    db.pragma(`encoding = '${encoding}'`);
    db.pragma(`journal_mode = ${journal}`);
    db.exec(opencodeSchema);
    db.prepare("INSERT INTO project VALUES ('proj', '/work', 'git', NULL, NULL, NULL, 1, 1, NULL, '[]')").run();
    insertSessions(db, sessions);
  });
}

/** Inserts the sessions with their messages, in one transaction, into a database of this schema. */
export function insertSessions(db: Database.Database, sessions: readonly FixtureSession[]): void {
  const addSession = db.prepare(
    'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const addMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const addPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const s of sessions) {
      addSession.run(s.id, 'proj', s.parentId ?? null, s.id.toLowerCase(), s.directory, s.title, '1.2.0', s.created, s.updated);
      for (const m of s.messages) {
        addMessage.run(m.id, s.id, m.created, m.created, JSON.stringify(m.data));
        for (const p of m.parts) addPart.run(p.id, m.id, s.id, m.created, m.created, JSON.stringify(p.data));
      }
    }
  })();
}

/** Writes the sessions as OpenCode's JSON tree under `storage` (parts in per-message folders). */
export async function writeJsonTree(storage: string, sessions: readonly FixtureSession[]): Promise<void> {
  for (const s of sessions) {
    const sessionDir = join(storage, 'session', 'proj');
    await mkdir(sessionDir, { recursive: true });
    const info = {
      id: s.id,
      version: '1.1.0',
      projectID: 'proj',
      directory: s.directory,
      ...(s.parentId === undefined ? {} : { parentID: s.parentId }),
      title: s.title,
      time: { created: s.created, updated: s.updated },
    };
    await writeFile(join(sessionDir, `${s.id}.json`), JSON.stringify(info));
    const messageDir = join(storage, 'message', s.id);
    await mkdir(messageDir, { recursive: true });
    for (const m of s.messages) {
      await writeFile(join(messageDir, `${m.id}.json`), JSON.stringify({ id: m.id, sessionID: s.id, ...m.data }));
      const partDir = join(storage, 'part', m.id);
      await mkdir(partDir, { recursive: true });
      for (const p of m.parts)
        await writeFile(join(partDir, `${p.id}.json`), JSON.stringify({ id: p.id, sessionID: s.id, messageID: m.id, ...p.data }));
    }
  }
}

/** A user message with one text part. */
export function userMessage(id: string, created: number, words: string): FixtureMessage {
  return {
    id,
    created,
    data: { role: 'user', time: { created }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } },
    parts: [{ id: `prt_${id}_1`, data: { type: 'text', text: words } }],
  };
}

/** An assistant message stating its usage, with the parts given. */
export function assistantMessage(id: string, created: number, parts: FixturePart[], extra: Record<string, unknown> = {}): FixtureMessage {
  return {
    id,
    created,
    data: {
      role: 'assistant',
      time: { created, completed: created + 500 },
      modelID: 'claude-sonnet-4',
      providerID: 'anthropic',
      mode: 'build',
      agent: 'build',
      path: { cwd: '/work/app', root: '/work/app' },
      cost: 0.01,
      tokens: { input: 100, output: 20, reasoning: 5, cache: { read: 50, write: 10 } },
      finish: 'stop',
      ...extra,
    },
    parts,
  };
}
