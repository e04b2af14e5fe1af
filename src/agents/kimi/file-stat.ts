// Synchronous file facts: a session folder needs a handful of stats and a readdir, and each one
// through the thread pool cost more than the call itself (parsing runs in worker threads).
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { isNotFound } from '../../fs/errors.js';

export { statFileSync } from '../../fs/stat.js';

/** The names of the folders in `dir` (listed through `fs`: discovery's cache remembers it); a missing folder has none. */
export function subdirsSync(dir: string, fs: DiscoveryFs = uncachedFs): string[] {
  try {
    return fs
      .list(dir)
      .filter((e) => e.kind === 'dir')
      .map((e) => e.name);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
