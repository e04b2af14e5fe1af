// The keep executor: carries out one planned action on one file. A copy or refresh is written to a
// temp file and handed to the publisher (publisher.ts), which makes it durable and renames it into
// place; a refresh first hard-links the previous kept bytes to a numbered backup; an extend appends
// only the new bytes, fsyncs and verifies the size.
//
// A stop signal is read between chunks: a copy stopped part-way is rolled back (its temp removed, an
// append truncated back to the kept size), so a stop never waits for a large file to be copied. A
// large copy is flushed as it goes (write-behind), so the flush a stop may wait for (an in-flight
// one, or the publication of a copy already written) stays bounded whatever the file's size.
import type { FileHandle } from 'node:fs/promises';
import { link, readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { errorCode } from '../fs/errors.js';
import type { ByteSource } from './byte-source.js';
import { custodyErrors } from './errors.js';
import type { KeepAction } from './keep-plan.js';
import { backupNumber, backupPath } from './paths.js';
import type { Publisher } from './publisher.js';
import {
  closeQuiet,
  copyIntoTemp,
  copySmallIntoTemp,
  isSmallCopy,
  fillTempFile,
  flushFd,
  openReadFd,
  readAt,
  setMtime,
  writeAt,
} from './fd-io.js';
import { fsyncDir, lstatOrNull, openAppend, unlinkQuiet, writeFull } from './safe-fs.js';
import { osPath } from '../fs/byte-path.js';

export const keepOutcomes = ['copied', 'extended', 'refreshed', 'skipped'] as const;
export type KeepOutcome = (typeof keepOutcomes)[number];

export interface ActionResult {
  outcome: KeepOutcome;
  /**
   * For a copy or refresh: settles once the new kept file is durable and in place (rejects when it
   * could not be put there). Null when the action is complete already (extend, skip).
   */
  published: Promise<void> | null;
}

/** Where a copy goes once written, and the signal that stops it between chunks. */
export interface KeepIo {
  publisher: Publisher;
  signal: AbortSignal | undefined;
}

const chunkBytes = 1 << 20;
/**
 * A file up to this size is copied by the kernel in one call (no bytes through this process, and
 * off the main thread): no larger than a chunk, so a stop waits for no more than it does between chunks.
 */
export const kernelCopyBytes = chunkBytes;
/**
 * A copy flushes its written bytes to disk every this many (the previous flush overlapping the next
 * chunks): at most about twice this is ever left to flush when a stop arrives or the copy is published.
 */
export const writeBehindBytes = 16 * 1024 * 1024;
/** How much of each end an extend compares to accept the kept bytes as a prefix of the vendor file. */
export const prefixProbeBytes = 64 * 1024;

async function setTime(handle: FileHandle, mtimeMs: number | null): Promise<void> {
  if (mtimeMs === null) return;
  // The kept file carries the vendor file's mtime, so the next keep's size+mtime check is a stat.
  await handle.utimes(new Date(), mtimeMs / 1000).catch(() => undefined);
}

/**
 * Flushes a file being written every `writeBehindBytes`, one flush in flight while the copy goes on.
 * `settle` must be awaited before the descriptor is closed (a flush may be using it).
 */
class WriteBehind {
  private since = 0;
  private inFlight: Promise<unknown> | null = null;
  constructor(private readonly flush: () => Promise<void>) {}

  async wrote(n: number): Promise<void> {
    this.since += n;
    if (this.since < writeBehindBytes) return;
    this.since = 0;
    await this.settle();
    // Caught here and rethrown by the next settle: a flush nobody awaits yet must not go unhandled.
    this.inFlight = this.flush().then(
      () => null,
      (error: unknown) => ({ error }),
    );
  }

  async settle(): Promise<void> {
    const done = (await this.inFlight) as { error: unknown } | null;
    this.inFlight = null;
    if (done !== null) throw done.error;
  }
}

/**
 * Copies `src[from, to)` through `write` (given each chunk and its offset from `from`), in chunks; the
 * stop signal is read before each one, and `behind` flushes what was written as it goes.
 */
async function pump(
  src: ByteSource,
  from: number,
  to: number,
  write: (chunk: Buffer, offset: number) => Promise<void>,
  signal: AbortSignal | undefined,
  behind: WriteBehind,
): Promise<void> {
  const buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - from)));
  let pos = from;
  try {
    while (pos < to) {
      signal?.throwIfAborted();
      const n = await src.read(buf, Math.min(buf.length, to - pos), pos);
      if (n === 0) throw custodyErrors.io(src.label, 'copy', new Error(`it shrank to ${pos} bytes while being copied (expected ${to})`));
      await write(buf.subarray(0, n), pos - from);
      pos += n;
      await behind.wrote(n);
    }
  } finally {
    // Whatever happened, no flush is left using the descriptor (its error matters only on success).
    await behind.settle().catch((error: unknown) => {
      if (pos >= to) throw error;
    });
  }
}

