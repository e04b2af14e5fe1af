// Where Factory Droid keeps sessions: `<FACTORY_HOME or ~/.factory>/sessions/`, project folders
// named `-<cwd with / as ->`, and older sessions directly under `sessions/`.
import { basename, dirname, join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const sessionsDirName = 'sessions';
export const settingsSuffix = '.settings.json';

/**
 * `~/.factory`. Droid reads no variable of its own for it: it takes the user's home directory
 * (`os.homedir()`, which follows `HOME`), as Factory's SDK does for the sessions folder.
 */
export function droidHomes(lookup: HomeLookup): string[] {
  return [join(lookup.env('HOME') ?? lookup.homedir, '.factory')];
}

export function sessionIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, '');
}

/** The sibling settings file of a session file. */
export function settingsPathOf(path: string): string {
  return join(dirname(path), `${sessionIdOf(path)}${settingsSuffix}`);
}

/** The home a session file lies in when it sits where Droid puts it, else its own folder. */
export function homeOfSession(path: string): string {
  const dir = dirname(path);
  if (basename(dir) === sessionsDirName) return dirname(dir);
  if (basename(dir).startsWith('-') && basename(dirname(dir)) === sessionsDirName) return dirname(dirname(dir));
  return dir;
}
