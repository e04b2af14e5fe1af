// One lock per installation so two keeps never interleave their writes: an O_EXCL lock file
// holding the owner's pid; a lock whose owner is gone (a keep killed mid-way) is broken safely.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { closeSync, constants, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { errorCode } from '../fs/stat.js';
import { CustodyError, custodyErrors } from './errors.js';
import { lockFile } from './paths.js';
import { fileMode } from './safe-fs.js';

export interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  started_at: string;
}

export interface InstallationLock {
  readonly path: string;
  /** True when a dead keep's lock was broken to get this one: its temp files may be lying about. */
  readonly recovered: boolean;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a live owner before failing with CustodyBusy. Default 10 s. */
  waitMs?: number;
  pollMs?: number;
  now?: () => number;
}

/** A lock file that never got its owner written (a crash between create and write) is stale after this. */
const unwrittenGraceMs = 5_000;

function parseOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string' && typeof v.started_at === 'string')
      return v as LockOwner;
  } catch {
    // fall through
  }
  return null;
}

/** True unless the pid surely names no running process on this host (EPERM means it exists). */
export function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

// The lock file is tiny and touched twice a keep: synchronous calls, no thread-pool round trips.
async function readOwner(path: string): Promise<{ owner: LockOwner | null; mtimeMs: number } | null> {
  try {
    const text = readFileSync(path, 'utf8');
    return { owner: parseOwner(text), mtimeMs: statSync(path).mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw custodyErrors.io(path, 'read the lock', error);
  }
}

/**
 * Moves a stale lock aside (rename is atomic: of two breakers only one gets the file) and deletes it
 * only if it is still the stale one it looked at; a fresh lock grabbed by mistake is put back.
 */
async function breakStale(path: string, seen: LockOwner | null): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw custodyErrors.io(path, 'break the stale lock', error);
  }
  const moved = await readOwner(aside);
  const same = moved !== null && (seen === null ? moved.owner === null || !ownerAlive(moved.owner) : moved.owner?.nonce === seen.nonce);
  if (same) await unlink(aside).catch(() => undefined);
  else await rename(aside, path).catch(() => undefined);
}

/** Takes the installation's lock (waiting a while for a live owner), or fails with CustodyBusy. */
export async function acquireLock(root: string, opts: LockOptions = {}): Promise<InstallationLock> {
  const path = join(root, lockFile);
  const now = opts.now ?? Date.now;
  const deadline = now() + (opts.waitMs ?? 10_000);
  let recovered = false;
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString('hex'),
    started_at: new Date(now()).toISOString(),
  };
  for (;;) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, fileMode);
      try {
        // Not fsynced: after a crash an empty or lost lock is stale all the same.
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return {
        path,
        recovered,
        async release() {
          const current = await readOwner(path).catch(() => null);
          if (current?.owner?.nonce !== me.nonce) return;
          try {
            unlinkSync(path);
          } catch {
            // Gone already: nothing to release.
          }
        },
      };
    } catch (error) {
      if (errorCode(error) === 'ELOOP') throw custodyErrors.unsafePath(path, 'it is a symbolic link');
      if (errorCode(error) !== 'EEXIST') throw custodyErrors.io(path, 'create the lock', error);
    }
    const held = await readOwner(path);
    if (held === null) continue;
    const stale = held.owner === null ? Date.now() - held.mtimeMs > unwrittenGraceMs : !ownerAlive(held.owner);
    if (stale) {
      await breakStale(path, held.owner);
      recovered = true;
      continue;
    }
    if (now() >= deadline) {
      const who = held.owner === null ? 'another keep' : `another keep (pid ${held.owner.pid} on ${held.owner.host})`;
      throw new CustodyError(
        'CustodyBusy',
        `${who} is writing this installation; wait for it to finish or, if none is running, delete ${path}`,
        path,
      );
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
}