/** Writes the whole source to the target's temp name (the publisher makes it durable) and returns that name. */
async function writeTemp(src: ByteSource, dest: string, signal: AbortSignal | undefined): Promise<string> {
  if (src.fd !== null && isSmallCopy(src.size)) {
    signal?.throwIfAborted();
    return copySmallIntoTemp(src.fd, src.size, src.mtimeMs, dest, src.label);
  }
  if (src.fd !== null && src.size <= kernelCopyBytes) {
    signal?.throwIfAborted();
    const tmp = await copyIntoTemp(src.fd, src.size, src.mtimeMs, dest, src.label);
    if (tmp !== null) return tmp;
  }
  // A failed or stopped copy is rolled back there: its temp file removed.
  return fillTempFile(dest, async (fd) => {
    // pump fails unless exactly src.size bytes were read and written.
    await pump(src, 0, src.size, (chunk, offset) => writeAt(fd, chunk, offset), signal, new WriteBehind(() => flushFd(fd, dest)));
    // The kept file carries the vendor file's mtime, so the next keep's size+mtime check is a stat.
    setMtime(fd, src.mtimeMs);
  });
}

/** Writes the new copy and stages it (wrapped: awaiting the copy must not wait for its publication). */
async function copyNew(src: ByteSource, dest: string, io: KeepIo, outcome: KeepOutcome): Promise<ActionResult> {
  const tmp = await writeTemp(src, dest, io.signal);
  return { outcome, published: io.publisher.stage(tmp, dest, 'rename', src.size) };
}

/** Backups of `dest` as `{n, ino}`, highest number last. */
async function backups(dest: string): Promise<{ n: number; path: string }[]> {
  const name = basename(dest);
  const out: { n: number; path: string }[] = [];
  for (const file of await readdir(osPath(dirname(dest)))) {
    const n = backupNumber(name, file);
    if (n !== null) out.push({ n, path: backupPath(dest, n) });
  }
  return out.sort((a, b) => a.n - b.n);
}

/**
 * The backup that already holds the kept file's inode: a refresh killed between the link and the
 * rename leaves one, and it must be reused (refresh) or dropped (extend: the kept bytes stay).
 */
async function linkedBackup(dest: string, ino: number, dev: number): Promise<string | null> {
  for (const b of (await backups(dest)).reverse()) {
    const st = await lstatOrNull(b.path);
    if (st !== null && st.ino === ino && st.dev === dev) return b.path;
  }
  return null;
}

/** Keeps the current kept bytes as `<file>.<n>.bak` (a hard link: no copy, no window without a kept file). */
async function backUp(dest: string): Promise<void> {
  const st = await lstatOrNull(dest);
  if (st === null) return;
  if (st.nlink > 1 && (await linkedBackup(dest, st.ino, st.dev)) !== null) return;
  let n = ((await backups(dest)).at(-1)?.n ?? 0) + 1;
  for (;;) {
    try {
      await link(osPath(dest), osPath(backupPath(dest, n)));
      break;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') {
        n++;
        continue;
      }
      throw custodyErrors.io(backupPath(dest, n), 'back up to', error);
    }
  }
  await fsyncDir(dirname(dest));
}

async function refreshed(src: ByteSource, dest: string, io: KeepIo): Promise<ActionResult> {
  const tmp = await writeTemp(src, dest, io.signal);
  try {
    // The backup link is synced at once: the new copy must never be in place without it.
    await backUp(dest);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw error;
  }
  return { outcome: 'refreshed', published: io.publisher.stage(tmp, dest, 'rename', src.size) };
}

/** True when `kept[pos, pos+len)` equals `src[pos, pos+len)` (`kept`: a descriptor on the kept file). */
async function sameRange(
  kept: number,
  src: ByteSource,
  pos: number,
  len: number,
  a: Buffer,
  b: Buffer,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let done = 0;
  while (done < len) {
    signal?.throwIfAborted();
    const n = Math.min(a.length, len - done);
    const [x, y] = await Promise.all([readAt(kept, a, n, pos + done), src.read(b, n, pos + done)]);
    if (x !== n || y !== n || a.compare(b, 0, n, 0, n) !== 0) return false;
    done += n;
  }
  return true;
}

