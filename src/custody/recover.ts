// Recovery after a keep was killed: its fixed-name temp files are removed (never through a link).
// Run only when a stale lock was broken, so a normal keep never walks the whole kept tree.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName } from './paths.js';

/** Removes every custody temp file under `root`; returns how many. Folders that are links are not entered. */
export async function sweepTemps(root: string): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (!e.isSymbolicLink() && e.isFile() && isTempName(e.name)) {
        await unlink(path).catch(() => undefined);
        removed++;
      }
    }
  };
  await walk(root);
  return removed;
}
