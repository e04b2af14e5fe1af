// The unchanged-sweep memo: what a sweep that found nothing to do saw (the discovered sessions' files
// by size and mtime, the manifest's, tombstones' and generations folder's stamps) and what it
// reported. A later sweep that discovers exactly that again, before any entry, tombstone or live
// session can cross the window's edge, would plan every session `skip` and change nothing: it
// reports the memo instead of reading and checking megabytes of manifest (most of an unchanged
// sweep's time in a fresh process). Never trusted past a change: any other byte of any input is a
// miss and the full sweep runs (and writes a new memo only if it too changed nothing).
//
// The files' rule is the cursors' own (file-cursor.ts `unchangedPerDiscovery`): size and
// millisecond mtime, trusted only for files whose mtime was at least `racyMs` old when the memo
// was written, so a write in the same timestamp tick cannot hide.
import { nodeCrypto } from '../fs/crypto.js';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errorMessage, isNotFound } from '../fs/errors.js';
import type { AgentId } from '../record/types.js';
import { indexFormat, type Manifest } from './manifest.js';
import { storePaths } from './store.js';
import type { Candidate } from './sweep-discovery.js';
import { garbageGraceMs } from './sweep-gc.js';
import type { SweepReport } from './sweep-report.js';
import { dayMs } from '../fs/clock.js';

/** Bump when the memo's meaning changes (an older memo is a miss). */
const memoVersion = 1;
const racyMs = 2_000;

const memoSchema = z.object({
  version: z.literal(memoVersion),
  inputs: z.string(),
  /** The first moment the same inputs would sweep differently (the window's edge reaches something); null: never. */
  due_ms: z.number().nullable(),
  /** When the oldest unreferenced generation file becomes the garbage pass's to delete; null: none. */
  garbage_due_ms: z.number().nullable(),
  report: z.object({
    snapshot: z.string(),
    window_days: z.number().int().nonnegative(),
    sessions: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
    empty: z.number().int().nonnegative(),
    outside_window: z.number().int().nonnegative(),
    tombstoned: z.number().int().nonnegative(),
    gone: z.number().int().nonnegative(),
  }),
});
type Memo = z.infer<typeof memoSchema>;
export type MemoReport = Memo['report'];

export const memoPath = (root: string): string => join(root, 'unchanged-sweep.json');

/** A file's or folder's identity and version, or `-` when nothing is there. */
function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if (isNotFound(error)) return '-';
    throw error;
  }
}

/**
 * Everything an all-unchanged sweep's outcome depends on besides the clock, as one digest: the index
 * format, the agents swept and which were listed completely, each candidate's chosen copy and extractor version, every
 * file's size and mtime, and the store's stamps. `windowDays`: the window the caller asked for, if any.
 */
export function memoInputs(
  root: string,
  agents: readonly AgentId[],
  clean: ReadonlySet<AgentId>,
  candidates: readonly Candidate[],
  windowDays: number | undefined,
): string {
  const h = nodeCrypto().createHash('sha256');
  const paths = storePaths(root);
  // The index format too: a store of an older format is rebuilt by the next full sweep, so a memo
  // written under another format must never answer for it.
  h.update(`v${memoVersion}\0f${indexFormat}\0${windowDays ?? '-'}\0${agents.join(',')}\0${[...clean].sort().join(',')}\0`);
  h.update(`${stampOf(paths.manifest)}\0${stampOf(paths.tombstones)}\0${stampOf(paths.generations)}\0`);
  // Hashed in 64 KiB pieces: tens of thousands of small updates each cross into native code, and
  // one string of every path is megabytes to flatten.
  let text = '';
  for (const c of candidates) {
    text += `${c.key}\0${c.session.path}\0${c.extractor.version}\0`;
    for (const f of c.session.files) text += `${f.path}\0${f.size}\0${f.mtimeMs}\0`;
    if (text.length > 65_536) {
      h.update(text);
      text = '';
    }
  }
  return h.update(text).digest('hex');
}

/** Whether a temp file waits in the store's root (a crashed write, for the garbage pass to delete). */
function tempInRoot(root: string): boolean {
  return readdirSync(root).some((n) => n.endsWith('.tmp'));
}

/**
 * The memo's report when it applies to these inputs now; null on a miss. A memo that cannot be read
 * as one is a problem (reported once: the sweep that follows replaces it).
 */
