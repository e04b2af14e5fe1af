// The keep executor: carries out one planned action on one file, atomically. A copy or refresh is
// written to a temp file, fsynced and renamed into place; a refresh first hard-links the previous
// kept bytes to a numbered backup; an extend appends only the new bytes, fsyncs and verifies the size.
import type { FileHandle } from 'node:fs/promises';
import { link, readdir, rename } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { errorCode } from '../fs/stat.js';
import type { ByteSource } from './byte-source.js';
import { custodyErrors } from './errors.js';
import type { KeepAction } from './keep-plan.js';
import { backupNumber, backupPath, tempPath } from './paths.js';
import { fsyncDir, lstatOrNull, openAppend, openRead, openTemp, readFull, renameDurable, unlinkQuiet, writeFull } from './safe-fs.js';

export const keepOutcomes = ['copied', 'extended', 'refreshed', 'skipped'] as const;
export type KeepOutcome = (typeof keepOutcomes)[number];

const chunkBytes = 1 << 20;
/** How much of each end an extend compares to accept the kept bytes as a prefix of the vendor file. */
export const prefixProbeBytes = 64 * 1024;

async function setTime(handle: FileHandle, mtimeMs: number | null): Promise<void> {
  if (mtimeMs === null) return;
  // The kept file carries the vendor file's mtime, so the next keep's size+mtime check is a stat.
  await handle.utimes(new Date(), mtimeMs / 1000).catch(() => undefined);
}

/** Copies `src[from, to)` to `dest` at its current end (or `at`), in chunks. */
async function pump(src: ByteSource, dest: FileHandle, from: number, to: number, at: number | null): Promise<void> {
  const buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - from)));
  let pos = from;
  while (pos < to) {
    const n = await src.read(buf, Math.min(buf.length, to - pos), pos);
    if (n === 0) throw custodyErrors.io(src.label, 'copy', new Error(`it shrank to ${pos} bytes while being copied (expected ${to})`));
    await writeFull(dest, buf.subarray(0, n), at === null ? null : at + (pos - from));
    pos += n;
  }
}

/** Writes the whole source to the target's temp name, fsynced, and returns that name. */
async function writeTemp(src: ByteSource, dest: string): Promise<string> {
  const tmp = tempPath(dest);
  const handle = await openTemp(tmp);
  try {
    // pump fails unless exactly src.size bytes were read and written.
    await pump(src, handle, 0, src.size, 0);
    await handle.sync();
    await setTime(handle, src.mtimeMs);
  } catch (error) {
    await handle.close();
    await unlinkQuiet(tmp);
    throw error;
  }
  await handle.close();
  return tmp;
}

/**
 * Folders whose entries changed and still need an fsync. A keep collects them and syncs each once at
 * the end of a session instead of once per file: losing a rename to a power cut only means the next
 * keep copies that file again, while the file's bytes were fsynced before the rename.
 */
export type DirtyDirs = Set<string>;

async function publish(tmp: string, dest: string, dirty: DirtyDirs | undefined): Promise<void> {
  if (dirty === undefined) {
    await renameDurable(tmp, dest, dirname(dest));
    return;
  }
  try {
    await rename(tmp, dest);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw custodyErrors.io(dest, 'rename into', error);
  }
  dirty.add(dirname(dest));
}

async function copyNew(src: ByteSource, dest: string, dirty?: DirtyDirs): Promise<void> {
  await publish(await writeTemp(src, dest), dest, dirty);
}

