// Raw file descriptors for the copy path. A first keep copies thousands of small files, and each call
// sent to Node's thread pool costs a wake-up of a pool thread and of the main thread, more than the
// system call itself: so the metadata calls (open, fstat, fchmod, futimes, close) are made
// synchronously, and the data is moved synchronously in small pieces and through the pool in large
// ones (where the copy is worth overlapping). Same guarantees as safe-fs.ts: never through a link at
// the leaf, temp files private.
import { readExact, readExactSync } from '../fs/read-exact.js';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fdatasync,
  fstatSync,
  ftruncateSync,
  futimesSync,
  lstatSync,
  openSync,
  write,
  writeSync,
  type Stats,
} from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { errorCode } from '../fs/errors.js';
import { CustodyError, custodyErrors } from './errors.js';
import { tempPath } from './paths.js';
import { fileMode, unlinkNow, unlinkQuiet } from './safe-fs.js';
import { osPath } from '../fs/byte-path.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW, COPYFILE_EXCL } = constants;

/** Reads and writes up to this size are made synchronously. */
const syncIoBytes = 64 * 1024;

function wrap(error: unknown, path: string, what: string): Error {
  if (error instanceof CustodyError) return error;
  if (errorCode(error) === 'ELOOP') return custodyErrors.unsafePath(path, 'it is a symbolic link');
  return custodyErrors.io(path, what, error);
}

/** Opens a file for reading without following a link at the leaf; it must be a regular file. */
export function openReadFd(path: string): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(osPath(path), O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    throw wrap(error, path, 'open');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw custodyErrors.unsafePath(path, 'it is not a regular file');
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw wrap(error, path, 'inspect');
  }
}

/** Opens (creating or truncating) a private temporary file; a link planted at its name is refused. */
export function openTempFd(path: string): number {
  let fd: number;
  try {
    // The usual case, no temp there: created private (the umask can only narrow 0600), one call.
    return openSync(osPath(path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, fileMode);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw wrap(error, path, 'create');
  }
  try {
    fd = openSync(osPath(path), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, fileMode);
  } catch (error) {
    throw wrap(error, path, 'create');
  }
  try {
    // A temp left by a killed keep keeps its old mode through O_TRUNC: made private again.
    fchmodSync(fd, fileMode);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw wrap(error, path, 'create');
  }
}

/** Closes a descriptor; for one written to, a failure is an error (some filesystems report late). */
export function closeFd(fd: number, path: string): void {
  try {
    closeSync(fd);
  } catch (error) {
    throw wrap(error, path, 'close');
  }
}

/** Closes a descriptor on a path already failing (its own error is the one to report). */
export function closeQuiet(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // The first error stands.
  }
}

/** Gives the file this mtime (best effort: the keep's size+mtime check then costs a stat). */
export function setMtime(fd: number, mtimeMs: number | null): void {
  if (mtimeMs === null) return;
  try {
    futimesSync(fd, new Date(), mtimeMs / 1000);
  } catch {
    // A file without its time is compared by content next time.
  }
}

const writeAsync = (fd: number, buf: Buffer, offset: number, length: number, position: number | null): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buf, offset, length, position, (error, n) => (error === null ? resolve(n) : reject(error))));

/** Flushes a file's written bytes to disk (through the thread pool: it can take a while). */
export function flushFd(fd: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error === null ? resolve() : reject(wrap(error, path, 'sync')))));
}

/** Reads exactly `length` bytes at `position` unless the file ends first. */
export const readAt = (fd: number, buf: Buffer, length: number, position: number): Promise<number> => readExact(fd, buf, length, position);

/** Writes a whole buffer at `position` (short writes looped). */
export async function writeAt(fd: number, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const want = buf.length - done;
    done += want <= syncIoBytes ? writeSync(fd, buf, done, want, position + done) : await writeAsync(fd, buf, done, want, position + done);
  }
}

/** Closes a written temp file and returns its name; one whose close failed is removed. */
async function closeTemp(fd: number, tmp: string): Promise<string> {
  try {
    closeFd(fd, tmp);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw error;
  }
  return tmp;
}

/**
 * Creates `dest`'s temp file, lets `fill` write it, closes it and returns its name; on any failure
 * the temp file is removed and the error rethrown. The caller publishes it (made durable, renamed).
 */
export async function fillTempFile(dest: string, fill: (fd: number) => Promise<void> | void): Promise<string> {
  const tmp = tempPath(dest);
  const fd = openTempFd(tmp);
  try {
    await fill(fd);
  } catch (error) {
    closeQuiet(fd);
    await unlinkQuiet(tmp);
    throw error;
  }
  // Not in the block above: a descriptor whose close failed is released all the same, never closed twice.
  return closeTemp(fd, tmp);
}

