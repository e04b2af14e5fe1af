// Discovery that remembers: each folder's entries and each file-derived fact (a rollout's first
// line, a spine's relationships) from the last run, served again only while the folder or file is
// provably the same one, so an unchanged home is discovered with a stat per folder and file instead
// of a readdir per folder and a read per session. Persisted with the one atomic write, validated at
// load (a corrupt file is moved aside, reported and rebuilt).
//
// "Provably the same": the stat now equals the stat then (mtime, ctime and inode; size too for a
// file: a folder's mtime moves when an entry is added, removed or renamed, a file's when it is
// written, its ctime when anything, `touch -r` included, changes it, and a replaced file is a new
// inode), and the entry was observed at least `racyMs` after that mtime and ctime. The last rule
// is git's racy-index rule: a change within the same timestamp tick as the observation (coarse on
// some filesystems) leaves the stat as it was, so such an entry is looked at again until it is old.
import { statSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileProblem, SessionFile } from '../agents/types.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { type DirEntry, type DiscoveryFs, type EntryKind, readEntries } from '../fs/dir-listing.js';
import { errorMessage } from '../fs/errors.js';
import { statsOf } from '../fs/stat.js';
import { moveAsideCorrupt, readCacheJson } from './move-aside.js';
import { asciiJson } from './ascii-json.js';

/** Bump when the file's shape changes (an older one is rebuilt without a word). */
export const discoveryCacheVersion = 1;

/** How long after an entry's last change it must have been observed to be trusted (coarse mtimes: 1–2 s). */
export const racyMs = 2_000;

/** [observed at, mtimeMs, ctimeMs, ino, entries]: entries as `<kind letter><name>` joined by `/`, which no name holds. */
type DirRow = [number, number, number, number, string];
/** [observed at, size, mtimeMs, ctimeMs, ino, value]. */
type FactRow = [number, number, number, number, number, unknown];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** True when the first `n` cells are numbers; by index, not a slice and `every` per row (~6k rows each scan). */
function numbersUpTo(r: unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (!isNumber(r[i])) return false;
  return true;
}
const isDirRow = (r: unknown[]): r is DirRow => r.length === 5 && numbersUpTo(r, 4) && typeof r[4] === 'string';
const isFactRow = (r: unknown[]): r is FactRow => r.length === 6 && numbersUpTo(r, 5);

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The rows, each checked for its shape, or where the first that is not lies. A loop, not a schema:
 * a schema over every row of a large home cost more than the listings it saves (measured: ~1 s
 * under load), and a record-of-arrays schema over the whole body still cost a tenth of an unchanged scan.
 */
function checkedRows(json: unknown): { dirs: Record<string, DirRow>; facts: Record<string, FactRow> } | string {
  if (!isTable(json)) return 'the top';
  const { dirs, facts } = json;
  if (!isTable(dirs)) return 'dirs';
  if (!isTable(facts)) return 'facts';
  for (const k in dirs) {
    const r = dirs[k];
    if (!Array.isArray(r) || !isDirRow(r)) return `dirs.${k}`;
  }
  for (const k in facts) {
    const r = facts[k];
    if (!Array.isArray(r) || !isFactRow(r)) return `facts.${k}`;
  }
  return { dirs: dirs as Record<string, DirRow>, facts: facts as Record<string, FactRow> };
}

const letters: Record<EntryKind, string> = { file: 'f', dir: 'd', link: 'l', other: 'o' };
const kinds: Record<string, EntryKind> = { f: 'file', d: 'dir', l: 'link', o: 'other' };

function encodeEntries(entries: readonly DirEntry[]): string {
  return entries.map((e) => letters[e.kind] + e.name).join('/');
}

function decodeEntries(text: string): DirEntry[] {
  if (text === '') return [];
  return text.split('/').map((s) => ({ name: s.slice(1), kind: kinds[s[0] ?? ''] ?? 'other' }));
}

