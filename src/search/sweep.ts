// One indexing sweep (seed 000 "The indexer sweep"): discover every session of every agent that
// extracts messages (vendor homes, then kept copies), plan each from its cursors (skip what is
// unchanged, resume what grew, re-extract what was rewritten), write and publish in batches, then
// flag sources gone and expire what left the window.
import { errorMessage } from '../fs/errors.js';
import type { AgentHomes } from '../scan/scan.js';
import { defaultWindowDays, snapshotId } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { planSession, type SessionPlan } from './session-plan.js';
import { type Extract, indexSession } from './shard-write.js';
import { ensureStore, listGenerations, openManifestForWrite, quarantineFile, readTombstones, storePaths, writeAtomic } from './store.js';
import { readLastSweep } from './coverage.js';
import type { SweepCaches } from './sweep-caches.js';
import { memoInputs, memoPath, readMemo, settleMemo } from './sweep-memo.js';
import { discoverCandidates, type Candidate } from './sweep-discovery.js';
import { collectUnreferenced, expire, flagGone } from './sweep-gc.js';
import { emptyReport, type SweepReport } from './sweep-report.js';
import { acquireWriterLock, type LockBody } from './writer-lock.js';
import { dayMs } from '../fs/clock.js';
import { mapPool } from '../fs/pool.js';
import { ParsePool, type ParsePoolOptions } from '../scan/parse-pool.js';
import { extractStoppable } from './extract-off-thread.js';
import { splitWork, type Work } from './sweep-lanes.js';

export type { SweepReport } from './sweep-report.js';

export interface SweepOptions {
  /** The store root (`storeRoot(stateRoot)`). */
  root: string;
  agents: readonly AgentHomes[];
  now?: () => number;
  /** The rolling window; `0` = all history. Default: the store's own (14 days for a new store). */
  windowDays?: number;
  onProgress?: (done: number, total: number) => void;
  lockWaitMs?: number;
  onLockWait?: (holder: LockBody | null) => void;
  /** Asked between sessions: true stops the sweep early (what is done is published). */
  shouldStop?: () => boolean;
  /** Stops a lock wait or the planning pass (throwing its reason); between sessions, as `shouldStop`. */
  signal?: AbortSignal;
  /** Also delete unreferenced generation files and stray temp files (at start-up, then now and then). */
  collectGarbage?: boolean;
  /** Publish after this many changed sessions, and at least every 2 s. Default 256. */
  batchSize?: number;
  /**
   * Remember folder listings and file-derived facts between sweeps (sweep-caches.ts); a process
   * that sweeps again and again passes the same one each time. Omitted: every folder is listed afresh.
   */
  discovery?: SweepCaches;
  /** The worker pool a large build reads on (thresholds, worker file, count); the defaults suit the CLI. */
  pool?: ParsePoolOptions;
}

/** Read through a function: a signal can abort while an await is pending, which narrowing cannot see. */
const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** Stamps the report's duration and records the sweep in last-sweep.json. */
async function finish(root: string, report: SweepReport, started: number, now: () => number): Promise<void> {
  report.duration_ms = Math.round(performance.now() - started);
  // A status line, checked on read (a torn one is quarantined and written again by the next
  // sweep): not worth two fsyncs on every sweep, which cost more than an unchanged sweep's work.
  await writeAtomic(
    storePaths(root).lastSweep,
    JSON.stringify({ at_ms: now(), duration_ms: report.duration_ms, snapshot: report.snapshot }),
    { durable: false },
  );
}

