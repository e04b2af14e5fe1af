// Keep: copy each session's whole tree into its installation's kept root, idempotently. One file's
// failure is reported and the rest go on; the installation is locked while it is written, and the
// keep manifest (keep-manifest.ts) saved once the files it vouches for are durable. A keep of many
// homes shares one publisher (stageHome): a home's copies wait in its batches while the next home is
// copied, so the whole run pays a few durability barriers instead of a few per home.
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

export { Publisher } from './publisher.js';
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

/** A home whose copies are written and staged: `done` settles once they are in place, the manifest saved, the lock let go. */
export interface StagedHome {
  done: Promise<KeepHomeReport>;
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
  const publisher = new Publisher(opts.stateRoot);
  if (opts.signal !== undefined) publisher.stopOn(opts.signal);
  let staged: StagedHome;
  try {
    staged = await stageHome(opts, publisher);
  } finally {
    publisher.drain();
  }
  return staged.done;
}

interface StagedSessions {
  manifest: KeepManifest;
  /** Each session's report, settling once its copies are in place (null: a session a stop never started). */
  reports: Promise<SessionKeepReport | null>[];
  problems: FileFailure[];
  /** Every session of the home was looked at: the manifest drops what none named. */
  complete: boolean;
}

/** Discovers (unless given) the home's sessions and copies each, staging the copies on `publisher`. */
async function stageSessions(
  opts: KeepHomeOptions,
  installation: Installation,
  publisher: Publisher,
  observedAt: number,
): Promise<StagedSessions> {
  const problems: FileFailure[] = [];
  let sessions = opts.sessions;
  const complete = sessions === undefined || opts.complete === true;
  if (sessions === undefined) {
    const found = await opts.reader.discover(opts.home);
    sessions = found.sessions;
    for (const p of found.problems) problems.push({ path: p.path, message: `${p.kind}: ${p.reason}`, code: null });
  }
  const total = sessions.length;
  opts.onTotal?.(total);
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
    dirStats: new Map(),
    manifest,
    publisher,
    verify: opts.verify === true,
    signal: opts.signal,
  };
  let done = 0;
  // A session's slot is free once its copies are written; they are published in batches meanwhile.
  const reports = new Array<Promise<SessionKeepReport | null>>(total).fill(Promise.resolve(null));
  await mapPool(sessions, sessionConcurrency, async (session, i) => {
    if (opts.signal?.aborted === true) return;
    const staged = await keepSession(run, opts.reader, session);
    reports[i] = staged.done.then((r) => {
      opts.onSession?.(r, ++done, total);
      return r;
    });
  });
  return { manifest, reports, problems, complete };
}

/**
 * Copies the given (or every) session of one agent home, under the installation's lock, and stages
 * the copies on `publisher` (shared by the homes of one keep run; its owner drains it once every
 * home is staged). Resolves once the copies are written; the report is final when `done` settles,
 * after every copy of this home was made durable and put in place (or failed), the manifest saved
 * behind them and the lock let go.
 */
export async function stageHome(opts: KeepHomeOptions, publisher: Publisher): Promise<StagedHome> {
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
  /** Whatever this home staged is put in place (or its temp removed) before the lock is let go. */
  const release = async (everyStageSettled: boolean): Promise<void> => {
    if (!everyStageSettled) {
      // Its own stages cannot be told apart from other homes' here: everything is published now.
      publisher.drain();
      await publisher.settled();
    }
    await lock.release();
  };
  let staged: StagedSessions;
  try {
    if (lock.recovered) await sweepTemps(installation.root);
    staged = await stageSessions(opts, installation, publisher, observedAt);
  } catch (error) {
    await release(false);
    throw error;
  }
  const { manifest, reports, problems, complete } = staged;
  const aborted = (): boolean => opts.signal?.aborted === true;
  const done = (async (): Promise<KeepHomeReport> => {
    let settled = false;
    try {
      const all = await Promise.all(reports);
      // Every stage of this home settled with its session's report (published, failed or rolled back).
      settled = true;
      try {
        // Every kept file it vouches for is durable by now (published behind a barrier or fsyncs).
        await manifest.save(complete && !aborted());
      } catch (error) {
        // Only the next keep's speed depends on it.
        problems.push({
          ...failure(manifestFile, error),
          message: `the keep manifest could not be saved (the next keep compares every file again): ${errorMessage(error)}`,
        });
      }
      return { installation, home: opts.home, sessions: all.filter((r): r is SessionKeepReport => r !== null), problems };
    } finally {
      await release(settled);
    }
  })();
  return { done };
}
