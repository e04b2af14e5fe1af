// Keep: copy each session's whole tree into its installation's kept root, idempotently. One file's
// failure is reported and the rest go on; the installation is locked while it is written, and the
// keep manifest (keep-manifest.ts) saved once the files it vouches for are durable.
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import { canonicalHomeSync, openInstallation, type Installation } from './installation.js';
import { KeepManifest } from './keep-manifest.js';
import { failure, type FileFailure, type SessionKeepReport } from './keep-report.js';
import { keepSession, type KeepRun } from './keep-session.js';
import { acquireLock } from './lock.js';
import { sweepTemps } from './recover.js';
import { manifestFile } from './paths.js';
import { mapPool } from '../fs/pool.js';
import { Publisher } from './publisher.js';

export { emptySessionReport, keepTotals, type FileFailure, type KeepTotals, type SessionKeepReport } from './keep-report.js';

/** Sessions looked at and copied at once (their copies then wait for publication without a slot). */
const sessionConcurrency = 8;

export interface KeepHomeOptions {
  /** The state root, already created and canonical. */
  stateRoot: string;
  reader: AgentReader;
  home: string;
  /** Sessions to keep (all vendor-resolved); omitted: every session discovery finds under the home. */
  sessions?: DiscoveredSession[];
  installationName?: string;
  version: string;
  now: () => number;
  signal?: AbortSignal;
  lockWaitMs?: number;
  /** Compare every same-size file by content instead of trusting size and mtime (keep --verify). */
  verify?: boolean;
  onSession?: (report: SessionKeepReport, done: number, total: number) => void;
  /** Called once the session list is known (for a progress bar). */
  onTotal?: (total: number) => void;
  /** The sessions are every session discovery found under the home (the manifest then drops what it no longer lists). */
  complete?: boolean;
  /** A time (by `now`) taken before the sessions were discovered: a file changed after it is not vouched for. */
  observedAt?: number;
}

export interface KeepHomeReport {
  installation: Installation;
  home: string;
  sessions: SessionKeepReport[];
  /** Files discovery could not read (reported, never fatal). */
  problems: FileFailure[];
}

/** Keeps the given (or every) session of one agent home, under the installation's lock. */
export async function keepHome(opts: KeepHomeOptions): Promise<KeepHomeReport> {
  const observedAt = opts.observedAt ?? opts.now();
  const installation = await openInstallation({
    stateRoot: opts.stateRoot,
    agent: opts.reader.id,
    home: opts.home,
    name: opts.installationName,
    version: opts.version,
    now: opts.now,
  });
  const lock = await acquireLock(installation.root, {
    waitMs: opts.lockWaitMs,
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  const publisher = new Publisher(installation.root);
  if (opts.signal !== undefined) publisher.stopOn(opts.signal);
  try {
    if (lock.recovered) await sweepTemps(installation.root);
    const problems: FileFailure[] = [];
    let sessions = opts.sessions;
    const complete = sessions === undefined || opts.complete === true;
    if (sessions === undefined) {
      const found = await opts.reader.discover(opts.home);
      sessions = found.sessions;
      for (const p of found.problems) problems.push({ path: p.path, message: `${p.kind}: ${p.reason}`, code: null });
    }
    opts.onTotal?.(sessions.length);
    const home = canonicalHomeSync(opts.home);
    const manifest = await KeepManifest.load({ root: installation.root, installation: installation.key, home, observedAt });
    const run: KeepRun = {
      installation,
      home,
      version: opts.version,
      now: opts.now,
      vendorDirs: new Set(),
      vendorRelDirs: new Set(),
      keptDirs: new Set(),
      claimed: new Set(),
      manifest,
      publisher,
      verify: opts.verify === true,
      signal: opts.signal,
    };
    let done = 0;
    // A session's slot is free once its copies are written; they are published in batches meanwhile.
    const reports = new Array<Promise<SessionKeepReport | null>>(sessions.length).fill(Promise.resolve(null));
    await mapPool(sessions, sessionConcurrency, async (session, i) => {
      if (opts.signal?.aborted === true) return;
      const staged = await keepSession(run, opts.reader, session);
      reports[i] = staged.done.then((r) => {
        opts.onSession?.(r, ++done, sessions.length);
        return r;
      });
    });
    publisher.drain();
    const all = await Promise.all(reports);
    try {
      // Every kept file it vouches for is durable by now (published behind a barrier or fsyncs).
      await manifest.save(complete && opts.signal?.aborted !== true);
    } catch (error) {
      // Only the next keep's speed depends on it.
      problems.push({
        ...failure(manifestFile, error),
        message: `the keep manifest could not be saved (the next keep compares every file again): ${errorMessage(error)}`,
      });
    }
    return { installation, home: opts.home, sessions: all.filter((r): r is SessionKeepReport => r !== null), problems };
  } finally {
    // Whatever was written is put in place (or its temp removed) before the lock is let go.
    await publisher.settled();
    await lock.release();
  }
}