/** Runs one sweep under the store's writer lock. */
export async function sweep(opts: SweepOptions): Promise<SweepReport> {
  const now = opts.now ?? Date.now;
  const started = performance.now();
  const root = opts.root;
  const report = emptyReport();
  await ensureStore(root);
  const lock = await acquireWriterLock(root, {
    ...(opts.lockWaitMs !== undefined ? { waitMs: opts.lockWaitMs } : {}),
    ...(opts.onLockWait !== undefined ? { onWait: opts.onLockWait } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  try {
    const last = await readLastSweep(root);
    if (last.state === 'corrupt') {
      const path = storePaths(root).lastSweep;
      const dest = await quarantineFile(root, path, now());
      report.problems.push({ path, reason: `${last.reason}: moved to ${dest} (quarantine); this sweep writes a new one` });
    }
    const { candidates, clean } = await discoverCandidates(opts.agents, report, opts.discovery);
    // Saved under the writer lock, so two sweeps never race on a cache file.
    const agentIds = opts.agents.map((a) => a.reader.id);
    if (opts.discovery !== undefined) {
      const problems = await opts.discovery.save(agentIds);
      for (const p of problems) report.problems.push({ path: p.path, reason: p.reason });
    }
    // Nothing changed since a sweep that changed nothing: its report stands, the manifest unread.
    const memo = readMemo(
      root,
      memoInputs(root, agentIds, clean, candidates, opts.windowDays),
      now(),
      opts.collectGarbage === true,
      report.problems,
    );
    if (memo !== null) {
      Object.assign(report, memo, { memo: true });
      opts.onProgress?.(0, 0);
      await finish(root, report, started, now);
      return report;
    }

    const opened = await openManifestForWrite(root, now(), opts.windowDays ?? defaultWindowDays);
    report.quarantined_manifest = opened.quarantined;
    const writer = new ManifestWriter(root, opened.manifest, lock, now, opened.stamp);
    if (opts.windowDays !== undefined) writer.setWindow(opts.windowDays);
    const windowDays = writer.manifest.window_days;
    report.window_days = windowDays;
    const horizon = windowDays > 0 ? now() - windowDays * dayMs : Number.NEGATIVE_INFINITY;
    const tombstones = await readTombstones(root);
    const present = await listGenerations(root);
    report.sessions = candidates.length;
    const discovered = new Set(candidates.map((c) => c.key));

    // Plan every session first (cheap: stats, and hashes only for recently touched files).
    const live = candidates.filter((c) => {
      if (tombstones.has(c.key)) {
        report.tombstoned++;
        return false;
      }
      if (c.newestMs < horizon) {
        report.outside_window++;
        return false;
      }
      return true;
    });
    const plans = await mapPool(
      live,
      16,
      async (c) => {
        try {
          return await planSession(writer.manifest.sessions[c.key], c.session, c.extractor.version, present);
        } catch (error) {
          report.failed.push({ session: c.key, reason: errorMessage(error) });
          return { kind: 'skip' } as const;
        }
      },
      opts.signal,
    );
    const work: { c: Candidate; plan: SessionPlan }[] = [];
    live.forEach((c, i) => {
      const plan = plans[i] as SessionPlan;
      const entry = writer.manifest.sessions[c.key];
      if (plan.kind === 'skip') {
        report.unchanged++;
        if (entry !== undefined && entry.records === 0) report.empty++;
        if (entry?.source_gone === true) writer.put(c.key, { ...entry, source_gone: false });
      } else work.push({ c, plan });
    });

    let done = 0;
    let lastFlush = performance.now();
    const batch = opts.batchSize ?? 256;
    opts.onProgress?.(0, work.length);
    // A write of the manifest in progress: nothing is put meanwhile (a put during a flush would be
    // cleared as written), and a second flush waits for the next session.
    let flushing: Promise<void> | null = null;
    const stopping = (): boolean => {
      if (report.stopped || opts.shouldStop?.() === true || opts.signal?.aborted === true) report.stopped = true;
      return report.stopped;
    };
    const lanes = splitWork(work, writer.manifest.sessions);
    /** This thread's read of a session: in a worker of its own when large and a signal may stop it. */
    const readHere =
      (item: Work): Extract =>
      (session, from) =>
        extractStoppable(item.c.extractor, session, from, {
          ...(opts.signal === undefined ? {} : { signal: opts.signal }),
          bytes: lanes.bytes.get(item) ?? 0,
        });
    const index = async (item: Work, extract: Extract = readHere(item)): Promise<void> => {
      const { c, plan } = item;
      try {
        const next = await indexSession(root, c, plan, writer.manifest.sessions[c.key], now, report, extract);
        while (flushing !== null) await flushing;
        if (next !== null) {
          writer.put(c.key, next);
          if (next.records === 0) report.empty++;
        }
      } catch (error) {
        // Stopped mid-read: the session is left as it was, not failed; what is done is published.
        if (isAborted(opts.signal)) {
          report.stopped = true;
          return;
        }
        report.failed.push({ session: c.key, reason: errorMessage(error) });
      }
      opts.onProgress?.(++done, work.length);
      if (flushing === null && (writer.pending >= batch || performance.now() - lastFlush > 2000)) {
        flushing = writer.flush().finally(() => {
          flushing = null;
          lastFlush = performance.now();
        });
        await flushing;
      }
    };
    // A cold build reads on every core: the pool's workers take the largest sessions, this thread the
    // smallest, and writes every segment; then this thread reads any large one (in a worker of its
    // own that a signal stops at once). Only sessions of the registered readers go to the pool, which
    // reads with them.
    const pool = ParsePool.create(lanes.pooledBytes, opts.pool);
    const stopPool = (): void => void pool?.close();
    opts.signal?.addEventListener('abort', stopPool, { once: true });
    try {
      const inTurn = async (items: readonly Work[]): Promise<void> => {
        for (const item of items) {
          if (stopping()) return;
          await index(item);
        }
      };
      const here = async (): Promise<void> => {
        // A worker loads in a tenth of a second or so: the largest sessions are its before this
        // thread starts on the smallest, whatever the machine's load.
        await pool?.whenReady();
        for (let item = lanes.smallest(); item !== undefined && !stopping(); item = lanes.smallest()) await index(item);
        pool?.stopWaiting();
      };
      const onWorker = async (p: ParsePool): Promise<void> => {
        for (;;) {
          const w = await p.acquire();
          const item = w === null || stopping() ? undefined : lanes.largest();
          if (w === null) return;
          if (item === undefined) {
            p.release(w);
            return;
          }
          await index(item, (session, from) => p.extractOn(w, item.c.reader, session, from));
        }
      };
      // Without workers, in the order discovery found them, as a sweep has always gone.
      if (pool === null) await inTurn(work);
      else {
        await Promise.all([here(), ...Array.from({ length: pool.size }, () => onWorker(pool))]);
        // The large sessions once the pool's workers are gone: a large read beside them took the
        // build's peak memory past its bound (measured on the bench home: 325-358 MiB; 256-264 after,
        // 262 before the pool).
        await pool.close();
        await inTurn(lanes.own);
      }
      while (flushing !== null) await flushing;
    } finally {
      opts.signal?.removeEventListener('abort', stopPool);
      await pool?.close();
    }

    if (!report.stopped) flagGone(writer, discovered, clean, report);
    await expire(root, writer, tombstones, horizon, report);

    await writer.flush();
    report.manifest_writes = writer.writes;
    report.rejected_stale = writer.rejected;
    report.snapshot = snapshotId(writer.manifest);
    if (opts.collectGarbage === true) report.garbage_removed = await collectUnreferenced(root, writer, now());
    await finish(root, report, started, now);
    const changedNothing =
      work.length === 0 &&
      report.failed.length === 0 &&
      !report.stopped &&
      report.manifest_writes === 0 &&
      report.expired === 0 &&
      report.quarantined_manifest === null;
    await settleMemo(
      {
        root,
        manifest: writer.manifest,
        candidates,
        live,
        tombstones,
        clean,
        agents: agentIds,
        windowDays: opts.windowDays,
        report,
        nowMs: now(),
      },
      changedNothing,
    ).catch((error: unknown) => {
      // Only the next sweep's shortcut is lost: it sweeps in full.
      report.problems.push({ path: memoPath(root), reason: `could not write the unchanged-sweep memo: ${errorMessage(error)}` });
    });
    return report;
  } finally {
    await lock.release();
  }
}
