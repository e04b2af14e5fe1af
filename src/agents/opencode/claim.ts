// Recognises an OpenCode session named on the command line: a JSON-tree session file, a database
// (its most recently updated top-level session), `<database>#<session id>`, or an agentlog export.
import { dirname } from 'node:path';
import { num, obj, text, type JsonObject } from '../../json/narrow.js';
import { statFile } from '../../fs/stat.js';
import type { DiscoveredSession } from '../types.js';
import { databaseFiles, databaseSession, listedOf, treeSession, type OpencodeOptions } from './discover.js';
import { readExportHeader } from './export.js';
import { maxSessionFileBytes, readJsonFile } from './json-file.js';
import { scanJsonTree, storageOf } from './json-tree.js';
import { parseDatabaseLocator } from './locator.js';
import { sessionFromJson } from './model.js';
import { splitRoots } from './session-roots.js';
import { listDatabaseSessions } from './sqlite.js';
import { looksLikeSqlite } from '../sqlite-store.js';
import { isRegularFile } from '../../fs/stat.js';

/** A session file: an id, a directory or project, and a creation time, but no message role. */
function isSessionInfo(value: JsonObject): boolean {
  return (
    text(value, 'id') !== undefined &&
    (text(value, 'directory') !== undefined || text(value, 'projectID') !== undefined) &&
    num(obj(value, 'time'), 'created') !== undefined &&
    value.role === undefined
  );
}

async function claimDatabase(database: string, sessionId: string | undefined, opts: OpencodeOptions): Promise<DiscoveredSession | null> {
  if (!(await isRegularFile(database)) || !(await looksLikeSqlite(database))) return null;
  let sessions;
  try {
    sessions = await listDatabaseSessions(database, opts.busyTimeoutMs);
  } catch {
    return null;
  }
  const chosen =
    sessionId !== undefined
      ? sessions.find((s) => s.id === sessionId)
      : splitRoots(sessions, (s) => s).roots.sort((a, b) => (b.updatedMs ?? 0) - (a.updatedMs ?? 0))[0];
  if (chosen === undefined) return null;
  return databaseSession(dirname(database), database, listedOf(chosen), await databaseFiles(database));
}

async function claimSessionFile(path: string): Promise<DiscoveredSession | null> {
  const r = await readJsonFile(path, maxSessionFileBytes);
  if (!('value' in r) || !isSessionInfo(r.value)) return null;
  const storage = storageOf(path);
  if (storage !== undefined) {
    const scanned = await scanJsonTree(storage);
    const self = scanned.sessions.find((t) => t.files[0]?.path === path);
    if (self !== undefined) {
      // Named directly, a child session is read on its own, with its own children nested.
      const { childrenOf } = splitRoots(scanned.sessions, (t) => t.session);
      return treeSession(dirname(storage), self, childrenOf);
    }
  }
  const file = await statFile(path);
  if (file === null) return null;
  const session = sessionFromJson(r.value, path);
  return { agent: 'opencode', sessionId: session.id, home: dirname(path), path, files: [file] };
}

export async function claimOpencode(path: string, opts: OpencodeOptions): Promise<DiscoveredSession | null> {
  const locator = parseDatabaseLocator(path);
  if (locator !== undefined) return claimDatabase(locator.database, locator.sessionId, opts);
  if (!(await isRegularFile(path))) return null;
  try {
    if (/\.db$/i.test(path)) return await claimDatabase(path, undefined, opts);
    if (/\.jsonl$/i.test(path)) {
      const header = await readExportHeader(path);
      const file = header === undefined ? null : await statFile(path);
      if (header === undefined || file === null) return null;
      return { agent: 'opencode', sessionId: header.session_id, home: dirname(path), path, files: [file] };
    }
    if (/\.json$/i.test(path)) return await claimSessionFile(path);
  } catch {
    return null;
  }
  return null;
}
