// Synchronous file facts: a session folder needs a handful of stats and a readdir, and each one
// through the thread pool cost more than the call itself (parsing runs in worker threads).
import { readdirSync } from 'node:fs';
import { isNotFound } from '../../fs/errors.js';

export { statFileSync } from '../../fs/stat.js';

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
