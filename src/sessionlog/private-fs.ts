// Owner-only file primitives: folders made 0700 and files made 0600 at creation (never a chmod
// after the fact). Whole-buffer and atomic writes are src/fs/atomic-write.ts.
import { constants, mkdirSync, openSync } from 'node:fs';

export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_TRUNC } = constants;

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
