// Owner-only file primitives: folders made 0700 and files made 0600 at creation (never a chmod
// after the fact), whole-buffer writes, and atomic replacement (temp + fsync + rename).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_TRUNC } = constants;

/** Creates `path` (and missing parents) owner-only. An existing folder is left as it is. */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: privateDirMode });
}

/** Opens a file for appending, creating it 0600; refuses to follow a symlink planted at `path`. */
export function openPrivateAppend(path: string): number {
  return openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, privateFileMode);
}

/** Opens a file for overwriting, creating it 0600; refuses to follow a symlink planted at `path`. */
export function openPrivateTruncate(path: string): number {
  return openSync(path, O_WRONLY | O_TRUNC | O_CREAT | O_NOFOLLOW, privateFileMode);
}

/** Creates a file that must not exist yet (not even as a symlink), 0600. */
export function openPrivateExclusive(path: string): number {
  return openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, privateFileMode);
}

/** Writes every byte of `data` (a single `writeSync` may write fewer). */
export function writeAll(fd: number, data: Buffer | string): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
}

/** Replaces `path` so a reader sees either the old or the new content, never a torn file. */
export function writeFileAtomic(path: string, data: Buffer | string): void {
  writeAtomicWith(path, (fd) => writeAll(fd, data));
}

/**
 * Replaces `path` with what `write` puts into a fresh private temp file (fsynced, renamed, folder
 * synced); on any failure the temp file is removed and `path` keeps its old content.
 */
export function writeAtomicWith(path: string, write: (fd: number) => void): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openPrivateExclusive(tmp);
  try {
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // Already renamed or never written: nothing to clean.
    }
    throw error;
  }
  syncDir(dirname(path));
}

/** Makes a rename durable; folders that cannot be fsynced (some filesystems) are skipped. */
export function syncDir(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, O_RDONLY);
    fsyncSync(fd);
  } catch {
    // EISDIR/EINVAL/EPERM on filesystems without directory fsync: durability is best effort there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
