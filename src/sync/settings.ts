// Where sync keeps its two small files, and the real-path lookup opt-in matching uses; the CLI hands
// the environment down, nothing here reads it.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeLookup } from '../agents/types.js';
import { allowFilePath, configDir } from './allow/allow-file.js';
import type { RealPath } from './allow/opt-in.js';
import { loginFilePath } from './hub/login-file.js';

export interface SyncPaths {
  configDir: string;
  allowFile: string;
  loginFile: string;
  /** What the last sync did, for `agentlog status` (under agentlog's state root). */
  lastSync: string;
}

export function syncPaths(lookup: HomeLookup, stateRoot: string): SyncPaths {
  const dir = configDir((n) => lookup.env(n), lookup.homedir);
  return { configDir: dir, allowFile: allowFilePath(dir), loginFile: loginFilePath(dir), lastSync: join(stateRoot, 'sync', 'last.json') };
}

/** realpath with a memo (a run asks about the same few directories thousands of times). */
export function cachedRealPath(): RealPath {
  const memo = new Map<string, string | null>();
  return (path) => {
    let hit = memo.get(path);
    if (hit === undefined && !memo.has(path)) {
      try {
        hit = realpathSync(path);
      } catch {
        hit = null;
      }
      memo.set(path, hit);
    }
    return hit ?? null;
  };
}

/** The home as named and as it really is, for elision (a symlinked home is recorded either way). */
export function homeForms(home: string, real: RealPath): string[] {
  const r = real(home);
  return r === null || r === home ? [home] : [home, r];
}
