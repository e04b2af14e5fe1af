// Per-session scan summaries cached under the state root, keyed by each file's path, size, mtime
// and a hash of its first bytes, so an unchanged home is listed without parsing anything.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscoveredSession, FileProblem } from '../agents/types.js';
import type { SessionRow } from './session-row.js';

/** Bump when a reader's output changes so stale rows are never served. */
export const scanCacheVersion = 1;

export interface CachedEntry {
  key: string;
  row: SessionRow | null;
  problems: FileProblem[];
  cwds: string[];
}

interface CacheFile {
  version: number;
  readerVersion: string;
  entries: Record<string, CachedEntry>;
}

const prefixBytes = 4096;

async function prefixHash(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(prefixBytes);
    const { bytesRead } = await handle.read(buf, 0, prefixBytes, 0);
    return createHash('sha1').update(buf.subarray(0, bytesRead)).digest('base64url').slice(0, 16);
  } finally {
    await handle.close();
  }
}

/** The cache key of a discovered session: every file's identity plus the main file's prefix hash. */
export async function sessionKey(session: DiscoveredSession): Promise<string> {
  const parts = session.files.map((f) => `${f.path}\u0000${f.size}\u0000${f.mtimeMs}`);
  const main = session.files[0];
  let prefix = '';
  if (main !== undefined) {
    try {
      prefix = await prefixHash(main.path);
    } catch {
      prefix = 'unreadable';
    }
  }
  return createHash('sha1').update(parts.join('\u0001')).update(prefix).digest('base64url');
}

export class ScanCache {
  private entries: Record<string, CachedEntry> = {};
  private readonly next: Record<string, CachedEntry> = {};
  private dirty = false;

  private constructor(
    private readonly path: string | null,
    private readonly readerVersion: string,
  ) {}

  /** Opens the cache under `stateRoot` (null: an in-memory cache that is never written). */
  static async open(stateRoot: string | null, readerVersion: string): Promise<ScanCache> {
    const path = stateRoot === null ? null : join(stateRoot, 'cache', 'scan', 'sessions.json');
    const cache = new ScanCache(path, readerVersion);
    if (path !== null) {
      try {
        const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CacheFile>;
        if (
          parsed.version === scanCacheVersion &&
          parsed.readerVersion === readerVersion &&
          typeof parsed.entries === 'object' &&
          parsed.entries !== null
        ) {
          cache.entries = parsed.entries;
        }
      } catch {
        // A missing or corrupt cache is only a slower scan.
      }
    }
    return cache;
  }

  get(id: string, key: string): CachedEntry | undefined {
    const hit = this.entries[id];
    if (hit === undefined || hit.key !== key) return undefined;
    this.next[id] = hit;
    return hit;
  }

  put(id: string, entry: CachedEntry): void {
    this.next[id] = entry;
    this.dirty = true;
  }

  /** Writes the entries seen this scan (dropping sessions that are gone), atomically. */
  async save(): Promise<void> {
    if (this.path === null) return;
    if (!this.dirty && Object.keys(this.next).length === Object.keys(this.entries).length) return;
    const body: CacheFile = { version: scanCacheVersion, readerVersion: this.readerVersion, entries: this.next };
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
    await rename(tmp, this.path);
  }
}
