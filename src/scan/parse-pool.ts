// A small pool of worker threads for cold scans and index builds: JSON parsing is CPU-bound, so a
// large home is read on every core, the calling thread's included (scan.ts and sweep.ts read there
// too, so the pool starts one worker fewer than the cores). A worker takes sessions only once its
// modules have loaded: the calling thread never waits on a worker still starting. Falls back to the calling thread where
// workers are unavailable (e.g. under tests that run the TypeScript sources), not worth starting,
// or all gone.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { workerClass } from '../threads/worker-class.js';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { errorCode } from '../fs/errors.js';
import type { MessageExtract, MessageResume } from '../record/message-index.js';
import { type SessionSummary, summariseSession } from './summarise.js';
import type { WorkerRequest } from './parse-worker.js';

/** A worker's answer to a session, or its one `ready` once its modules have loaded. */
type Reply = { id: number; value?: unknown; error?: string } | { ready: true };

interface Job {
  id: number;
  session: DiscoveredSession;
  /** The same read on the calling thread, for a worker that ran out of its heap. */
  here: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (e: Error) => void;
}

export interface ParsePoolOptions {
  /** Below this much work (bytes of session files) the pool is not worth starting. */
  minBytes?: number;
  /** The compiled worker body; defaults to `parse-worker.js` beside this module. */
  workerFile?: string;
  /** How many workers; defaults to one fewer than the cores available, at most 7 (none on one core). */
  workers?: number;
  /** Each worker's old-generation heap bound in MiB (`defaultWorkerHeapMb`). */
  workerHeapMb?: number;
}

/**
 * 40 MiB: below it a cold scan is done in about the time a worker takes to load its modules
 * (~0.2 s), so the worker would only cost the other core, and the scan's end would wait for a
 * worker still loading to stop (Cursor's 20.5 MiB on the bench home). Measured on 2 idle cores at
 * 24 MiB against 40: Qwen Code's 30.8 MiB 0.35-0.37 s → 0.32-0.33 s, Droid's 36.3 MiB 0.33-0.36 →
 * 0.30-0.34 s, Cline's 30.7 MiB 0.37-0.40 → 0.40-0.41 s, and less CPU in all three. Above it the
 * worker takes sessions as soon as it is ready while the calling thread reads from the other end.
 */
export const defaultPoolMinBytes = 40 << 20;

/**
 * 64 MiB: left unbounded, a worker's old generation filled with the garbage of sessions already
 * read to ~120 MiB before V8 collected it, most of a whole-home scan's peak RSS (measured on the
 * 1 GiB bench home: 313-327 → ~260 MiB, the same time). A session that needs more than this alive
 * is read again on the calling thread, whose heap is not bounded.
 */
export const defaultWorkerHeapMb = 64;

