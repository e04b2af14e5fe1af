// Keeping one session: look at each vendor file of its tree (one lstat, checked against the keep
// manifest), look at the kept side only for files the manifest cannot vouch for, carry out the plan
// (new copies go to the publisher, which puts them in place once durable), then write the custody
// facts once.
import { basename, join, resolve, sep } from 'node:path';
import type { AgentReader, DiscoveredSession, TreeEntry } from '../agents/types.js';
import { bufferSource, openVendorFile, type ByteSource } from './byte-source.js';
import { custodyErrors } from './errors.js';
import { stageFactsOnce, type CustodyFacts } from './facts.js';
import type { Installation } from './installation.js';
import { runAction, type ActionResult, type KeepOutcome } from './keep-exec.js';
import type { KeepManifest } from './keep-manifest.js';
import { planKeep, type KeepAction, type KeptFacts, type SourceFacts } from './keep-plan.js';
import { emptySessionReport, failure, type FileFailure, type SessionKeepReport } from './keep-report.js';
import { factsRel, relDir, safeRelPath, underRoot } from './paths.js';
import { mapPool } from '../fs/pool.js';
import type { Publisher } from './publisher.js';
import { assertRealDirs, ensureDirs, lstatNow, missingDir } from './safe-fs.js';
import { markSession, unchangedByMark, type MarkRun } from './session-mark.js';

/** Files of one session copied at once: enough to overlap one file's reads with another's writes. */
const fileConcurrency = 4;

/** What one keep run shares across sessions: folders already checked, the clock, the version, the manifest. */
export interface KeepRun extends MarkRun {
  installation: Installation;
  /** The vendor home's real path: reads below it refuse links. */
  home: string;
  version: string;
  now: () => number;
  vendorDirs: Set<string>;
  /** Vendor folders (relative to the home) already checked whole: one Set lookup per file after the first. */
  vendorRelDirs: Set<string>;
  keptDirs: Set<string>;
  /** relPaths a session of this run already handles: two sessions naming one file never write it at once. */
  claimed: Set<string>;
  manifest: KeepManifest;
  /** keep --verify: no quick check, every same-size file compared by content. */
  verify?: boolean;
  /** Puts new copies in place once durable, a batch at a time. */
  publisher: Publisher;
  /** Stops the keep: no file starts after it aborts, and a copy in progress is rolled back. */
  signal?: AbortSignal;
}

/** True for the error a stop makes a copy or publication end with (not a failure of that file). */
function isStop(run: KeepRun, error: unknown): boolean {
  return run.signal?.aborted === true && error === run.signal.reason;
}

interface Planned {
  rel: string;
  entry: TreeEntry;
  facts: SourceFacts;
  /**
   * An export's bytes, made only when the manifest could not vouch for them; handed to the copy once
   * (openSource), so that they are not held while the copy waits in the publisher's batch.
   */
  data?: Buffer;
}

/** True when `path` is `home/rel` (the cheap string test first; every reader's entries pass it). */
function isUnder(home: string, rel: string, path: string): boolean {
  return path === `${home}${sep}${rel}` || resolve(home, rel) === resolve(path);
}

/**
 * What a vendor file is now: one lstat (a link or a non-file is refused), checked against the keep
 * manifest. Folders on the way are checked (once per run) only for a file that will be read; every
 * copy and append still opens the file with O_NOFOLLOW and its folders re-checked.
 */
function fileFacts(run: KeepRun, session: DiscoveredSession, entry: TreeEntry & { kind: 'file' }, rel: string): Planned {
  if (!isUnder(session.home, rel, entry.path)) throw custodyErrors.unsafePath(entry.path, `it is not ${rel} inside the agent home`);
  const path = underRoot(run.home, rel);
  const st = lstatNow(path);
  if (st === null) throw custodyErrors.io(path, 'find', new Error('it vanished before it could be kept'));
  if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'it is a symbolic link');
  if (!st.isFile()) throw custodyErrors.unsafePath(path, 'it is not a regular file');
  return {
    rel,
    entry,
    facts: { relPath: rel, size: st.size, mtimeMs: st.mtimeMs, vouched: run.verify !== true && run.manifest.vouchesFor(rel, st) },
  };
}

/**
 * An export is made only when the files it comes from changed since it was last kept: the reader
 * lists them as the session's files (OpenCode: the database and its write-ahead log, so any write to
 * that database makes each of its exports be made and compared again).
 */
async function exportFacts(run: KeepRun, session: DiscoveredSession, entry: TreeEntry & { kind: 'export' }, rel: string): Promise<Planned> {
  if (run.manifest.vouchesForExport(rel, session.files))
    return { rel, entry, facts: { relPath: rel, size: 0, mtimeMs: null, vouched: true } };
  // An export is one consistent read of the store (a transaction): the stop is checked around it.
  run.signal?.throwIfAborted();
  const data = await entry.produce();
  run.signal?.throwIfAborted();
  return { rel, entry, facts: { relPath: rel, size: data.length, mtimeMs: null }, data };
}

