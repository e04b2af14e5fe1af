// Parsed, folded segments held in a byte-bounded LRU (seed 000: a 192 MiB arena keyed by the
// content-named generation file), their n-gram filters, and each session's derived activity.
import { closeSync, openSync } from 'node:fs';
import { readExactSync } from '../fs/read-exact.js';
import { openRegularSync } from '../fs/read-open.js';
import { isNotFound } from '../fs/errors.js';
import { deriveActive, type MessageRecord } from '../record/message-index.js';
import { fold, type FoldedView } from './fold.js';
import { ByteLru } from './lru.js';
import type { ManifestEntry, ManifestRead } from './manifest.js';
import { NgramFilter } from './ngram-filter.js';
import { combineMarks, fileHeaderBytes, filterLength, parseSegment, type Segment } from './segment.js';
import { generationPath, manifestStamp, quarantineGeneration, readManifest } from './store.js';

export const defaultArenaBytes = 192 * 1024 * 1024;

/** A segment ready to match: its records' folds joined by NUL into one string. */
export interface LoadedSegment {
  file: string;
  segment: Segment;
  hay: string;
  /** `starts[i]` is where record i's fold begins in `hay`; `starts[n]` is `hay.length + 1`. */
  starts: Uint32Array;
  maps: (Uint32Array | null)[];
}

export function prepareSegment(file: string, segment: Segment): LoadedSegment {
  const n = segment.records.length;
  const starts = new Uint32Array(n + 1);
  const maps: (Uint32Array | null)[] = new Array<Uint32Array | null>(n);
  const parts: string[] = new Array<string>(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const f = fold((segment.records[i] as MessageRecord).text);
    starts[i] = at;
    parts[i] = f.text;
    maps[i] = f.map;
    at += f.text.length + 1;
  }
  starts[n] = at;
  return { file, segment, hay: parts.join('\u0000'), starts, maps };
}

export function recordView(s: LoadedSegment, i: number): FoldedView {
  return { text: s.hay, base: s.starts[i] as number, end: (s.starts[i + 1] as number) - 1, map: s.maps[i] ?? null };
}

/** The record whose fold contains hay index `at` (binary search over `starts`). */
export function recordAt(s: LoadedSegment, at: number): number {
  let lo = 0;
  let hi = s.starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((s.starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const wide = /[^\u0000-\u00ff]/;

/**
 * Bytes a resident segment holds: its parsed records (about the file's size), the folded hay (one
 * byte a char for a Latin-1 string, as V8 stores it, else two) and the offset maps.
 */
function costOf(s: LoadedSegment, rawBytes: number): number {
  let maps = 0;
  for (const m of s.maps) if (m !== null) maps += m.byteLength;
  return rawBytes + s.hay.length * (wide.test(s.hay) ? 2 : 1) + s.starts.byteLength + maps;
}

/**
 * Reads just the filter at the head of a generation file (synchronously: a few KiB, once per
 * segment per query at most, where a thread-pool round trip would cost more than the read).
 */
function readFilter(path: string): NgramFilter | null {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(fileHeaderBytes);
    if (readExactSync(fd, head, fileHeaderBytes, 0) !== fileHeaderBytes) return null;
    const n = filterLength(head);
    if (n === null || n > 1 << 24) return null;
    const buf = Buffer.alloc(n);
    if (readExactSync(fd, buf, n, fileHeaderBytes) !== n) return null;
    return NgramFilter.parse(buf);
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole generation file, read synchronously into a buffer of its size: one read where the
 * promise form takes a thread-pool round trip per 512 KiB (each a wait on a busy machine), and the
 * parse that follows blocks as long anyway. Generation files are immutable once named.
 */
function readWhole(path: string): Buffer {
  const { fd, size } = openRegularSync(path);
  try {
    const buf = Buffer.allocUnsafe(size);
    const got = readExactSync(fd, buf, size, 0);
    return got === size ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

export type SegmentLoad = { state: 'ok'; segment: LoadedSegment; freshBytes: number } | { state: 'missing' } | { state: 'corrupt' };

export class ShardCache {
  private readonly segments: ByteLru<LoadedSegment>;
  private readonly filters = new ByteLru<NgramFilter | null>(64 * 1024 * 1024);
  private readonly activity = new ByteLru<boolean[]>(16 * 1024 * 1024);
  private manifestCache: { stamp: string; read: ManifestRead } | undefined;

  constructor(
    private readonly root: string,
    capacityBytes = defaultArenaBytes,
    private readonly now: () => number = Date.now,
  ) {
    this.segments = new ByteLru(capacityBytes);
  }

  get residentBytes(): number {
    return this.segments.bytes;
  }

  isResident(file: string): boolean {
    return this.segments.has(file);
  }

  /** The segment's n-gram filter; null when it has none (then the segment must be scanned). */
  async filter(file: string): Promise<NgramFilter | null> {
    if (this.filters.has(file)) return this.filters.get(file) ?? null;
    let f: NgramFilter | null = null;
    try {
      f = readFilter(generationPath(this.root, file));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    this.filters.set(file, f, f === null ? 64 : f.bits.length + 64);
    return f;
  }

  /** Loads (or finds resident) one generation file; a corrupt one is quarantined. */
  async load(file: string): Promise<SegmentLoad> {
    const hit = this.segments.get(file);
    if (hit !== undefined) return { state: 'ok', segment: hit, freshBytes: 0 };
    let body: Buffer;
    try {
      body = readWhole(generationPath(this.root, file));
    } catch (error) {
      if (isNotFound(error)) return { state: 'missing' };
      throw error;
    }
    const parsed = parseSegment(file, body);
    if (parsed === null) {
      await quarantineGeneration(this.root, file, this.now());
      return { state: 'corrupt' };
    }
    const loaded = prepareSegment(file, parsed);
    this.segments.set(file, loaded, costOf(loaded, body.length));
    return { state: 'ok', segment: loaded, freshBytes: body.length };
  }

  /**
   * Which records of the session are active, in segment order; computed once per shard (keyed by
   * its segment list) because a later rewrite can change it. Needs every segment loaded.
   */
  activityOf(entry: ManifestEntry, loaded: readonly LoadedSegment[]): boolean[] {
    const key = entry.segments.map((s) => s.file).join(',');
    const hit = this.activity.get(key);
    if (hit !== undefined) return hit;
    const records = loaded.flatMap((l) => l.segment.records);
    const { marks } = combineMarks(loaded.map((l) => l.segment));
    const active = deriveActive(records, marks);
    this.activity.set(key, active, active.length + key.length + 64);
    return active;
  }

  /**
   * The manifest, parsed once per version of the file (a stat per query otherwise): a large one
   * takes milliseconds to validate, the whole budget of a keystroke query.
   */
  async manifest(): Promise<ManifestRead> {
    const stamp = await manifestStamp(this.root);
    if (stamp !== null && this.manifestCache?.stamp === stamp) return this.manifestCache.read;
    const read = await readManifest(this.root);
    // Only a read that the stamp still describes may be reused.
    if (stamp !== null && (await manifestStamp(this.root)) === stamp) this.manifestCache = { stamp, read };
    return read;
  }

  forget(file: string): void {
    this.segments.delete(file);
    this.filters.delete(file);
  }
}
