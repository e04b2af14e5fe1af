// Per-session scan summaries cached under the state root, keyed by each file's path, size, mtime
// and a hash of its first bytes, so an unchanged home is listed (and its usage reported) without
// parsing anything. The file is validated at load: a corrupt one is moved aside and rebuilt.
import { nodeCrypto } from '../fs/crypto.js';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileProblem } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import type { UsageBuckets } from '../usage/buckets.js';
import type { SessionRow } from './session-row.js';
import { moveAsideCorrupt, readCacheJson } from './move-aside.js';
import { asciiJson } from './ascii-json.js';

/** Bump when a reader's output or the entry's shape changes so stale rows are never served. */
export const scanCacheVersion = 5;

/** One cached session: its key, its row (null: no session in its files) and what reading it found. */
export interface CachedEntry {
  key: string;
  row: SessionRow | null;
  problems: FileProblem[];
  cwds: string[];
  bad_lines: { path: string; count: number }[];
  usage: UsageBuckets | null;
}

/** The header fields, checked by hand (zod loads only for a file that fails its digest: scan-cache-schema.ts). */
function headerOf(json: unknown): { version: unknown; readerVersion: unknown; digest: unknown; entries: unknown } | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  return { version: o.version, readerVersion: o.readerVersion, digest: o.digest, entries: o.entries };
}

/** What `save` writes between the header and the final brace: the entries' JSON follows it. */
const entriesMark = ',"entries":';

/** The digest `save` writes over the entries' JSON text. */
function entriesDigest(entriesJson: string): string {
  return nodeCrypto().createHash('sha1').update(entriesJson).digest('base64url');
}

/**
 * True when the entries' text is byte for byte what `save` wrote (its digest matches): then they
 * had the schema's shape when written and need no second check, which on a large home cost more
 * than the rest of an unchanged scan (measured). An edited or damaged file is validated in full.
 */
function untouched(text: string, digest: unknown): boolean {
  const at = text.indexOf(entriesMark);
  return typeof digest === 'string' && at >= 0 && text.endsWith('}') && entriesDigest(text.slice(at + entriesMark.length, -1)) === digest;
}

/** The cache file under a state root. */
export function scanCachePath(stateRoot: string): string {
  return join(stateRoot, 'cache', 'scan', 'sessions.json');
}

export class ScanCache {
  private entries: Record<string, CachedEntry> = {};
  private readonly next: Record<string, CachedEntry> = {};
  private dirty = false;
  /** How many loaded entries this scan asked for and got (each once): all of them leave nothing to save. */
  private hits = 0;
  /** What went wrong with the cache file itself (quarantined at load, not saved): reported by `scan`. */
  readonly problems: FileProblem[] = [];

  private constructor(
    private readonly path: string | null,
    private readonly readerVersion: string,
  ) {}

  /** Opens the cache under `stateRoot` (null: an in-memory cache that is never written). */
  static async open(stateRoot: string | null, readerVersion: string, now: () => number = Date.now): Promise<ScanCache> {
    const path = stateRoot === null ? null : scanCachePath(stateRoot);
    const cache = new ScanCache(path, readerVersion);
    if (path !== null) await cache.load(path, now);
    return cache;
  }

  private async load(path: string, now: () => number): Promise<void> {
    const read = await readCacheJson(path, 'the scan cache', now, this.problems);
    if (read === null) return;
    const { text, json } = read;
    // Another version's cache is not corrupt, only stale: it is rebuilt without a word.
    const header = headerOf(json);
    if (typeof header?.version === 'number' && typeof header.readerVersion === 'string') {
      if (header.version !== scanCacheVersion || header.readerVersion !== this.readerVersion) return;
      if (header.entries !== undefined && untouched(text, header.digest)) {
        this.entries = header.entries as Record<string, CachedEntry>;
        return;
      }
    }
    const { checkedEntries } = await import('./scan-cache-schema.js');
    const checked = checkedEntries(json);
    if ('where' in checked) {
      await this.quarantine(path, `not a scan cache${checked.where}`, now);
      return;
    }
    this.entries = checked.entries;
  }

  private async quarantine(path: string, why: string, now: () => number): Promise<void> {
    this.problems.push(await moveAsideCorrupt(path, 'the scan cache', why, now()));
  }

  /**
   * The rows the last saved scan listed, read without looking at any session file and without
   * touching the cache file (a damaged or other version's file gives none): what `serve` lists
   * while its own first scan is under way, so a person's first paint does not wait on the home.
   */
  static async savedRows(stateRoot: string, readerVersion: string): Promise<SessionRow[]> {
    const text = await readFile(scanCachePath(stateRoot), 'utf8').catch(() => null);
    if (text === null) return [];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return [];
    }
    const header = headerOf(json);
    if (header === null || header.version !== scanCacheVersion || header.readerVersion !== readerVersion) return [];
    if (header.entries === undefined || !untouched(text, header.digest)) return [];
    return Object.values(header.entries as Record<string, CachedEntry>).flatMap((e) => (e.row === null ? [] : [e.row]));
  }

  get(id: string, key: string): CachedEntry | undefined {
    const hit = this.entries[id];
    if (hit === undefined || hit.key !== key) return undefined;
    if (this.next[id] === undefined) this.hits++;
    this.next[id] = hit;
    return hit;
  }

  put(id: string, entry: CachedEntry): void {
    this.next[id] = entry;
    this.dirty = true;
  }

  /**
   * Writes the entries seen this scan, with those of agents it did not look at (`scan --agent`
   * looks at some; their sessions are still cached for the next full scan), atomically. A session
   * of a `looked` agent that this scan did not see is gone and dropped. A failure is recorded in
   * `problems` (every later scan would run cold until it is fixed), never thrown.
   */
  async save(looked: ReadonlySet<string>): Promise<void> {
    if (this.path === null) return;
    // An unchanged home: every entry was served and none put, so the file already holds `next`
    // (walking the entries to find that out cost ~7 ms of a warm scan, measured on the bench home).
    if (!this.dirty && this.hits === Object.keys(this.entries).length) return;
    for (const [id, entry] of Object.entries(this.entries))
      if (this.next[id] === undefined && !looked.has(id.slice(0, id.indexOf(':')))) this.next[id] = entry;
    if (!this.dirty && Object.keys(this.next).length === Object.keys(this.entries).length) return;
    const entries = asciiJson(JSON.stringify(this.next));
    const header = JSON.stringify({ version: scanCacheVersion, readerVersion: this.readerVersion, digest: entriesDigest(entries) });
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      // Re-derivable and checked on read (its digest): no fsync, which cost a cold scan ~20 ms.
      writeFileAtomicSync(this.path, `${header.slice(0, -1)}${entriesMark}${entries}}`, { durable: false });
    } catch (error) {
      this.problems.push({
        path: this.path,
        kind: 'unreadable',
        reason: `could not save the scan cache (${errorMessage(error)}): every scan runs cold until ${dirname(this.path)} is writable`,
      });
    }
  }
}
