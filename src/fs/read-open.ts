// Opening a file for reading only when it is a regular file: a FIFO, socket or device named like a
// session file would block the first read forever (or never end), so it is refused before a byte is read.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { AgentlogError } from '../errors.js';
import { osPath } from './byte-path.js';

/**
 * `O_NONBLOCK` makes opening a FIFO with no writer return at once instead of waiting for one (and
 * changes nothing for a regular file), so the type check after the open cannot be raced into a hang.
 */
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK;

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'named pipe (FIFO)';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  if (st.isDirectory()) return 'folder';
  return 'special file';
}

/** Thrown for a path that is not a regular file; readers report it as `unreadable` and go on. */
export function notRegularFile(path: string, st: Stats): AgentlogError<'NotRegularFile'> {
  return new AgentlogError('NotRegularFile', 'failed', `${path} is a ${kindOf(st)}, not a regular file: it is not read`);
}

export interface OpenedFile {
  fd: number;
  size: number;
  mtimeMs: number;
}

/** Opens `path` for reading (following links) when it is a regular file; throws `NotRegularFile` otherwise. */
export function openRegularSync(path: string | Buffer): OpenedFile {
  const fd = openSync(typeof path === 'string' ? osPath(path) : path, readFlags);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegularFile(path.toString(), st);
    return { fd, size: st.size, mtimeMs: st.mtimeMs };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The asynchronous form of `openRegularSync`. */
export async function openRegular(path: string | Buffer): Promise<{ handle: FileHandle; size: number; mtimeMs: number }> {
  const handle = await open(typeof path === 'string' ? osPath(path) : path, readFlags);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notRegularFile(path.toString(), st);
    return { handle, size: st.size, mtimeMs: st.mtimeMs };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A regular file's whole content as UTF-8 (for small documents: metadata, state files). */
export function readRegularFileSync(path: string | Buffer): string {
  const file = openRegularSync(path);
  try {
    return readOpenedSync(file);
  } finally {
    closeSync(file.fd);
  }
}

/**
 * The whole content of a file `openRegularSync` opened, as UTF-8 (the caller closes it): for a
 * caller that decides on the size the open's stat gave before reading (no second stat).
 */
export function readOpenedSync(file: OpenedFile): string {
  return readOpenedBytesSync(file).toString('utf8');
}

/** The bytes `readOpenedSync` decodes, for a caller that looks at them first. */
export function readOpenedBytesSync({ fd, size }: OpenedFile): Buffer {
  // One buffer a byte over the size, decoded where it lies: a file that did not grow is read with
  // no copy (a scan of Cline's task documents spent a fifth of its read copying chunks). Read to
  // the end rather than trusting the size: the file may grow while it is read.
  let buf = Buffer.allocUnsafe(size + 1);
  let total = 0;
  for (;;) {
    if (total === buf.length) {
      const larger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(larger, 0, 0, total);
      buf = larger;
    }
    const got = readSync(fd, buf, total, buf.length - total, total);
    if (got === 0) break;
    total += got;
  }
  return buf.subarray(0, total);
}

/**
 * The bytes of a file a directory walk has just stat'ed at `size`, trusting that stat: one open and
 * one read, no fstat (12,380 of them were ~25 ms of the bench home's cold OpenCode scan). The read
 * asks a byte more than `size`, and a read of a regular file stops short only at its end: any other
 * count means the file is no longer what the walk saw (grown, shrunk, not a regular file: a FIFO's
 * read fails or ends at once, a device's runs on). Undefined then, or when it cannot be opened: the
 * caller reads it again through `openRegularSync`, which tells what it is. No second read to see the
 * end: that doubled the reads. An empty file is undefined too (a FIFO's read would look the same).
 */
export function readSeenBytesSync(path: string, size: number): Buffer | undefined {
  if (size === 0) return undefined;
  try {
    const fd = openSync(osPath(path), readFlags);
    try {
      const buf = Buffer.allocUnsafe(size + 1);
      return readSync(fd, buf, 0, size + 1, 0) === size ? buf.subarray(0, size) : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The asynchronous form of `readRegularFileSync`. */
export async function readRegularFile(path: string | Buffer): Promise<string> {
  const { handle } = await openRegular(path);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
