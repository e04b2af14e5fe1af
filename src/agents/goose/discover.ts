// Finds Goose sessions: every session of `sessions/sessions.db` that holds a message, then each
// legacy `sessions/<id>.jsonl` the database does not hold (Goose imports them once, leaving the
// files). A database that cannot be read is reported and the legacy files are still listed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { text, type JsonObject } from '../../json/narrow.js';
import { databaseFiles, databaseProblem, rowLocator } from '../sqlite-store.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { databaseName, sessionsDir } from './layout.js';
import { legacyId, readLegacyHeader } from './legacy.js';
import { listSessionRows } from './store.js';

export interface GooseOptions {
  busyTimeoutMs: number;
}

export function databaseSession(home: string, database: string, row: JsonObject, files: SessionFile[]): DiscoveredSession {
  const id = text(row, 'id') ?? '';
  const cwd = text(row, 'working_dir');
  return { agent: 'goose', sessionId: id, home, path: rowLocator(database, id), files, ...(cwd === undefined ? {} : { cwd }) };
}

export async function legacySession(home: string, path: string): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const cwd = text(await readLegacyHeader(path), 'working_dir');
  return { agent: 'goose', sessionId: legacyId(path), home, path, files: [file], ...(cwd === undefined ? {} : { cwd }) };
}

export async function discoverGoose(home: string, opts: GooseOptions): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const dir = sessionsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return { sessions, problems };
  }
  const inDatabase = new Set<string>();
  if (names.includes(databaseName)) {
    const database = join(dir, databaseName);
    try {
      const rows = await listSessionRows(database, opts.busyTimeoutMs);
      const files = await databaseFiles(database);
      for (const row of rows) {
        const s = databaseSession(home, database, row, files);
        inDatabase.add(s.sessionId);
        sessions.push(s);
      }
    } catch (error) {
      problems.push(databaseProblem(database, error, 'Goose'));
    }
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl') || inDatabase.has(legacyId(name))) continue;
    try {
      const s = await legacySession(home, join(dir, name));
      if (s !== null) sessions.push(s);
    } catch (error) {
      problems.push({ path: join(dir, name), kind: 'unreadable', reason: errorMessage(error) });
    }
  }
  return { sessions, problems };
}
