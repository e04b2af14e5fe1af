// Keep: copy each session's whole tree into its installation's kept root, idempotently. One file's
// failure is reported and the rest go on; the installation is locked while it is written.
import { basename, join, relative, resolve } from 'node:path';
import type { AgentReader, DiscoveredSession, SessionFile, TreeEntry } from '../agents/types.js';
import { errorMessage } from '../fs/stat.js';
import type { AgentId } from '../record/types.js';
import { bufferSource, openVendorFile, type ByteSource } from './byte-source.js';
import { custodyErrors, isCustodyError } from './errors.js';
import { peekCwd, writeFactsOnce } from './facts.js';
import { canonicalHome, openInstallation, type Installation } from './installation.js';
import { runAction, type DirtyDirs, type KeepOutcome } from './keep-exec.js';
import { planKeep, type KeptFacts, type SourceFacts } from './keep-plan.js';
import { acquireLock } from './lock.js';
import { sweepTemps } from './recover.js';
import { factsRel, relDir, safeRelPath } from './paths.js';
import { mapPool } from './pool.js';
import { assertRealDirs, ensureDirs, fsyncDir, lstatNow } from './safe-fs.js';

/** Sessions kept at once, and files at once within a session: enough to overlap fsyncs and stats. */
const sessionConcurrency = 8;
const fileConcurrency = 4;

export interface FileFailure {
  /** The relPath (or the session's path when the whole tree failed). */
  path: string;
  message: string;
  code: string | null;
}

export interface SessionKeepReport {
  agent: AgentId;
  session_id: string;
  /** `kept`: the vendor already pruned it, so there was nothing to copy (custody is one-way). */
  root: 'vendor' | 'kept';
  installation: string;
  copied: string[];
  extended: string[];
  refreshed: string[];
  skipped: string[];
  failed: FileFailure[];
}

export interface KeepTotals {
  sessions: number;
  copied: number;
  extended: number;
  refreshed: number;
  skipped: number;
  failed: number;
}

export function emptySessionReport(agent: AgentId, id: string, root: 'vendor' | 'kept', installation: string): SessionKeepReport {
  return { agent, session_id: id, root, installation, copied: [], extended: [], refreshed: [], skipped: [], failed: [] };
}

export function keepTotals(reports: readonly SessionKeepReport[]): KeepTotals {
  const t: KeepTotals = { sessions: reports.length, copied: 0, extended: 0, refreshed: 0, skipped: 0, failed: 0 };
  for (const r of reports) {
    t.copied += r.copied.length;
    t.extended += r.extended.length;
    t.refreshed += r.refreshed.length;
    t.skipped += r.skipped.length;
    t.failed += r.failed.length;
  }
  return t;
}

function failure(path: string, error: unknown): FileFailure {
  return { path, message: errorMessage(error), code: isCustodyError(error) ? error.code : null };
}

/** What one keep run shares across sessions: folders already checked, the clock, the version. */
export interface KeepRun {
  installation: Installation;
  /** The vendor home's real path: reads below it refuse links. */
  home: string;
  version: string;
  now: () => number;
  vendorDirs: Set<string>;
  keptDirs: Set<string>;
  /** relPaths a session of this run already handles: two sessions naming one file never write it at once. */
  claimed: Set<string>;
}

interface Planned {
  rel: string;
  entry: TreeEntry;
  facts: SourceFacts;
  data?: Buffer;
}

/**
 * What the vendor file is now. Discovery's own size and mtime are used when it has them (a second keep
 * of an unchanged home then costs one lstat per kept file); a link is still never read through: every
 * copy and append opens the file with O_NOFOLLOW and its folders re-checked.
 */
async function sourceFacts(run: KeepRun, session: DiscoveredSession, entry: TreeEntry, known: ReadonlyMap<string, SessionFile>): Promise<Planned> {
  const rel = safeRelPath(entry.relPath);
  if (entry.kind === 'export') {
    const data = await entry.produce();
    return { rel, entry, facts: { relPath: rel, size: data.length, mtimeMs: null }, data };
  }
  if (resolve(session.home, rel) !== resolve(entry.path)) throw custodyErrors.unsafePath(entry.path, `it is not ${rel} inside the agent home`);
  await assertRealDirs(run.home, relDir(rel), run.vendorDirs);
  const seen = known.get(entry.path);
  if (seen !== undefined) return { rel, entry, facts: { relPath: rel, size: seen.size, mtimeMs: seen.mtimeMs } };
  const path = join(run.home, rel);
  const st = lstatNow(path);
  if (st === null) throw custodyErrors.io(path, 'find', new Error('it vanished before it could be kept'));
  if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'it is a symbolic link');
  if (!st.isFile()) throw custodyErrors.unsafePath(path, 'it is not a regular file');
  return { rel, entry, facts: { relPath: rel, size: st.size, mtimeMs: st.mtimeMs } };
}

async function keptFacts(run: KeepRun, rel: string): Promise<KeptFacts | null> {
  const path = join(run.installation.root, rel);
  await assertRealDirs(run.installation.root, relDir(rel), run.keptDirs).catch((error: unknown) => {
    // A folder not made yet means nothing kept yet; a link is refused.
    if (isCustodyError(error, 'UnsafePath')) throw error;
  });
  const st = lstatNow(path);
  if (st === null) return null;
  if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'a kept file is a symbolic link');
  if (!st.isFile()) throw custodyErrors.unsafePath(path, 'a kept file is not a regular file');
  return { size: st.size, mtimeMs: st.mtimeMs };
}

