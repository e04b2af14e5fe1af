// A session that is a row of an agent's SQLite store (`<database>#<session id>`), as the database
// readers (Crush, Goose) keep and claim it: kept as one export of its rows, and claimed from a
// database named on the command line by its id or as the newest session there.
import { join, relative } from 'node:path';
import { isRegularFile } from '../fs/stat.js';
import { text, type JsonObject } from '../json/narrow.js';
import { looksLikeSqlite, parseRowLocator } from './sqlite-store.js';
import type { DiscoveredSession, TreeEntry } from './types.js';

/**
 * The custody tree of a session: a database row becomes `<folder>/<id>.jsonl`, produced by
 * `exportOf` from one consistent read when the keep runs; any other session (a kept export, a
 * legacy file) is its own files.
 */
export function rowExportTree(
  session: DiscoveredSession,
  databaseName: string,
  folder: string,
  exportOf: (database: string, sessionId: string) => Promise<Buffer>,
): TreeEntry[] {
  const locator = parseRowLocator(session.path, databaseName);
  if (locator === undefined)
    return session.files.map((f): TreeEntry => ({ relPath: relative(session.home, f.path), kind: 'file', path: f.path }));
  return [
    { relPath: join(folder, `${locator.sessionId}.jsonl`), kind: 'export', produce: () => exportOf(locator.database, locator.sessionId) },
  ];
}

/**
 * The session row a command line names in `database`: the one with `sessionId`, else the newest of
 * the rows `newest` picks from. Null when the file is no SQLite database, cannot be read, or holds
 * no such row (a claim never throws for what it cannot recognise).
 */
export async function claimRow(
  database: string,
  sessionId: string | undefined,
  listRows: (database: string) => Promise<JsonObject[]>,
  newest: (rows: JsonObject[]) => JsonObject | undefined,
): Promise<JsonObject | null> {
  if (!(await isRegularFile(database)) || !(await looksLikeSqlite(database))) return null;
  let rows: JsonObject[];
  try {
    rows = await listRows(database);
  } catch {
    return null;
  }
  return (sessionId !== undefined ? rows.find((r) => text(r, 'id') === sessionId) : newest(rows)) ?? null;
}
