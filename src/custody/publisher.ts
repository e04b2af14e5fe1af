// Putting new kept files in place, in batches. A copy is written to its temp name and staged; a batch
// of staged temps is made durable with one filesystem barrier (sync-fs.ts; an fsync per file where
// there is none, or for a handful of files), then each is renamed into place (custody facts: linked,
// so an existing one is never replaced), then the folders' new names are made durable the same way.
// A kept file is thus never visible before its bytes are on disk, as with an fsync per file, but a
// first keep of thousands of small files costs a few barriers instead of thousands of journal commits.
// Once its stop signal aborts, what is staged and not yet being published is rolled back (temps
// removed, each rejected with the signal's reason); a batch already being made durable completes.
import { linkSync, lstatSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from '../fs/errors.js';
import { CustodyError, custodyErrors } from './errors.js';
import { mapPool } from '../fs/pool.js';
import { fsyncDir, openRead, unlinkNow } from './safe-fs.js';
import { syncFileSystem } from './sync-fs.js';
import { osPath } from '../fs/byte-path.js';

/** `rename`: a copy replacing (or becoming) the kept file. `link`: custody facts, written only if absent. */
export type PlaceKind = 'rename' | 'link';

interface Staged {
  tmp: string;
  dest: string;
  kind: PlaceKind;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface PublisherLimits {
  /** Publication starts once this many files or bytes are staged (and for whatever is left at the end); it takes all staged by then. */
  files: number;
  bytes: number;
  /** Smaller batches fsync each file: cheaper than a barrier (a process and a whole-filesystem flush). */
  barrierFrom: number;
}

export const defaultPublisherLimits: PublisherLimits = { files: 8192, bytes: 256 * 1024 * 1024, barrierFrom: 16 };

/** Files fsynced at once when there is no barrier. */
const fsyncConcurrency = 4;

/** Makes one temp durable by itself: reopened without following a link, fsynced. */
async function fsyncFile(path: string): Promise<void> {
  const { handle } = await openRead(path);
  try {
    await handle.sync();
  } catch (error) {
    throw custodyErrors.io(path, 'sync', error);
  } finally {
    await handle.close();
  }
}

export class Publisher {
  private pending: Staged[] = [];
  private pendingBytes = 0;
  private chain: Promise<void> = Promise.resolve();
  private draining = false;
  private scheduled = false;
  private rootDev: number | undefined;
  private readonly sameFs = new Map<string, boolean>();
  private signal: AbortSignal | undefined;

  /**
   * `root`: a folder on the filesystem every staged file is on (the installation's kept root).
   * `barrier` flushes that filesystem, or answers false when it cannot (then each file is fsynced).
   */
  constructor(
    private readonly root: string,
    private readonly limits: PublisherLimits = defaultPublisherLimits,
    private readonly barrier: (root: string) => Promise<boolean> = syncFileSystem,
  ) {}

  /** From when `signal` aborts, nothing more is published: staged temps are rolled back. */
  stopOn(signal: AbortSignal): void {
    this.signal = signal;
    if (signal.aborted) this.rollBack(this.takePending());
    else signal.addEventListener('abort', () => this.rollBack(this.takePending()), { once: true });
  }

  private takePending(): Staged[] {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return batch;
  }

  /** Removes the temps of a batch that will not be published and rejects them with the stop's reason. */
  private rollBack(batch: Staged[]): void {
    for (const s of batch) {
      unlinkNow(s.tmp);
      s.reject(this.signal?.reason);
    }
  }

  /**
   * Hands over a written temp (not yet fsynced) to be made durable and placed at `dest`. Settles once
   * it is in place and durable, or rejects (the temp removed) when it could not be.
   */
  stage(tmp: string, dest: string, kind: PlaceKind, bytes: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal?.aborted === true) {
        this.rollBack([{ tmp, dest, kind, resolve, reject }]);
        return;
      }
      this.pending.push({ tmp, dest, kind, resolve, reject });
      this.pendingBytes += bytes;
      if (this.draining || this.pending.length >= this.limits.files || this.pendingBytes >= this.limits.bytes) this.schedule();
    });
  }

  /** No more sessions will start: from now on whatever is staged is published promptly. */
  drain(): void {
    this.draining = true;
    this.schedule();
  }

  /** Drains, then waits until nothing is staged or being published (before the lock is let go). */
  async settled(): Promise<void> {
    this.drain();
    while (this.scheduled || this.pending.length > 0) await new Promise((r) => setImmediate(r));
    await this.chain;
  }

  /** Coalesces the stages of one turn of the event loop into one batch. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.takePending();
      // Batches are published one after another; a failure settles only its own files (and an
      // unforeseen one all of them, so that no keep waits forever).
      this.chain = this.chain
        .then(() => this.publish(batch))
        .catch((error: unknown) => {
          for (const s of batch) s.reject(error);
        });
    });
  }

  /** True when `dir` is on the root's filesystem, so the root's barrier covers it (a mount inside custody is not). */
  private covered(dir: string): boolean {
    let same = this.sameFs.get(dir);
    if (same === undefined) {
      try {
        this.rootDev ??= lstatSync(this.root).dev;
        same = lstatSync(osPath(dir)).dev === this.rootDev;
      } catch {
        // Cannot tell: each file is fsynced, and reports its own error.
        same = false;
      }
      this.sameFs.set(dir, same);
    }
    return same;
  }

  /** Makes the batch's temps durable: true when a barrier did it, else each file that fails is rejected. */
  private async durable(batch: Staged[]): Promise<{ ok: Staged[]; barrier: boolean }> {
    if (batch.length >= this.limits.barrierFrom && batch.every((s) => this.covered(dirname(s.tmp))) && (await this.barrier(this.root)))
      return { ok: batch, barrier: true };
    const synced = await mapPool(batch, fsyncConcurrency, async (s) => {
      try {
        await fsyncFile(s.tmp);
        return true;
      } catch (error) {
        unlinkNow(s.tmp);
        s.reject(error);
        return false;
      }
    });
    return { ok: batch.filter((_, i) => synced[i] === true), barrier: false };
  }

  private async publish(batch: Staged[]): Promise<void> {
    if (batch.length === 0) return;
    if (this.signal?.aborted === true) {
      this.rollBack(batch);
      return;
    }
    const { ok, barrier } = await this.durable(batch);
    const placed: Staged[] = [];
    for (const s of ok) {
      try {
        if (s.kind === 'rename') renameSync(osPath(s.tmp), osPath(s.dest));
        else {
          try {
            linkSync(osPath(s.tmp), osPath(s.dest));
          } catch (error) {
            // Facts another keep already wrote stay as they are.
            if (errorCode(error) !== 'EEXIST') throw error;
          }
          unlinkNow(s.tmp);
        }
        placed.push(s);
      } catch (error) {
        unlinkNow(s.tmp);
        s.reject(error instanceof CustodyError ? error : custodyErrors.io(s.dest, s.kind === 'rename' ? 'rename into' : 'link', error));
      }
    }
    if (placed.length === 0) return;
    // The new names: one more barrier, or each folder's fsync (a folder that fails fails its files).
    if (barrier && (await this.barrier(this.root))) {
      for (const s of placed) s.resolve();
      return;
    }
    const failedDirs = new Map<string, unknown>();
    for (const dir of new Set(placed.map((s) => dirname(s.dest)))) {
      try {
        await fsyncDir(dir);
      } catch (error) {
        failedDirs.set(dir, error);
      }
    }
    for (const s of placed) {
      const error = failedDirs.get(dirname(s.dest));
      if (error === undefined) s.resolve();
      else s.reject(error);
    }
  }
}