export class ParsePool {
  private readonly live = new Set<Worker>();
  private readonly idle: Worker[] = [];
  /** Callers waiting for a worker; each is woken with one, or with null when none is left. */
  private readonly waiting: ((w: Worker | null) => void)[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 0;
  private readonly started: number;
  /** Workers lost to their heap bound that may still be replaced (a bound, so a pool cannot respawn forever). */
  private replacements: number;
  private markReady: () => void = () => undefined;
  /** Settles once a worker has loaded, or every worker is gone. */
  private readonly ready = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });

  private constructor(
    count: number,
    private readonly file: string,
    private readonly heapMb: number,
  ) {
    this.started = count;
    this.replacements = count;
    for (let i = 0; i < count; i++) this.spawn();
  }

  private spawn(): void {
    // A smaller young generation per worker keeps a whole-home scan's peak RSS under 300 MiB
    // (measured: ~300 → ~255 MiB on the 1 GiB bench home) at no measurable cost in time.
    const w = new (workerClass())(this.file, {
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: this.heapMb },
    });
    w.unref();
    w.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        this.markReady();
        this.release(w);
        return;
      }
      const job = this.running.get(w);
      this.running.delete(w);
      this.release(w);
      if (job === undefined || job.id !== reply.id) return;
      if (reply.value !== undefined) job.resolve(reply.value);
      else job.reject(new Error(reply.error ?? 'worker failed'));
    });
    // A worker that fails or exits fails only the session it was reading; the rest go to the
    // workers left, or to the calling thread once there are none. One that ran out of its heap
    // fails no session: that session is read again here, and a fresh worker takes its place.
    w.on('error', (error) => {
      if (errorCode(error) === 'ERR_WORKER_OUT_OF_MEMORY') this.outOfMemory(w);
      else this.lose(w, `a reading worker failed: ${error.message}`);
    });
    w.on('exit', (code) => this.lose(w, `a reading worker stopped (exit code ${code})`));
    this.live.add(w);
  }

  private outOfMemory(w: Worker): void {
    const job = this.running.get(w);
    this.running.delete(w);
    if (this.replacements > 0 && this.live.has(w)) {
      this.replacements--;
      this.spawn();
    }
    this.lose(w, 'a reading worker ran out of memory');
    if (job !== undefined) job.here().then(job.resolve, job.reject);
  }

  /**
   * A pool when the compiled worker exists and the work is large enough to pay for it, else null.
   */
  static create(workBytes: number, options: ParsePoolOptions = {}): ParsePool | null {
    const file = options.workerFile ?? fileURLToPath(new URL('./parse-worker.js', import.meta.url));
    if (!existsSync(file) || workBytes < (options.minBytes ?? defaultPoolMinBytes)) return null;
    const count = options.workers ?? Math.min(availableParallelism() - 1, 7);
    if (count < 1) return null;
    return new ParsePool(count, file, options.workerHeapMb ?? defaultWorkerHeapMb);
  }

  /** The workers started (the scan runs this many sessions at once). */
  get size(): number {
    return this.started;
  }

  /** The workers still running. */
  get alive(): number {
    return this.live.size;
  }

  private lose(w: Worker, why: string): void {
    if (!this.live.delete(w)) return;
    const at = this.idle.indexOf(w);
    if (at >= 0) this.idle.splice(at, 1);
    const job = this.running.get(w);
    this.running.delete(w);
    job?.reject(new Error(`${why} while reading ${job.session.path}`));
    if (this.live.size === 0) {
      this.markReady();
      for (const wake of this.waiting.splice(0)) wake(null);
    }
  }

  release(w: Worker): void {
    if (!this.live.has(w)) return;
    const next = this.waiting.shift();
    if (next !== undefined) next(w);
    else this.idle.push(w);
  }

  /**
   * An idle worker, waiting while every worker is busy or still loading; null when every worker is
   * gone. The caller hands it one session with `summariseOn` or gives it back with `release`.
   */
  acquire(): Promise<Worker | null> {
    const w = this.idle.pop();
    if (w !== undefined) return Promise.resolve(w);
    if (this.live.size === 0) return Promise.resolve(null);
    return new Promise((res) => this.waiting.push(res));
  }

  /** Settles once a worker has loaded (or every worker is gone). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Answers every caller still waiting in `acquire` with null: there is nothing left to hand out. */
  stopWaiting(): void {
    for (const wake of this.waiting.splice(0)) wake(null);
  }

  /** Summarises one session on a worker, or on the calling thread when no worker is left. */
  async summarise(reader: AgentReader, session: DiscoveredSession, userHome: string | null): Promise<SessionSummary> {
    const w = await this.acquire();
    if (w === null) return summariseSession(reader, session, userHome);
    return this.summariseOn(w, reader, session, userHome);
  }

  /** Summarises one session on a worker `acquire` gave; the worker is released when it answers. */
  summariseOn(w: Worker, reader: AgentReader, session: DiscoveredSession, userHome: string | null): Promise<SessionSummary> {
    return this.run(w, { id: this.nextId++, kind: 'summarise', session, userHome }, () => summariseSession(reader, session, userHome));
  }

  /** Extracts one session's messages (`reader.messages.extract`) on a worker `acquire` gave. */
  extractOn(w: Worker, reader: AgentReader, session: DiscoveredSession, from: MessageResume | null): Promise<MessageExtract> {
    return this.run(w, { id: this.nextId++, kind: 'extract', session, from }, () => reader.messages.extract(session, from));
  }

  private run<T>(w: Worker, req: WorkerRequest, here: () => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      // The worker answers with what `here` would return, structured-cloned.
      this.running.set(w, { id: req.id, session: req.session, here, resolve: resolve as (value: unknown) => void, reject });
      w.postMessage(req);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.live].map((w) => w.terminate()));
  }
}
