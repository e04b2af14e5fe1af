// Finds OpenCode sessions under a home: the SQLite databases first, then the JSON tree, each
// session once (a session both hold is read from the database, which is where OpenCode moved it
// in v1.2, leaving the JSON files behind). Child sessions nest in their parent and are not listed.
// Each database's listing is remembered through `fs` while the database is unchanged.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { databaseFiles, type ListedRow, listedRows } from '../sqlite-store.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { scanJsonTree, type TreeSession } from './json-tree.js';
import { databaseLocator } from './locator.js';
import type { OcSession } from './model.js';
import { splitRoots, withDescendants } from './session-roots.js';
import { databaseName, databaseProblem, listDatabaseSessions } from './sqlite.js';

export interface OpencodeOptions {
  /** How long a database read waits for a writer's lock. */
  busyTimeoutMs: number;
}

/** The database's files: the database and its write-ahead log, whose growth is the change. */
export { databaseFiles };

/** What discovery keeps of a database session: its id, its parent, its directory. */
export function listedOf(session: OcSession): ListedRow {
  return {
    id: session.id,
    ...(session.parentId === undefined ? {} : { parentId: session.parentId }),
    ...(session.directory === undefined ? {} : { cwd: session.directory }),
  };
}

export function databaseSession(home: string, database: string, row: ListedRow, files: SessionFile[]): DiscoveredSession {
  return {
    agent: 'opencode',
    sessionId: row.id,
    home,
    path: databaseLocator(database, row.id),
    files,
    ...(row.cwd === undefined ? {} : { cwd: row.cwd }),
  };
}

export function treeSession(home: string, root: TreeSession, childrenOf: Map<string, TreeSession[]>): DiscoveredSession {
  const all = withDescendants(root, childrenOf, (t) => t.session);
  const main = root.files[0];
  return {
    agent: 'opencode',
    sessionId: root.session.id,
    home,
    path: main?.path ?? '',
    files: all.flatMap((t) => t.files),
    ...(root.session.directory === undefined ? {} : { cwd: root.session.directory }),
  };
}

async function databaseNames(home: string, problems: FileProblem[]): Promise<string[]> {
  try {
    const names = readdirSync(home)
      .filter((n) => databaseName.test(n))
      .sort();
    // The default channel's database first, so it wins a session another channel also holds.
    return [...names.filter((n) => n === 'opencode.db'), ...names.filter((n) => n !== 'opencode.db')];
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: home, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

export async function discoverOpencode(home: string, opts: OpencodeOptions, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const inDatabase = new Set<string>();
  for (const name of await databaseNames(home, problems)) {
    const path = join(home, name);
    let listed: ListedRow[];
    try {
      listed = await listedRows(fs, path, 'opencode:sessions', async () =>
        (await listDatabaseSessions(path, opts.busyTimeoutMs)).map(listedOf),
      );
    } catch (error) {
      problems.push(databaseProblem(path, error));
      continue;
    }
    const fresh = listed.filter((s) => !inDatabase.has(s.id));
    for (const s of fresh) inDatabase.add(s.id);
    const files = await databaseFiles(path);
    for (const root of splitRoots(fresh, (s) => s).roots) sessions.push(databaseSession(home, path, root, files));
  }

  const tree = await scanJsonTree(join(home, 'storage'), fs, inDatabase);
  problems.push(...tree.problems);
  const { roots, childrenOf } = splitRoots(tree.sessions, (t) => t.session);
  for (const root of roots) sessions.push(treeSession(home, root, childrenOf));
  return { sessions, problems };
}