/**
 * Each file's stamp (size, mtime, ctime, inode; `-` when absent or empty) after a NUL, and the
 * latest change among those present; undefined when one cannot be stat'ed (a folder in the way:
 * then nothing is remembered).
 */
function stamps(paths: readonly string[]): { text: string; changedMs: number } | undefined {
  let text = '';
  let changedMs = Number.NEGATIVE_INFINITY;
  for (const path of paths) {
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (st === undefined || (st.isFile() && st.size === 0)) {
      text += '\u0000-';
      continue;
    }
    if (!st.isFile()) return undefined;
    text += `\u0000${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    changedMs = Math.max(changedMs, st.mtimeMs, st.ctimeMs);
  }
  return { text, changedMs };
}

/** The cache file of one consumer (scan, sweep, keep) under a state root: each keeps its own, so none evicts another's folders. */
export function discoveryCachePath(stateRoot: string, consumer: string): string {
  return join(stateRoot, 'cache', 'scan', `discovery-${consumer}.json`);
}

/** A folder's ctime and when it was read. */
export interface FolderSeen {
  ctimeMs: number;
  at: number;
}

export class DiscoveryCache implements DiscoveryFs {
  private dirs: Record<string, DirRow> = {};
  private facts: Record<string, FactRow> = {};
  private nextDirs: Record<string, DirRow> = {};
  private nextFacts: Record<string, FactRow> = {};
  private dirty = false;
  private listed = new Map<string, FolderSeen>();
  private statted = new Map<string, Stats>();
  /** What went wrong with the cache file itself (moved aside at load, not saved). */
  readonly problems: FileProblem[] = [];
  /** Counts for the bench and tests: folders listed from the cache and from the disk, facts likewise. */
  readonly stats = { dirHits: 0, dirMisses: 0, factHits: 0, factMisses: 0 };

  private constructor(
    private readonly path: string | null,
    private readonly readerVersion: string,
    private readonly now: () => number,
  ) {}

  /**
   * Opens the cache at `path` (null: remembers within this process only). `readerVersion` changes
   * when a reader's derivations may have (the package version): another version's file is rebuilt.
   */
  static async open(path: string | null, readerVersion: string, now: () => number = Date.now): Promise<DiscoveryCache> {
    const cache = new DiscoveryCache(path, readerVersion, now);
    if (path !== null) await cache.load(path);
    return cache;
  }

  private async load(path: string): Promise<void> {
    const read = await readCacheJson(path, 'the discovery cache', this.now, this.problems);
    if (read === null) return;
    const { json } = read;
    // Checked by hand, as the rows are: zod's load alone cost a tenth of an unchanged scan's budget.
    const header = isTable(json) ? json : {};
    const versioned = typeof header.version === 'number' && typeof header.readerVersion === 'string';
    // Another version's cache is not corrupt, only stale: it is rebuilt without a word.
    if (versioned && (header.version !== discoveryCacheVersion || header.readerVersion !== this.readerVersion)) return;
    const rows = versioned ? checkedRows(json) : 'the header';
    if (typeof rows === 'string') {
      const what = rows === 'the header' ? 'a version' : rows.includes('.') ? 'a row' : 'a table';
      this.problems.push(await moveAsideCorrupt(path, 'the discovery cache', `not a discovery cache at ${rows}: not ${what}`, this.now()));
      return;
    }
    this.dirs = rows.dirs;
    this.facts = rows.facts;
  }

  /** True when `st` is what `row` recorded and changed at least `racyMs` before it was observed. */
  private static same(st: Stats, seenAt: number, mtimeMs: number, ctimeMs: number, ino: number): boolean {
    return st.mtimeMs === mtimeMs && st.ctimeMs === ctimeMs && st.ino === ino && mtimeMs <= seenAt - racyMs && ctimeMs <= seenAt - racyMs;
  }

  /**
   * The ctime of each folder this run listed (until `save`): the session index records it (the
   * listing the scan used, not a later stat) without a second stat.
   */
  listedCtimes(): ReadonlyMap<string, FolderSeen> {
    return this.listed;
  }

  list(dir: string): DirEntry[] {
    const st = statSync(dir);
    this.listed.set(dir, { ctimeMs: st.ctimeMs, at: this.now() });
    const row = this.nextDirs[dir] ?? this.dirs[dir];
    if (row !== undefined && st.isDirectory() && DiscoveryCache.same(st, row[0], row[1], row[2], row[3])) {
      this.nextDirs[dir] = row;
      this.stats.dirHits++;
      return decodeEntries(row[4]);
    }
    const seenAt = this.now();
    const entries = readEntries(dir);
    this.nextDirs[dir] = [seenAt, st.mtimeMs, st.ctimeMs, st.ino, encodeEntries(entries)];
    this.dirty = true;
    this.stats.dirMisses++;
    return entries;
  }

  async derive<T>(
    at: string | SessionFile,
    kind: string,
    decode: (value: unknown) => T | undefined,
    compute: () => Promise<T>,
    also: readonly string[] = [],
  ): Promise<T> {
    // One stat per file and run: a session's main file is derived from by its reader and again for
    // its key, and a file discovery stat'ed comes with that stat. A value computed after the stat
    // is never newer than the file the stat describes.
    const path = typeof at === 'string' ? at : at.path;
    let st = this.statted.get(path);
    if (st === undefined && typeof at !== 'string') {
      st = statsOf(at);
      if (st !== undefined) this.statted.set(path, st);
    }
    if (st === undefined) {
      try {
        st = statSync(path);
      } catch {
        return compute(); // gone or unreadable: the reader's own read says how
      }
      this.statted.set(path, st);
    }
    if (!st.isFile()) return compute();
    const others = stamps(also);
    if (others === undefined) return compute();
    // The other files' stamps are part of the key, so a value is found only while they are as they
    // were; being equal, their times now are their times then, which must be as settled as the file's.
    const key = `${kind}\u0000${path}${others.text}`;
    const row = this.nextFacts[key] ?? this.facts[key];
    if (
      row !== undefined &&
      row[1] === st.size &&
      DiscoveryCache.same(st, row[0], row[2], row[3], row[4]) &&
      others.changedMs <= row[0] - racyMs
    ) {
      const value = decode(row[5]);
      if (value !== undefined) {
        this.nextFacts[key] = row;
        this.stats.factHits++;
        return value;
      }
    }
    const seenAt = this.now();
    const value = await compute();
    this.nextFacts[key] = [seenAt, st.size, st.mtimeMs, st.ctimeMs, st.ino, value ?? null];
    this.dirty = true;
    this.stats.factMisses++;
    return value;
  }

  /**
   * Writes what this run used (folders and files no longer looked at are dropped), atomically and
   * only when something changed. A failure is recorded in `problems`, never thrown: the next run
   * only runs without the cache.
   */
  async save(): Promise<void> {
    const unchanged =
      !this.dirty &&
      Object.keys(this.nextDirs).length === Object.keys(this.dirs).length &&
      Object.keys(this.nextFacts).length === Object.keys(this.facts).length;
    this.dirs = this.nextDirs;
    this.facts = this.nextFacts;
    this.nextDirs = {};
    this.nextFacts = {};
    this.dirty = false;
    // A later run (a long-lived process scans again) stats afresh; `listedCtimes` answered stays as it was.
    this.statted = new Map();
    this.listed = new Map();
    if (this.path === null || unchanged) return;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      // Re-derivable and checked on read: no fsync (a torn file is moved aside and rebuilt).
      writeFileAtomicSync(
        this.path,
        asciiJson(
          JSON.stringify({
            version: discoveryCacheVersion,
            readerVersion: this.readerVersion,
            dirs: this.dirs,
            facts: this.facts,
          }),
        ),
        {
          durable: false,
        },
      );
    } catch (error) {
      this.problems.push({ path: this.path, kind: 'unreadable', reason: `could not save the discovery cache: ${errorMessage(error)}` });
    }
  }
}
