// Source-file cursors (seed 000 "The indexer sweep"): what the index remembers about each file it
// read, and the classification of a file now against it: Unchanged, Appended, Rewritten or Gone.
import { hash16 } from '../fs/hash.js';
import { readExactSync } from '../fs/read-exact.js';
import { closeSync, openSync, statSync } from 'node:fs';
import type { ConsumeMode } from '../record/message-index.js';
import { osPath } from '../fs/byte-path.js';

export interface FileCursor {
  path: string;
  /** File identity (device, inode); both 0 when the platform gives none. */
  dev: number;
  ino: number;
  /** The file's length as the extractor read it (may exceed `offset` by a torn last line). */
  len: number;
  /** Modification time in nanoseconds, as a decimal string. */
  mtime_ns: string;
  /** Bytes consumed: through the last complete line, or the whole file for a `whole` document. */
  offset: number;
  mode: ConsumeMode;
  /** Hash of the first min(4 KiB, len) bytes. */
  prefix_hash: string;
  /** Hash of the min(4 KiB, offset) bytes ending at `offset` ('' when nothing was consumed). */
  tail_hash: string;
  /** When the cursor was captured: an mtime this close to it may hide a second write (racy mtime). */
  captured_ms: number;
}

export const fileChanges = ['unchanged', 'appended', 'rewritten', 'gone'] as const;
export type FileChange = (typeof fileChanges)[number];

const windowBytes = 4096;
/** An mtime within this of the capture time could hide a later write in the same clock granule. */
const racyMs = 2000;

function hash(buf: Uint8Array): string {
  return hash16(buf);
}

// Cursor work is a stat and at most two 4 KiB reads per file, thousands of times per sweep: done
// synchronously, since a thread-pool round trip costs more than the call itself.
function readWindow(fd: number, start: number, length: number): Buffer | null {
  const buf = Buffer.alloc(length);
  return readExactSync(fd, buf, length, start) === length ? buf : null;
}

function hashes(path: string, len: number, offset: number): { prefix: string; tail: string } | null {
  const fd = openSync(osPath(path), 'r');
  try {
    const prefix = readWindow(fd, 0, Math.min(windowBytes, len));
    if (prefix === null) return null;
    if (offset === 0) return { prefix: hash(prefix), tail: '' };
    const tailLen = Math.min(windowBytes, offset);
    const tail = offset <= prefix.length ? prefix.subarray(offset - tailLen, offset) : readWindow(fd, offset - tailLen, tailLen);
    if (tail === null) return null;
    return { prefix: hash(prefix), tail: hash(tail) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Captures a cursor for `path` consumed up to `offset` of the `seen` bytes the extractor read, or
 * null when the file is gone or shorter than that (it changed while it was read). Bytes written
 * after the read lie past `len` and read as appended next time.
 */
export async function captureCursor(
  path: string,
  offset: number,
  mode: ConsumeMode,
  nowMs: number,
  seen = offset,
): Promise<FileCursor | null> {
  try {
    const s = statSync(osPath(path), { bigint: true });
    const size = Number(s.size);
    const len = mode === 'whole' ? offset : Math.max(offset, seen);
    if (size < len) return null;
    const h = hashes(path, size, offset);
    if (h === null) return null;
    return {
      path,
      dev: Number(s.dev),
      ino: Number(s.ino),
      len,
      mtime_ns: s.mtimeNs.toString(),
      offset,
      mode,
      prefix_hash: h.prefix,
      tail_hash: h.tail,
      captured_ms: nowMs,
    };
  } catch {
    return null;
  }
}

/**
 * True when discovery's own stat of the file (taken this sweep) shows exactly the length and
 * millisecond mtime the cursor holds, and that mtime was quiescent at capture: the file reads as
 * unchanged without a second stat. Anything else (a racy mtime, a platform without inodes, any
 * difference) is left to `checkCursor`. What this gives up is the inode check for a file replaced
 * by one of the same length and the same mtime to the millisecond, a copy that preserved both.
 */
export function unchangedPerDiscovery(c: FileCursor, discovered: { size: number; mtimeMs: number }): boolean {
  if (c.ino === 0 || discovered.size !== c.len) return false;
  // Whole milliseconds of the decimal nanoseconds, truncated as discovery truncates (no BigInt: hot).
  const mtimeMs = c.mtime_ns.length > 6 ? Number(c.mtime_ns.slice(0, -6)) : 0;
  return discovered.mtimeMs === mtimeMs && mtimeMs <= c.captured_ms - racyMs;
}

/**
 * Classifies the file now against `c`, in the seed's order: gone; shrunk or replaced (identity) or
 * same length with a moved mtime → rewritten; quiescent and identical → unchanged without reading;
 * else the prefix and consumed-tail hashes decide; finally grown since the capture → appended.
 */
export async function checkCursor(c: FileCursor): Promise<FileChange> {
  let s;
  try {
    s = statSync(osPath(c.path), { bigint: true });
  } catch {
    return 'gone';
  }
  if (!s.isFile()) return 'gone';
  const len = Number(s.size);
  if (len < c.len) return 'rewritten';
  const reliable = c.ino !== 0 && s.ino !== 0n;
  if (reliable && (Number(s.ino) !== c.ino || Number(s.dev) !== c.dev)) return 'rewritten';
  const mtimeMoved = s.mtimeNs.toString() !== c.mtime_ns;
  if (mtimeMoved && len === c.len) return 'rewritten';
  if (c.mode === 'whole' && (mtimeMoved || len !== c.len)) return 'rewritten';
  const quiescent = Number(s.mtimeNs / 1_000_000n) <= c.captured_ms - racyMs;
  if (reliable && !mtimeMoved && len === c.len && quiescent) return 'unchanged';
  let h;
  try {
    h = hashes(c.path, len, c.offset);
  } catch {
    return 'gone';
  }
  if (h === null) return 'gone';
  // The prefix window is comparable only if it was full then or the length is unchanged.
  if ((c.len >= windowBytes || len === c.len) && h.prefix !== c.prefix_hash) return 'rewritten';
  if (c.tail_hash !== '' && h.tail !== c.tail_hash) return 'rewritten';
  // A torn last line that has not grown since it was seen is nothing new to read.
  return len > c.len ? 'appended' : 'unchanged';
}
