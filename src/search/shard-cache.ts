// Parsed, folded segments held in a byte-bounded LRU (seed 000: a 192 MiB arena keyed by the
// content-named generation file), their n-gram filters, and each session's derived activity.
import { closeSync, openSync } from 'node:fs';
import { readExactSync } from '../fs/read-exact.js';
import { openRegularSync } from '../fs/read-open.js';
import { isNotFound } from '../fs/errors.js';
import { deriveActive } from '../record/message-index.js';
import { fold, type FoldedView } from './fold.js';
import { ByteLru } from './lru.js';
import type { ManifestEntry, ManifestRead } from './manifest.js';
import { NgramFilter } from './ngram-filter.js';
import { combineMarks, fileHeaderBytes, filterLength, openSegment } from './segment.js';
import type { SegmentBody } from './segment-body.js';
import type { RecordMeta } from './segment-wire.js';
import { generationPath, manifestStamp, quarantineGeneration, readManifest } from './store.js';

export const defaultArenaBytes = 192 * 1024 * 1024;

/** A segment ready to match: its records' folds joined by NUL into one string. */
export interface LoadedSegment {
  file: string;
  body: SegmentBody;
  hay: string;
  /** `starts[i]` is where record i's fold begins in `hay`; `starts[n]` is `hay.length + 1`. */
  starts: Uint32Array;
  /** Record i's fold map (fold.ts), null for the identity; absent when no record has one. */
  maps: (Uint32Array | null)[] | null;
}

/**
 * The hay of a body. Plain records are stored folded (segment-body.ts), their NUL separators
 * already where the hay needs them: a segment of them is its own hay, with no work at all, where
 * folding record by record was a cold query's largest step. Other records are folded here.
 */
export function prepareSegment(file: string, body: SegmentBody): LoadedSegment {
  const n = body.count;
  const text = body.text;
  if (body.allPlain) return { file, body, hay: text, starts: body.textStarts, maps: null };
  const starts = new Uint32Array(n + 1);
  const maps = new Array<Uint32Array | null>(n).fill(null);
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && body.isPlain(j)) j++;
    if (j > i) {
      // Records i..j-1 as stored, with the separators between them.
      const from = body.textStarts[i] as number;
      const run = text.slice(from, (body.textStarts[j] as number) - 1);
      for (let k = i; k < j; k++) starts[k] = at + (body.textStarts[k] as number) - from;
      parts.push(run);
      at += run.length + 1;
      i = j;
      continue;
    }
    const f = fold(body.stored(i));
    starts[i] = at;
    maps[i] = f.map;
    parts.push(f.text);
    at += f.text.length + 1;
    i++;
  }
  starts[n] = at;
  return { file, body, hay: parts.join('\u0000'), starts, maps };
}

export function recordView(s: LoadedSegment, i: number): FoldedView {
  return { text: s.hay, base: s.starts[i] as number, end: (s.starts[i + 1] as number) - 1, map: s.maps?.[i] ?? null };
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

/**
 * Bytes a resident segment holds: its body (text, record lines, columns), the hay when it is not
 * the body's text itself (two bytes a char: folding can add marks beyond Latin-1) and the maps.
 */
function costOf(s: LoadedSegment): number {
  let maps = 0;
  for (const m of s.maps ?? []) if (m !== null) maps += m.byteLength;
  const hay = s.hay === s.body.text ? 0 : s.hay.length * 2 + s.starts.byteLength;
  return s.body.bytes + hay + maps;
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

/** `stale`: a file of another format (an index from an older agentlog), left for the next sweep to replace. */
export type SegmentLoad =
  | { state: 'ok'; segment: LoadedSegment; freshBytes: number }
  | { state: 'missing' }
  | { state: 'stale' }
  | { state: 'corrupt' };

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

  /**
   * Loads (or finds resident) one generation file; a corrupt one is quarantined. A file of another
   * format is never read as this one, nor quarantined: the next sweep rebuilds its session.
   */
  async load(file: string): Promise<SegmentLoad> {
    const hit = this.segments.get(file);
    if (hit !== undefined) return { state: 'ok', segment: hit, freshBytes: 0 };
    let buf: Buffer;
    try {
      buf = readWhole(generationPath(this.root, file));
    } catch (error) {
      if (isNotFound(error)) return { state: 'missing' };
      throw error;
    }
    const opened = openSegment(buf);
    if (opened.state === 'stale') return opened;
    if (opened.state === 'corrupt') {
      await this.condemn(file);
      return { state: 'corrupt' };
    }
    const loaded = prepareSegment(file, opened.body);
    this.segments.set(file, loaded, costOf(loaded));
    return { state: 'ok', segment: loaded, freshBytes: buf.length };
  }

  /** Drops a generation file found corrupt (a record that does not read back) and moves it to quarantine. */
  async condemn(file: string): Promise<void> {
    this.forget(file);
    await quarantineGeneration(this.root, file, this.now());
  }

  /**
   * Which records of the session are active, in segment order; computed once per shard (keyed by
   * its segment list) because a later rewrite can change it. Needs every segment loaded; null (the
   * bad file quarantined) when a record does not read back.
   */
  async activityOf(entry: ManifestEntry, loaded: readonly LoadedSegment[]): Promise<boolean[] | null> {
    const key = entry.segments.map((s) => s.file).join(',');
    const hit = this.activity.get(key);
    if (hit !== undefined) return hit;
    const records: RecordMeta[] = [];
    for (const l of loaded) {
      const metas = l.body.metas();
      if (metas === null) {
        await this.condemn(l.file);
        return null;
      }
      for (const m of metas) records.push(m);
    }
    const { marks } = combineMarks(loaded.map((l) => l.body.head));
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