/** Backups of `dest` as `{n, ino}`, highest number last. */
async function backups(dest: string): Promise<{ n: number; path: string }[]> {
  const name = basename(dest);
  const out: { n: number; path: string }[] = [];
  for (const file of await readdir(dirname(dest))) {
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
      await link(dest, backupPath(dest, n));
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

async function refresh(src: ByteSource, dest: string, dirty?: DirtyDirs): Promise<void> {
  const tmp = await writeTemp(src, dest);
  try {
    // The backup link is synced at once: the new copy must never be durable without it.
    await backUp(dest);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw error;
  }
  await publish(tmp, dest, dirty);
}

/** True when `kept[pos, pos+len)` equals `src[pos, pos+len)`. */
async function sameRange(kept: FileHandle, src: ByteSource, pos: number, len: number, a: Buffer, b: Buffer): Promise<boolean> {
  let done = 0;
  while (done < len) {
    const n = Math.min(a.length, len - done);
    const [x, y] = await Promise.all([readFull(kept, a, n, pos + done), src.read(b, n, pos + done)]);
    if (x !== n || y !== n || a.compare(b, 0, n, 0, n) !== 0) return false;
    done += n;
  }
  return true;
}

/** Compares the whole file, last block first (an edit is likeliest near the end). */
async function sameContent(kept: FileHandle, src: ByteSource, size: number): Promise<boolean> {
  const a = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, size)));
  const b = Buffer.allocUnsafe(a.length);
  for (let end = size; end > 0; end -= a.length) {
    const start = Math.max(0, end - a.length);
    if (!(await sameRange(kept, src, start, end - start, a, b))) return false;
  }
  return true;
}

async function extend(src: ByteSource, dest: string, from: number, dirty?: DirtyDirs): Promise<KeepOutcome> {
  const { handle: kept, stat } = await openRead(dest);
  let isPrefix: boolean;
  try {
    const a = Buffer.allocUnsafe(prefixProbeBytes);
    const b = Buffer.allocUnsafe(prefixProbeBytes);
    const head = Math.min(prefixProbeBytes, from);
    const tailStart = Math.max(head, from - prefixProbeBytes);
    isPrefix = stat.size === from && (await sameRange(kept, src, 0, head, a, b)) && (await sameRange(kept, src, tailStart, from - tailStart, a, b));
  } finally {
    await kept.close();
  }
  if (!isPrefix) {
    await refresh(src, dest, dirty);
    return 'refreshed';
  }
  if (stat.nlink > 1) {
    const shared = await linkedBackup(dest, stat.ino, stat.dev);
    if (shared !== null) await unlinkQuiet(shared);
    else {
      // Someone else links the kept file: appending would change their copy too, so replace it whole.
      await copyNew(src, dest, dirty);
      return 'extended';
    }
  }
  const out = await openAppend(dest);
  try {
    const before = (await out.stat()).size;
    if (before !== from) throw custodyErrors.io(dest, 'extend', new Error(`it is ${before} bytes, expected ${from}`));
    await pump(src, out, from, src.size, null);
    await out.sync();
    const after = (await out.stat()).size;
    if (after !== src.size) throw custodyErrors.io(dest, 'verify', new Error(`it is ${after} bytes after the append, expected ${src.size}`));
    await setTime(out, src.mtimeMs);
  } finally {
    await out.close();
  }
  return 'extended';
}

async function verify(src: ByteSource, dest: string, dirty?: DirtyDirs): Promise<KeepOutcome> {
  const { handle: kept, stat } = await openRead(dest);
  try {
    if (stat.size === src.size && (await sameContent(kept, src, src.size))) {
      await setTime(kept, src.mtimeMs);
      return 'skipped';
    }
  } finally {
    await kept.close();
  }
  await refresh(src, dest, dirty);
  return 'refreshed';
}

/**
 * Carries out one action; `dest` is the kept file's absolute path, its folder already made. With
 * `dirty`, folder fsyncs after renames are left to the caller (see DirtyDirs).
 */
export async function runAction(action: KeepAction, src: ByteSource, dest: string, dirty?: DirtyDirs): Promise<KeepOutcome> {
  switch (action.kind) {
    case 'copy':
      await copyNew(src, dest, dirty);
      return 'copied';
    case 'extend':
      return extend(src, dest, action.from, dirty);
    case 'refresh':
      await refresh(src, dest, dirty);
      return 'refreshed';
    case 'verify':
      return verify(src, dest, dirty);
    case 'skip':
      return 'skipped';
  }
}
