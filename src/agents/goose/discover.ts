// Finds Goose sessions: every session of `sessions/sessions.db` that holds a message, then each
// legacy `sessions/<id>.jsonl` the database does not hold (Goose imports them once, leaving the
// files). A database that cannot be read is reported and the legacy files are still listed. The
// listing and each legacy file's working directory are remembered through `fs` while unchanged.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { text, type JsonObject } from '../../json/narrow.js';
import { decodeCwd } from '../remembered-cwd.js';
import { databaseFiles, databaseProblem, type ListedRow, listedRows, rowLocator } from '../sqlite-store.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { databaseName, sessionsDir } from './layout.js';
import { legacyId, readLegacyHeader } from './legacy.js';
import { listSessionRows } from './store.js';

export interface GooseOptions {
  busyTimeoutMs: number;
}

/** What discovery keeps of a session row: its id and working directory. */
export function listedOf(row: JsonObject): ListedRow {
  const cwd = text(row, 'working_dir');
  return { id: text(row, 'id') ?? '', ...(cwd === undefined ? {} : { cwd }) };
}

export function databaseSession(home: string, database: string, row: ListedRow, files: SessionFile[]): DiscoveredSession {
  return {
    agent: 'goose',
    sessionId: row.id,
    home,
    path: rowLocator(database, row.id),
    files,
    ...(row.cwd === undefined ? {} : { cwd: row.cwd }),
  };
}

export async function legacySession(home: string, path: string, fs: DiscoveryFs = uncachedFs): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const { cwd } = await fs.derive(file, 'goose:legacy-cwd', decodeCwd, async () => ({
    cwd: text(await readLegacyHeader(path), 'working_dir') ?? null,
  }));
  return { agent: 'goose', sessionId: legacyId(path), home, path, files: [file], ...(cwd === null ? {} : { cwd }) };
}

export async function discoverGoose(home: string, opts: GooseOptions, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
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
      const rows = await listedRows(fs, database, 'goose:sessions', async () =>
        (await listSessionRows(database, opts.busyTimeoutMs)).map(listedOf),
      );
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
      const s = await legacySession(home, join(dir, name), fs);
      if (s !== null) sessions.push(s);
    } catch (error) {
      problems.push({ path: join(dir, name), kind: 'unreadable', reason: errorMessage(error) });
    }
  }
  return { sessions, problems };
}
