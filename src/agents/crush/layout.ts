// Where Crush keeps things: its global data directory (`$CRUSH_GLOBAL_DATA`, else
// `$XDG_DATA_HOME/crush`, else `~/.local/share/crush`) holds `projects.json`, the list of every
// project Crush ran in with its data directory; each data directory holds that project's
// `crush.db` (internal/projects/projects.go, since v0.25.0; earlier versions kept no list).
import { join, resolve } from 'node:path';
import { readRegularFile } from '../../fs/read-open.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { arr, asObject, text } from '../../json/narrow.js';
import type { FileProblem, HomeLookup } from '../types.js';

export const databaseName = 'crush.db';
export const projectsFileName = 'projects.json';

export function crushHomes(lookup: HomeLookup): string[] {
  const global = lookup.env('CRUSH_GLOBAL_DATA');
  if (global !== undefined && global !== '') return [global];
  const dataHome = lookup.env('XDG_DATA_HOME') ?? join(lookup.homedir, '.local', 'share');
  return [join(dataHome, 'crush')];
}

export interface CrushProject {
  /** The project's working directory. */
  path: string;
  /** Its data directory, which holds `crush.db`. */
  dataDir: string;
}

/** The projects `projects.json` lists (none when it is missing), each data directory once. */
export async function readProjects(home: string, problems: FileProblem[]): Promise<CrushProject[]> {
  const file = join(home, projectsFileName);
  let raw: string;
  try {
    raw = await readRegularFile(file);
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: file, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    problems.push({ path: file, kind: 'unparsed', reason: `not JSON: ${errorMessage(error)}` });
    return [];
  }
  const out: CrushProject[] = [];
  const seen = new Set<string>();
  for (const item of arr(asObject(parsed), 'projects') ?? []) {
    const project = asObject(item);
    const path = text(project, 'path');
    const dataDir = text(project, 'data_dir');
    if (path === undefined || dataDir === undefined) continue;
    // Crush stores it absolute; a relative one is resolved against its project, as Crush does.
    const absolute = resolve(path, dataDir);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    out.push({ path, dataDir: absolute });
  }
  return out;
}
