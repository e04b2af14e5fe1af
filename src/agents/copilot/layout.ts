// Where Copilot CLI keeps sessions: `<COPILOT_HOME>/session-state/<id>/events.jsonl` (with
// `workspace.yaml`, `plan.md`, `checkpoints/`), or the older loose `session-state/<id>.jsonl`.
import { basename, dirname, join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const stateDirName = 'session-state';
export const eventsFileName = 'events.jsonl';

/** `COPILOT_HOME` else `~/.copilot`. */
export function copilotHomes(lookup: HomeLookup): string[] {
  return [lookup.env('COPILOT_HOME') ?? join(lookup.homedir, '.copilot')];
}

/** The session id of an events file: its folder's name, or a loose file's stem. */
export function sessionIdOf(path: string): string {
  return basename(path) === eventsFileName ? basename(dirname(path)) : basename(path).replace(/\.jsonl$/, '');
}

/** The home an events file lies in when it sits where Copilot CLI puts it, else its own folder. */
export function homeOfEvents(path: string): string {
  const dir = basename(path) === eventsFileName ? dirname(dirname(path)) : dirname(path);
  return basename(dir) === stateDirName ? dirname(dir) : dirname(path);
}