/** Compares the whole file, last block first (an edit is likeliest near the end). */
async function sameContent(kept: number, src: ByteSource, size: number, signal: AbortSignal | undefined): Promise<boolean> {
  const a = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, size)));
  const b = Buffer.allocUnsafe(a.length);
  for (let end = size; end > 0; end -= a.length) {
    const start = Math.max(0, end - a.length);
    if (!(await sameRange(kept, src, start, end - start, a, b, signal))) return false;
  }
  return true;
}

async function extend(src: ByteSource, dest: string, from: number, io: KeepIo): Promise<ActionResult> {
  const { fd: kept, stat } = openReadFd(dest);
  let isPrefix: boolean;
  try {
    const a = Buffer.allocUnsafe(prefixProbeBytes);
    const b = Buffer.allocUnsafe(prefixProbeBytes);
    const head = Math.min(prefixProbeBytes, from);
    const tailStart = Math.max(head, from - prefixProbeBytes);
    isPrefix =
      stat.size === from &&
      (await sameRange(kept, src, 0, head, a, b, io.signal)) &&
      (await sameRange(kept, src, tailStart, from - tailStart, a, b, io.signal));
  } finally {
    closeQuiet(kept);
  }
  if (!isPrefix) return refreshed(src, dest, io);
  if (stat.nlink > 1) {
    const shared = await linkedBackup(dest, stat.ino, stat.dev);
    if (shared !== null) await unlinkQuiet(shared);
    else {
      // Someone else links the kept file: appending would change their copy too, so replace it whole.
      return copyNew(src, dest, io, 'extended');
    }
  }
  const out = await openAppend(dest);
  let appended = false;
  try {
    const before = (await out.stat()).size;
    if (before !== from) throw custodyErrors.io(dest, 'extend', new Error(`it is ${before} bytes, expected ${from}`));
    appended = true;
    await pump(src, from, src.size, (chunk) => writeFull(out, chunk, null), io.signal, new WriteBehind(() => out.datasync()));
    await out.sync();
    const after = (await out.stat()).size;
    if (after !== src.size)
      throw custodyErrors.io(dest, 'verify', new Error(`it is ${after} bytes after the append, expected ${src.size}`));
    await setTime(out, src.mtimeMs);
  } catch (error) {
    // A stopped or failed append is rolled back: the kept file is again exactly what was kept before.
    if (appended) await out.truncate(from).catch(() => undefined);
    throw error;
  } finally {
    await out.close();
  }
  return { outcome: 'extended', published: null };
}

const skipped: ActionResult = { outcome: 'skipped', published: null };

async function verify(src: ByteSource, dest: string, io: KeepIo): Promise<ActionResult> {
  const { fd: kept, stat } = openReadFd(dest);
  try {
    if (stat.size === src.size && (await sameContent(kept, src, src.size, io.signal))) {
      setMtime(kept, src.mtimeMs);
      return skipped;
    }
  } finally {
    closeQuiet(kept);
  }
  // Grown since it was planned: an append (its prefix checked there), not a rewrite.
  if (src.size > stat.size) return extend(src, dest, stat.size, io);
  return refreshed(src, dest, io);
}

/**
 * Same size and time as the kept copy: the last block is compared, so a same-size edit whose time
 * was put back is caught where edits land (JSONL transcripts only grow at the end). A source that
 * grew since it was planned is extended instead (its prefix checked there).
 */
async function tail(src: ByteSource, dest: string, io: KeepIo): Promise<ActionResult> {
  const { fd: kept, stat } = openReadFd(dest);
  let same = false;
  try {
    if (stat.size === src.size) {
      const len = Math.min(prefixProbeBytes, src.size);
      const a = Buffer.allocUnsafe(Math.max(1, len));
      const b = Buffer.allocUnsafe(a.length);
      same = await sameRange(kept, src, src.size - len, len, a, b, io.signal);
    }
  } finally {
    closeQuiet(kept);
  }
  if (same) return skipped;
  if (src.size > stat.size) return extend(src, dest, stat.size, io);
  return refreshed(src, dest, io);
}

/**
 * Carries out one action; `dest` is the kept file's absolute path, its folder already made. A copy
 * or refresh is complete once its `published` settles.
 */
export async function runAction(action: KeepAction, src: ByteSource, dest: string, io: KeepIo): Promise<ActionResult> {
  io.signal?.throwIfAborted();
  switch (action.kind) {
    case 'copy':
      return copyNew(src, dest, io, 'copied');
    case 'extend':
      return extend(src, dest, action.from, io);
    case 'refresh':
      return refreshed(src, dest, io);
    case 'verify':
      return verify(src, dest, io);
    case 'tail':
      return tail(src, dest, io);
    case 'skip':
      return skipped;
  }
}