async function sourceFacts(run: KeepRun, session: DiscoveredSession, entry: TreeEntry): Promise<Planned> {
  const rel = safeRelPath(entry.relPath);
  if (entry.kind === 'export') return exportFacts(run, session, entry, rel);
  const p = fileFacts(run, session, entry, rel);
  // A vouched file is the very inode kept before and is not read, so no folder on its way can lead
  // custody astray; any other is read, and its folders must not be links.
  if (p.facts.vouched !== true) {
    const dir = relDir(rel);
    if (!run.vendorRelDirs.has(dir)) {
      await assertRealDirs(run.home, dir, run.vendorDirs);
      run.vendorRelDirs.add(dir);
    }
  }
  return p;
}

function keptFacts(run: KeepRun, rel: string): KeptFacts | null {
  // A folder not made yet means nothing kept yet; a link is refused.
  if (missingDir(run.installation.root, relDir(rel), run.keptDirs) !== null) return null;
  const path = join(run.installation.root, rel);
  const st = lstatNow(path);
  if (st === null) return null;
  if (st.isSymbolicLink()) throw custodyErrors.unsafePath(path, 'a kept file is a symbolic link');
  if (!st.isFile()) throw custodyErrors.unsafePath(path, 'a kept file is not a regular file');
  return { size: st.size, mtimeMs: st.mtimeMs };
}

/** The source's bytes; an export's are taken from the plan (see Planned.data). */
async function openSource(run: KeepRun, p: Planned): Promise<ByteSource> {
  const data = p.data;
  if (data === undefined) return openVendorFile(run.home, p.rel, run.vendorDirs);
  p.data = undefined;
  return bufferSource(data, p.rel);
}

/** What the manifest records of a source as it was opened (not the source: an export's holds its bytes). */
type Opened = Pick<ByteSource, 'size' | 'mtimeMs' | 'identity'>;

/** Tells the manifest the kept copy now equals the source as it was opened. */
function remember(run: KeepRun, session: DiscoveredSession, p: Planned, src: Opened): void {
  if (p.entry.kind === 'export') run.manifest.recordExport(p.rel, session.files, src.size);
  else if (src.identity !== null && src.mtimeMs !== null)
    run.manifest.recordFile(p.rel, { size: src.size, mtimeMs: src.mtimeMs, ...src.identity });
  else run.manifest.forget(p.rel);
}

/** Every file of a session settles to its outcome, to its failure, or to `stopped` (left as it was). */
type Settled = KeepOutcome | FileFailure | 'stopped';

/** Waits for a written copy to be published, then tells the manifest what the kept file now equals. */
async function settle(run: KeepRun, session: DiscoveredSession, p: Planned, src: Opened, result: ActionResult): Promise<Settled> {
  try {
    await result.published;
  } catch (error) {
    run.manifest.forget(p.rel);
    return isStop(run, error) ? 'stopped' : failure(p.rel, error);
  }
  remember(run, session, p, src);
  return result.outcome;
}

/**
 * Carries out the actions that touch custody (not skips), a few files at once. Resolves once every
 * new copy is written and staged; `settled` fills the report once they are all in place.
 */
async function carryOut(
  run: KeepRun,
  session: DiscoveredSession,
  planned: readonly Planned[],
  report: SessionKeepReport,
): Promise<{ settled: Promise<void> }> {
  // The kept side is looked at only for files the manifest does not vouch for.
  const kept = new Map<string, KeptFacts | null>();
  const byRel = new Map<string, Planned>();
  for (const p of planned) {
    if (p.facts.vouched !== true) {
      try {
        kept.set(p.rel, keptFacts(run, p.rel));
      } catch (error) {
        report.failed.push(failure(p.rel, error));
        run.manifest.forget(p.rel);
        continue;
      }
    }
    byRel.set(p.rel, p);
  }
  const plan = planKeep(
    [...byRel.values()].map((p) => p.facts),
    kept,
    run.verify === true,
  );
  const work = plan.filter((a) => a.kind !== 'skip');
  // Each settles on its own (a copy's publication rejects into its failure): wrapped so that
  // mapPool does not wait for publication.
  const pending = await mapPool(work, fileConcurrency, async (action: KeepAction): Promise<{ outcome: Promise<Settled> }> => {
    const p = byRel.get(action.relPath) as Planned;
    if (run.signal?.aborted === true) return { outcome: Promise.resolve<Settled>('stopped') };
    try {
      const dir = await ensureDirs(run.installation.root, relDir(p.rel), run.keptDirs);
      const src = await openSource(run, p);
      let result: ActionResult;
      try {
        result = await runAction(action, src, join(dir, basename(p.rel)), { publisher: run.publisher, signal: run.signal });
      } finally {
        await src.close();
      }
      const opened: Opened = { size: src.size, mtimeMs: src.mtimeMs, identity: src.identity };
      return { outcome: settle(run, session, p, opened, result) };
    } catch (error) {
      run.manifest.forget(p.rel);
      return { outcome: Promise.resolve(isStop(run, error) ? 'stopped' : failure(p.rel, error)) };
    }
  });
  const settled = (async () => {
    const outcomes = await Promise.all(pending.map((x) => x.outcome));
    const outcomeOf = new Map(work.map((a, i) => [a.relPath, outcomes[i] as Settled]));
    for (const action of plan) {
      const o = outcomeOf.get(action.relPath) ?? 'skipped';
      // A file the stop left alone is neither kept nor failed: the next keep carries it out.
      if (o === 'stopped') continue;
      if (typeof o === 'string') report[o].push(action.relPath);
      else report.failed.push(o);
    }
  })();
  return { settled };
}