async function openSource(run: KeepRun, p: Planned): Promise<ByteSource> {
  if (p.data !== undefined) return bufferSource(p.data, p.rel);
  return openVendorFile(run.home, p.rel, run.vendorDirs);
}

/** Keeps one vendor-resolved session's tree into the installation's kept root. */
export async function keepSession(run: KeepRun, reader: AgentReader, session: DiscoveredSession): Promise<SessionKeepReport> {
  const report = emptySessionReport(session.agent, session.sessionId, 'vendor', run.installation.key);
  let tree: TreeEntry[];
  try {
    tree = await reader.tree(session);
  } catch (error) {
    report.failed.push(failure(session.path, error));
    return report;
  }
  const planned: Planned[] = [];
  const known = new Map(session.files.map((f) => [f.path, f]));
  for (const entry of tree) {
    if (run.claimed.has(entry.relPath)) continue;
    run.claimed.add(entry.relPath);
    try {
      planned.push(await sourceFacts(run, session, entry, known));
    } catch (error) {
      report.failed.push(failure(entry.relPath, error));
    }
  }
  const kept = new Map<string, KeptFacts | null>();
  for (const p of planned) {
    try {
      kept.set(p.rel, await keptFacts(run, p.rel));
    } catch (error) {
      report.failed.push(failure(p.rel, error));
    }
  }
  const byRel = new Map(planned.filter((p) => kept.has(p.rel)).map((p) => [p.rel, p]));
  const plan = planKeep([...byRel.values()].map((p) => p.facts), kept);
  const dirty: DirtyDirs = new Set();
  const outcomes = await mapPool(plan, fileConcurrency, async (action): Promise<KeepOutcome | FileFailure> => {
    const p = byRel.get(action.relPath) as Planned;
    if (action.kind === 'skip') return 'skipped';
    try {
      const dir = await ensureDirs(run.installation.root, relDir(p.rel), run.keptDirs);
      const src = await openSource(run, p);
      try {
        return await runAction(action, src, join(dir, basename(p.rel)), dirty);
      } finally {
        await src.close();
      }
    } catch (error) {
      return failure(p.rel, error);
    }
  });
  plan.forEach((action, i) => {
    const o = outcomes[i] as KeepOutcome | FileFailure;
    if (typeof o === 'string') report[o].push(action.relPath);
    else report.failed.push(o);
  });
  // The facts go beside the main transcript once it is kept (a crash before that writes them next time).
  const main = planned[0];
  const mainKept = main !== undefined && main.entry === tree[0] && !report.failed.some((f) => f.path === main.rel);
  if (main !== undefined && mainKept) {
    try {
      await ensureDirs(run.installation.root, relDir(main.rel), run.keptDirs);
      const entry = main.entry;
      await writeFactsOnce(run.installation.root, main.rel, async () => ({
        version: 1,
        agent: session.agent,
        session_id: session.sessionId,
        installation_key: run.installation.key,
        cwd: session.cwd ?? (entry.kind === 'file' ? await peekCwd(join(run.home, main.rel)) : null),
        source_path: entry.kind === 'file' ? entry.path : `${session.path} (export)`,
        first_kept_at: new Date(run.now()).toISOString(),
        agentlog_version: run.version,
      }));
    } catch (error) {
      report.failed.push(failure(factsRel(main.rel), error));
    }
  }
  for (const dir of dirty) {
    try {
      await fsyncDir(dir);
    } catch (error) {
      report.failed.push(failure(relative(run.installation.root, dir), error));
    }
  }
  return report;
}

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
  onSession?: (report: SessionKeepReport, done: number, total: number) => void;
  /** Called once the session list is known (for a progress bar). */
  onTotal?: (total: number) => void;
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
  const installation = await openInstallation({ stateRoot: opts.stateRoot, agent: opts.reader.id, home: opts.home, name: opts.installationName, version: opts.version, now: opts.now });
  const lock = await acquireLock(installation.root, { waitMs: opts.lockWaitMs });
  try {
    if (lock.recovered) await sweepTemps(installation.root);
    const problems: FileFailure[] = [];
    let sessions = opts.sessions;
    if (sessions === undefined) {
      const found = await opts.reader.discover(opts.home);
      sessions = found.sessions;
      for (const p of found.problems) problems.push({ path: p.path, message: `${p.kind}: ${p.reason}`, code: null });
    }
    opts.onTotal?.(sessions.length);
    const run: KeepRun = { installation, home: await canonicalHome(opts.home), version: opts.version, now: opts.now, vendorDirs: new Set(), keptDirs: new Set(), claimed: new Set() };
    let done = 0;
    const all = await mapPool(sessions, sessionConcurrency, async (session) => {
      if (opts.signal?.aborted === true) return null;
      const r = await keepSession(run, opts.reader, session);
      opts.onSession?.(r, ++done, sessions.length);
      return r;
    });
    return { installation, home: opts.home, sessions: all.filter((r): r is SessionKeepReport => r !== null), problems };
  } finally {
    await lock.release();
  }
}