/** One buffer for every small copy: they are synchronous, so never two at once. */
const smallCopyBuffer = Buffer.allocUnsafe(syncIoBytes);

/** True when a file of this size is copied by `copySmallIntoTemp`. */
export const isSmallCopy = (size: number): boolean => size <= syncIoBytes;

/**
 * Copies the first `size` bytes (at most `syncIoBytes`) of the open file `srcFd` to `dest`'s temp file
 * synchronously, through one buffer, and returns its name. Most kept files are this small, and for
 * them a copy in the kernel costs more calls than it saves (a thread-pool round trip, the source
 * reopened, the copy reopened to set its mode and time): here it is open, read, write, futimes,
 * close. The source is the inode opened; a file that shrank below `size` fails the copy, bytes
 * appended since are cut off. On failure the temp file is removed. The caller publishes it.
 */
export function copySmallIntoTemp(srcFd: number, size: number, mtimeMs: number | null, dest: string, label: string): string {
  const tmp = tempPath(dest);
  const fd = openTempFd(tmp);
  try {
    const got = readExactSync(srcFd, smallCopyBuffer, size, 0);
    if (got < size) throw custodyErrors.io(label, 'copy', new Error(`it shrank to ${got} bytes while being copied (expected ${size})`));
    for (let done = 0; done < size; ) done += writeSync(fd, smallCopyBuffer, done, size - done, done);
    setMtime(fd, mtimeMs);
  } catch (error) {
    closeQuiet(fd);
    unlinkNow(tmp);
    throw wrap(error, tmp, 'copy');
  }
  try {
    closeFd(fd, tmp);
  } catch (error) {
    unlinkNow(tmp);
    throw error;
  }
  return tmp;
}

let procFds: boolean | undefined;

/**
 * The name under which the kernel reopens an already open descriptor (Linux: /proc/self/fd/N, which
 * names the very inode opened, whatever its path now leads to), or null where there is none.
 */
function reopenPath(fd: number): string | null {
  procFds ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFds ? `/proc/self/fd/${fd}` : null;
}

/**
 * Copies the first `size` bytes of the open file `srcFd` to `dest`'s temp file inside the kernel
 * (fs.copyFile through the thread pool: copy_file_range or sendfile, a reflink where the filesystem
 * shares blocks), closes it and returns its name; null where the kernel cannot reopen a descriptor
 * (the caller copies through a buffer). The source is the inode opened (never a path looked up
 * again); bytes a writer appended since `size` was taken are cut off, and a file that shrank below
 * it fails the copy. On failure the temp file is removed. The caller publishes it.
 */
export async function copyIntoTemp(
  srcFd: number,
  size: number,
  mtimeMs: number | null,
  dest: string,
  label: string,
): Promise<string | null> {
  const from = reopenPath(srcFd);
  if (from === null) return null;
  const tmp = tempPath(dest);
  // A temp left by a killed keep is removed; a link planted there is refused, as openTempFd does.
  // The copy then creates its own (O_EXCL: nothing is followed).
  const stale = lstatSync(osPath(tmp), { throwIfNoEntry: false });
  if (stale?.isSymbolicLink() === true) throw custodyErrors.unsafePath(tmp, 'it is a symbolic link');
  // Only a temp that is there is removed (a first keep would otherwise pay a failing unlink per file).
  if (stale !== undefined) await unlinkQuiet(tmp);
  try {
    await copyFile(from, osPath(tmp), COPYFILE_EXCL);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw wrap(error, tmp, 'create');
  }
  let fd: number;
  try {
    // Read-only: copyFile gave the copy the source's mode, which may not let its owner write.
    fd = openSync(osPath(tmp), O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    await unlinkQuiet(tmp);
    throw wrap(error, tmp, 'open');
  }
  try {
    // Made private again (its folder is 0700 meanwhile, so no one else could reach it).
    fchmodSync(fd, fileMode);
    const got = fstatSync(fd).size;
    if (got < size) throw custodyErrors.io(label, 'copy', new Error(`it shrank to ${got} bytes while being copied (expected ${size})`));
    if (got > size) {
      const w = openSync(osPath(tmp), O_WRONLY | O_NOFOLLOW);
      try {
        ftruncateSync(w, size);
      } finally {
        closeSync(w);
      }
    }
    setMtime(fd, mtimeMs);
  } catch (error) {
    closeQuiet(fd);
    await unlinkQuiet(tmp);
    throw wrap(error, tmp, 'copy');
  }
  return closeTemp(fd, tmp);
}
