// The store's writer lock: one indexing process at a time. The one lock of src/fs (a dead pid on
// this host, or a lock another host stopped refreshing, is taken over; a live, slow holder never
// is) under the search layer's busy error.
import { join } from 'node:path';
import type { Clock } from '../fs/clock.js';
import { acquireLock, type LockHolder } from '../fs/lock.js';
import { SearchError } from './errors.js';

export type LockBody = LockHolder;

export interface WriterLock {
  readonly token: string;
  /** Whether the lock file is still ours (checked before each manifest write). */
  held(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up with `IndexBusy`. Default 10 minutes. */
  waitMs?: number;
  /** Called once when the lock is busy and we start waiting. */
  onWait?: (holder: LockBody | null) => void;
  /** A holder refreshes the file this often (another host judges it by that). */
  heartbeatMs?: number;
  /** A lock from another host not refreshed for this long is abandoned. */
  staleMs?: number;
  clock?: Clock;
  /** Stops waiting (a signal to the CLI). */
  signal?: AbortSignal;
}

const lockName = 'writer.lock';

/** Takes the writer lock of the store at `root`, waiting for a live holder up to `waitMs`. */
export async function acquireWriterLock(root: string, opts: LockOptions = {}): Promise<WriterLock> {
  const lock = await acquireLock(join(root, lockName), {
    waitMs: opts.waitMs ?? 10 * 60_000,
    foreignStaleMs: opts.staleMs ?? 5 * 60_000,
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    ...(opts.onWait !== undefined ? { onWait: opts.onWait } : {}),
    ...(opts.clock !== undefined ? { clock: opts.clock } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    busy: (_path, holder) =>
      new SearchError(
        'IndexBusy',
        `the search index is being written by ${holder !== null ? `pid ${holder.pid} on ${holder.host}` : 'another process'}; wait for it to finish (or stop it) and try again`,
      ),
  });
  return {
    token: lock.token,
    held: async () => lock.held(),
    release: async () => lock.release(),
  };
}