export function readMemo(
  root: string,
  inputs: string,
  nowMs: number,
  collectGarbage: boolean,
  problems: SweepReport['problems'],
): MemoReport | null {
  const path = memoPath(root);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path, reason: `unchanged-sweep memo unreadable (${errorMessage(error)}): swept in full` });
    return null;
  }
  let memo: Memo;
  try {
    memo = memoSchema.parse(JSON.parse(text));
  } catch (error) {
    problems.push({ path, reason: `unchanged-sweep memo is not one (${errorMessage(error).slice(0, 120)}): swept in full, and rewritten` });
    return null;
  }
  if (memo.inputs !== inputs || (memo.due_ms !== null && nowMs >= memo.due_ms)) return null;
  // A sweep that collects garbage runs in full once there is some to collect.
  if (collectGarbage && ((memo.garbage_due_ms !== null && nowMs >= memo.garbage_due_ms) || tempInRoot(root))) return null;
  return memo.report;
}

/**
 * The earliest time the same inputs would sweep differently: an entry expiring, a live session
 * leaving the window, a tombstone expiring. Infinity with no window.
 */
function dueAt(manifest: Manifest, live: readonly Candidate[], tombstones: ReadonlyMap<string, number>): number {
  const window = manifest.window_days;
  if (window === 0) return Number.POSITIVE_INFINITY;
  let due = Number.POSITIVE_INFINITY;
  for (const e of Object.values(manifest.sessions)) due = Math.min(due, Math.max(e.newest_ts_ms, e.source_mtime_ms));
  for (const c of live) due = Math.min(due, c.newestMs);
  for (const at of tombstones.values()) due = Math.min(due, at);
  return due + window * dayMs;
}

/** When the garbage pass may first delete a generation file no entry refers to (Infinity: none waits). */
function orphansDue(root: string, manifest: Manifest): number {
  const referenced = new Set<string>();
  for (const e of Object.values(manifest.sessions)) for (const s of e.segments) referenced.add(s.file);
  const dir = storePaths(root).generations;
  let due = Number.POSITIVE_INFINITY;
  for (const name of readdirSync(dir)) {
    if (referenced.has(name)) continue;
    try {
      due = Math.min(due, statSync(join(dir, name)).mtimeMs + garbageGraceMs);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return due;
}

export interface MemoFacts {
  root: string;
  manifest: Manifest;
  candidates: readonly Candidate[];
  live: readonly Candidate[];
  tombstones: ReadonlyMap<string, number>;
  clean: ReadonlySet<AgentId>;
  agents: readonly AgentId[];
  windowDays: number | undefined;
  report: SweepReport;
  nowMs: number;
}

/**
 * After a sweep: writes the memo if the sweep changed nothing and a repeat could be answered from it
 * (no file within the racy window, no undecided gone check, no temp file waiting), else removes any
 * memo (its inputs would no longer match anyway; this keeps a stale one from lying around). Written without fsync: a torn
 * memo fails its schema and is replaced.
 */
export async function settleMemo(f: MemoFacts, changedNothing: boolean): Promise<void> {
  const path = memoPath(f.root);
  const edge = f.nowMs - racyMs;
  const discovered = new Set(f.candidates.map((c) => c.key));
  const undecided = Object.entries(f.manifest.sessions).some(
    ([key, e]) => !discovered.has(key) && f.clean.has(e.agent) && e.source_gone !== true,
  );
  const quiet = f.candidates.every((c) => c.session.files.every((file) => file.mtimeMs <= edge));
  if (!changedNothing || undecided || !quiet || tempInRoot(f.root)) {
    rmSync(path, { force: true });
    return;
  }
  const r = f.report;
  const due = dueAt(f.manifest, f.live, f.tombstones);
  const garbageDue = orphansDue(f.root, f.manifest);
  const memo: Memo = {
    version: memoVersion,
    inputs: memoInputs(f.root, f.agents, f.clean, f.candidates, f.windowDays),
    due_ms: Number.isFinite(due) ? due : null,
    garbage_due_ms: Number.isFinite(garbageDue) ? garbageDue : null,
    report: {
      snapshot: r.snapshot,
      window_days: r.window_days,
      sessions: r.sessions,
      unchanged: r.unchanged,
      empty: r.empty,
      outside_window: r.outside_window,
      tombstoned: r.tombstoned,
      gone: r.gone,
    },
  };
  await writeFileAtomic(path, JSON.stringify(memo), { durable: false });
}