/** The custody facts beside the main transcript, written once it is kept (a crash before that writes them next time). */
async function keepFacts(
  run: KeepRun,
  reader: AgentReader,
  session: DiscoveredSession,
  main: Planned,
  report: SessionKeepReport,
): Promise<void> {
  if (run.manifest.hasFacts(main.rel) || report.failed.some((f) => f.path === main.rel)) return;
  try {
    await ensureDirs(run.installation.root, relDir(main.rel), run.keptDirs);
    const entry = main.entry;
    const make = async (): Promise<CustodyFacts> => ({
      version: 1,
      agent: session.agent,
      session_id: session.sessionId,
      installation_key: run.installation.key,
      cwd: session.cwd ?? (await reader.cwd?.(session)) ?? null,
      source_path: entry.kind === 'file' ? entry.path : `${session.path} (export)`,
      first_kept_at: new Date(run.now()).toISOString(),
      agentlog_version: run.version,
    });
    await stageFactsOnce(run.installation.root, main.rel, make, run.publisher);
    run.manifest.noteFacts(main.rel);
  } catch (error) {
    report.failed.push(failure(factsRel(main.rel), error));
  }
}

/** A session whose new copies are written; `done` settles with its report once they are all in place. */
export interface StagedSession {
  done: Promise<SessionKeepReport>;
}

/**
 * Keeps one vendor-resolved session's tree into the installation's kept root. Resolves once its files
 * are looked at and its copies written (the keep can go on with the next session); the report is final
 * when `done` settles, after the publisher made the copies durable and put them in place.
 */
export async function keepSession(run: KeepRun, reader: AgentReader, session: DiscoveredSession): Promise<StagedSession> {
  const report = emptySessionReport(session.agent, session.sessionId, 'vendor', run.installation.key);
  // The usual case, an unchanged session: its mark vouches for the whole tree (session-mark.ts).
  const unchanged = run.verify === true ? null : unchangedByMark(run, session);
  if (unchanged !== null) {
    report.skipped = unchanged;
    return { done: Promise.resolve(report) };
  }
  let tree: TreeEntry[];
  try {
    tree = await reader.tree(session);
  } catch (error) {
    report.failed.push(failure(session.path, error));
    return { done: Promise.resolve(report) };
  }
  const planned: Planned[] = [];
  let allVouched = true;
  for (const entry of tree) {
    if (run.signal?.aborted === true) break;
    if (run.claimed.has(entry.relPath)) continue;
    run.claimed.add(entry.relPath);
    try {
      const p = await sourceFacts(run, session, entry);
      if (p.facts.vouched !== true) allVouched = false;
      planned.push(p);
    } catch (error) {
      if (!isStop(run, error)) report.failed.push(failure(entry.relPath, error));
    }
  }
  let settled: Promise<void> = Promise.resolve();
  // An unchanged session (the usual case) needs no plan: every file is skipped as it stands.
  if (allVouched) report.skipped = planned.map((p) => p.rel).sort();
  else settled = (await carryOut(run, session, planned, report)).settled;
  const main = planned[0];
  const done = (async () => {
    await settled;
    // After a stop the facts wait for the keep that finishes the session (they are written once it is kept).
    if (main !== undefined && main.entry === tree[0] && run.signal?.aborted !== true) await keepFacts(run, reader, session, main, report);
    // Only a whole, clean keep of the tree vouches for it next time.
    markSession(run, session, tree, report.failed.length === 0 && run.signal?.aborted !== true && planned.length === tree.length);
    return report;
  })();
  return { done };
}
