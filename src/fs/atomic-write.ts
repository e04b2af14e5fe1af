// The one atomic file write: a private temp file in the target's folder, written, fsynced, renamed
// over the target (or hard-linked, to create it only if absent), the folder fsynced; on any failure
// the temp file is removed and the target keeps its old content. A reader sees old or new, never torn.
import { nodeCrypto } from './crypto.js';
import { closeSync, constants, fchmodSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { wrapOsError } from './errors.js';
import { errorCode } from './errors.js';

export interface AtomicWriteOptions {
  /** The file's mode. Default 0600 (agentlog's state is the user's own). */
  mode?: number;
  /**
   * false skips both fsyncs: only for files that are re-derivable and checked on read (a torn one
   * fails its content hash and is rebuilt), where an fsync each would dominate the run.
   */
  durable?: boolean;
  /** Create the file only if nothing is at `path` (hard link instead of rename); false when something was. */
  onlyIfAbsent?: boolean;
  /** The temp file's name in the same folder (a fixed one a recovery pass can find). Default: a unique hidden name. */
  temp?: string;
}

type Content = string | Uint8Array;

/** Writes every byte (a single write may write fewer). */
export function writeAllSync(fd: number, data: Content): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
}

/** Makes a folder's new names durable; filesystems that cannot fsync a folder are let be. */
export function syncDirSync(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY);
    fsyncSync(fd);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw wrapOsError(error, path, 'sync the folder');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Pending {
  path: string;
  tmp: string;
  fd: number;
  opts: AtomicWriteOptions;
}

function begin(path: string, opts: AtomicWriteOptions): Pending {
  const tmp = opts.temp ?? join(dirname(path), `.${basename(path)}.${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
  const mode = opts.mode ?? 0o600;
  let fd: number;
  try {
    // O_TRUNC, not O_EXCL: a fixed temp name left by a killed writer is reused; never through a link.
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, mode);
    fchmodSync(fd, mode);
  } catch (error) {
    throw wrapOsError(error, tmp, 'create the temporary file');
  }
  return { path, tmp, fd, opts };
}

function discard(p: Pending, closed: boolean): void {
  if (!closed) {
    try {
      closeSync(p.fd);
    } catch {
      // Released all the same.
    }
  }
  try {
    unlinkSync(p.tmp);
  } catch {
    // Never created or already gone.
  }
}

function finish(p: Pending): boolean {
  try {
    if (p.opts.durable !== false) fsyncSync(p.fd);
  } catch (error) {
    discard(p, false);
    throw wrapOsError(error, p.tmp, 'write');
  }
  try {
    closeSync(p.fd);
  } catch (error) {
    discard(p, true);
    throw wrapOsError(error, p.tmp, 'write');
  }
  let placed = true;
  try {
    if (p.opts.onlyIfAbsent === true) linkSync(p.tmp, p.path);
    else renameSync(p.tmp, p.path);
  } catch (error) {
    if (p.opts.onlyIfAbsent !== true || errorCode(error) !== 'EEXIST') {
      discard(p, true);
      throw wrapOsError(error, p.path, 'replace');
    }
    placed = false;
  }
  if (p.opts.onlyIfAbsent === true) discard(p, true);
  if (placed && p.opts.durable !== false) syncDirSync(dirname(p.path));
  return placed;
}

/**
 * Replaces (or creates) `path` with `content`, or what `content(fd)` writes. True when written;
 * false only with `onlyIfAbsent` and something already there. Example:
 * `writeFileAtomicSync(metaPath, JSON.stringify(meta))`.
 */
export function writeFileAtomicSync(path: string, content: Content | ((fd: number) => void), opts: AtomicWriteOptions = {}): boolean {
  const p = begin(path, opts);
  try {
    if (typeof content === 'function') content(p.fd);
    else writeAllSync(p.fd, content);
  } catch (error) {
    discard(p, false);
    throw wrapOsError(error, p.tmp, 'write');
  }
  return finish(p);
}

/** `writeFileAtomicSync` whose content writer may be asynchronous (a stream of pieces). */
export async function writeFileAtomic(
  path: string,
  content: Content | ((fd: number) => Promise<void> | void),
  opts: AtomicWriteOptions = {},
): Promise<boolean> {
  const p = begin(path, opts);
  try {
    if (typeof content === 'function') await content(p.fd);
    else writeAllSync(p.fd, content);
  } catch (error) {
    discard(p, false);
    throw wrapOsError(error, p.tmp, 'write');
  }
  return finish(p);
}
