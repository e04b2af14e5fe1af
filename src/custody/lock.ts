// One lock per installation so two keeps never interleave their writes: the one lock of src/fs
// (its staleness rule: a dead pid on this host, an unrefreshed lock from another) under custody's
// busy error.
import { join } from 'node:path';
import type { Clock } from '../fs/clock.js';
import { acquireLock as acquireFileLock } from '../fs/lock.js';
import { CustodyError } from './errors.js';
import { lockFile } from './paths.js';

export interface InstallationLock {
  readonly path: string;
  /** True when a dead keep's lock was broken to get this one: its temp files may be lying about. */
  readonly recovered: boolean;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a live owner before failing with CustodyBusy. Default 10 s. */
  waitMs?: number;
  clock?: Clock;
  /** Stops waiting (a signal to the CLI). */
  signal?: AbortSignal;
}

/** Takes the installation's lock (waiting a while for a live owner), or fails with CustodyBusy. */
export async function acquireLock(root: string, opts: LockOptions = {}): Promise<InstallationLock> {
  const lock = await acquireFileLock(join(root, lockFile), {
    waitMs: opts.waitMs ?? 10_000,
    ...(opts.clock !== undefined ? { clock: opts.clock } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    busy: (path, holder) =>
      new CustodyError(
        'CustodyBusy',
        `${holder === null ? 'another keep' : `another keep (pid ${holder.pid} on ${holder.host})`} is writing this installation; wait for it to finish or, if none is running, delete ${path}`,
        path,
      ),
  });
  return {
    path: lock.path,
    recovered: lock.recovered,
    release: async () => lock.release(),
  };
}
