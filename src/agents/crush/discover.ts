// Finds Crush sessions: the projects `projects.json` lists, each project's `crush.db`, and in it
// every top-level session (sub-agent and title sessions nest in their parent and are not listed).
// A project whose database is gone is skipped; one that cannot be read is reported, the rest listed.
// Each database's listing is remembered through `fs` while the database is unchanged.
import { basename, dirname, join } from 'node:path';
import { statFileSync } from '../../fs/stat.js';
import { text, type JsonObject } from '../../json/narrow.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { databaseFiles, databaseProblem, type ListedRow, listedRows, rowLocator } from '../sqlite-store.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { databaseName, readProjects } from './layout.js';
import { listSessionRows } from './store.js';

export interface CrushOptions {
  busyTimeoutMs: number;
}

/** The sessions that are listed: those whose parent the database does not hold (normally none). */
export function topLevel(rows: readonly JsonObject[]): JsonObject[] {
  const ids = new Set(rows.map((r) => text(r, 'id')));
  return rows.filter((r) => {
    const parent = text(r, 'parent_session_id');
    return text(r, 'id') !== undefined && (parent === undefined || !ids.has(parent));
  });
}

export function crushSession(home: string, database: string, id: string, files: SessionFile[], cwd: string | undefined): DiscoveredSession {
  return { agent: 'crush', sessionId: id, home, path: rowLocator(database, id), files, ...(cwd === undefined ? {} : { cwd }) };
}

/** The project a data directory belongs to when it is Crush's default `<project>/.crush`. */
export function projectOfDataDir(dataDir: string): string | undefined {
  return basename(dataDir) === '.crush' ? dirname(dataDir) : undefined;
}

export async function discoverCrush(home: string, opts: CrushOptions, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  for (const project of await readProjects(home, problems)) {
    const database = join(project.dataDir, databaseName);
    const main = statFileSync(database);
    if (main === null) continue;
    let rows: ListedRow[];
    try {
      // Only the ids are kept: the working directory is the project's, from `projects.json`.
      rows = await listedRows(fs, main, 'crush:top-level', async () =>
        topLevel(await listSessionRows(database, opts.busyTimeoutMs)).map((r) => ({ id: text(r, 'id') ?? '' })),
      );
    } catch (error) {
      problems.push(databaseProblem(database, error, 'Crush'));
      continue;
    }
    const files = await databaseFiles(database);
    for (const row of rows) sessions.push(crushSession(home, database, row.id, files, project.path));
  }
  return { sessions, problems };
}
