// Where Pi keeps sessions: `<agent dir>/sessions/--<encoded cwd>--/<timestamp>_<id>.jsonl`, one
// JSONL file per session whose first line is the session header (research intendant.md §3.5).
import { basename, join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const sessionsDirName = 'sessions';

/** Session ids Pi writes (uuids, short ids); anything else is not taken as an id. */
export const sessionIdPattern = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** `PI_CODING_AGENT_DIR` else `~/.pi/agent`. */
export function piHomes(lookup: HomeLookup): string[] {
  return [lookup.env('PI_CODING_AGENT_DIR') ?? join(lookup.homedir, '.pi', 'agent')];
}

/** The id in a `<timestamp>_<id>.jsonl` file name, or undefined when the name has another shape. */
export function idFromFileName(path: string): string | undefined {
  const name = basename(path);
  const m = /^[^_]+_(.+)\.jsonl$/.exec(name);
  const id = m?.[1];
  return id !== undefined && sessionIdPattern.test(id) ? id : undefined;
}
