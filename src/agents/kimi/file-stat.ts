// Synchronous file facts: a session folder needs a handful of stats and a readdir, and each one
// through the thread pool cost more than the call itself (parsing runs in worker threads).
import { readdirSync, statSync } from 'node:fs';
import { isNotFound } from '../../fs/stat.js';
import type { SessionFile } from '../types.js';

/** The file's size and mtime, or null when it does not exist (or is not a regular file). */
export function statFileSync(path: string): SessionFile | null {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s === undefined || !s.isFile()) return null;
    return { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The names of the folders in `dir`; a missing folder has none. */
export function subdirsSync(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
