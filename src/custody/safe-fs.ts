// File operations custody writes and reads through: no symbolic link is followed below a trusted
// root (every ancestor lstat-checked, leaves opened with O_NOFOLLOW), folders are created 0700 one
// level at a time, and whole-file writes go temp + fsync + rename (kept copies through publisher.ts,
// which makes a batch durable at once).
import { chmodSync, constants, lstatSync, mkdirSync, unlinkSync, type Stats } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { readExact } from '../fs/read-exact.js';
import { errorCode } from '../fs/errors.js';
import { CustodyError, custodyErrors } from './errors.js';
import { osPath } from '../fs/byte-path.js';

const { O_RDONLY, O_WRONLY, O_APPEND, O_NOFOLLOW } = constants;

export const fileMode = 0o600;
export const dirMode = 0o700;

/**
 * `lstat` without the promise round trip, or null when nothing is there. Used when planning a keep,
 * where thousands of metadata-only calls would otherwise cost more in scheduling than in the kernel.
 */
export function lstatNow(path: string): Stats | null {
  try {
    // Absent is the common answer on a first keep: no exception built for it.
    return lstatSync(osPath(path), { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** `lstat`, or null when nothing is there. */
export async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(osPath(path));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function wrap(error: unknown, path: string, what: string): Error {
  if (error instanceof CustodyError) return error;
  if (errorCode(error) === 'ELOOP') return custodyErrors.unsafePath(path, 'it is a symbolic link');
  return custodyErrors.io(path, what, error);
}

/**
 * The first folder of `relDir` below `root` that does not exist, or null when all do; a level that is
 * a link or not a folder is refused (UnsafePath). `verified` caches folders already checked during
 * one run so a keep of many files costs one lstat per folder. Synchronous: metadata only.
 */
export function missingDir(root: string, relDir: string, verified?: Set<string>): string | null {
  if (relDir === '') return null;
  if (verified?.has(join(root, relDir))) return null;
  let path = root;
  for (const part of relDir.split('/')) {
    if (part === '') continue;
    path = join(path, part);
    if (verified?.has(path)) continue;
    let st: Stats | null;
    try {
      st = lstatNow(path);
    } catch (error) {
      throw wrap(error, path, 'inspect');
    }
    if (st === null) return path;
    if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'it is a symbolic link');
    if (!st.isDirectory()) throw custodyErrors.unsafePath(path, 'it is not a folder');
    verified?.add(path);
  }
  return null;
}

/** Checks that each folder of `relDir` below `root` exists and is a real folder, not a link. */
export async function assertRealDirs(root: string, relDir: string, verified?: Set<string>): Promise<void> {
  const missing = missingDir(root, relDir, verified);
  if (missing !== null) throw custodyErrors.io(missing, 'find', new Error('no such folder'));
}

/**
 * Creates `root/relDir` one level at a time, each new folder 0700 (chmod'ed, so a loose umask does
 * not widen it); an existing level must be a real folder. Returns the absolute folder.
 */
export async function ensureDirs(root: string, relDir: string, verified?: Set<string>): Promise<string> {
  const full = join(root, relDir);
  if (verified?.has(full)) return full;
  let path = root;
  for (const part of relDir.split('/').filter((p) => p !== '')) {
    path = join(path, part);
    if (verified?.has(path)) continue;
    // Synchronous: a first keep makes thousands of folders, and these calls are metadata only.
    try {
      mkdirSync(osPath(path), { mode: dirMode });
      chmodSync(osPath(path), dirMode);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw wrap(error, path, 'create');
      let st: Stats;
      try {
        st = lstatSync(osPath(path));
      } catch (e) {
        throw wrap(e, path, 'inspect');
      }
      if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'it is a symbolic link');
      if (!st.isDirectory()) throw custodyErrors.unsafePath(path, 'it is not a folder');
    }
    verified?.add(path);
  }
  return path;
}

/** Opens a file for reading without following a link at the leaf; it must be a regular file. */
export async function openRead(path: string): Promise<{ handle: FileHandle; stat: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(osPath(path), O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    throw wrap(error, path, 'open');
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw custodyErrors.unsafePath(path, 'it is not a regular file');
    return { handle, stat: st };
  } catch (error) {
    await handle.close();
    throw wrap(error, path, 'inspect');
  }
}

/** Opens an existing kept file to append to it (never through a link). */
export async function openAppend(path: string): Promise<FileHandle> {
  try {
    return await open(osPath(path), O_WRONLY | O_APPEND | O_NOFOLLOW);
  } catch (error) {
    throw wrap(error, path, 'open');
  }
}

/** Makes a folder's entries (a rename, a new file) durable. Platforms that cannot fsync a folder are let be. */
export async function fsyncDir(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(osPath(path), O_RDONLY | O_NOFOLLOW);
    await handle.sync();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw wrap(error, path, 'sync');
  } finally {
    await handle?.close();
  }
}

/** Reads exactly `length` bytes at `position` unless the file ends first. */
export const readFull = (handle: FileHandle, buf: Buffer, length: number, position: number): Promise<number> =>
  readExact(handle.fd, buf, length, position);

/** Writes a whole buffer (short writes looped). */
export async function writeFull(handle: FileHandle, buf: Buffer, position: number | null): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await handle.write(buf, done, buf.length - done, position === null ? null : position + done);
    done += bytesWritten;
  }
}

export async function unlinkQuiet(path: string): Promise<void> {
  await unlink(osPath(path)).catch(() => undefined);
}

/** Removes a temp file now, quietly: already gone, or the next keep's recovery sweeps it. */
export function unlinkNow(path: string): void {
  try {
    unlinkSync(osPath(path));
  } catch {
    // Nothing more to do here.
  }
}

/** True when `child` is `parent` or inside it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}
