// One indexing sweep (seed 000 "The indexer sweep"): discover every session of every agent that
// extracts messages (vendor homes, then kept copies), skip what is unchanged, resume what grew,
// re-extract what was rewritten, publish in batches, flag sources gone, expire what left the window.
import { statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import type { AgentReader, DiscoveredSession, MessageExtractor } from '../agents/types.js';
import { errorMessage } from '../fs/stat.js';
import type { MessageExtract, MessageRecord } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import type { AgentHomes } from '../scan/scan.js';
import { mergeFrom } from './compaction.js';
import { captureCursor, type FileCursor } from './file-cursor.js';
import { defaultWindowDays, entryKey, snapshotId, type ManifestEntry, type SegmentRef } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { retainAbandoned, stamp } from './retain.js';
import { combineMarks, type Segment } from './segment.js';
import { planSession, type SessionPlan } from './session-plan.js';
import { newSegment, readShard, storeSegment, mergeSegments } from './shard-build.js';
import {
  collectGarbage,
  ensureStore,
  listGenerations,
  openManifestForWrite,
  readTombstones,
  rewriteTombstones,
  storePaths,
  writeAtomic,
} from './store.js';
import { acquireWriterLock, type LockBody } from './writer-lock.js';
import { dayMs } from '../fs/clock.js';
import { mapPool } from '../fs/pool.js';
import { contentHash16 } from '../record/message-index.js';

/** Orphaned generation files younger than this stay: a query may still read an older snapshot. */
const garbageGraceMs = 10 * 60_000;

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
}

export interface SweepReport {
  snapshot: string;
  window_days: number;
  /** Sessions discovered by agents that extract messages. */
  sessions: number;
  unchanged: number;
  /** Sessions read on from where the last sweep stopped (appends). */
  resumed: number;
  /** Sessions read whole (new, rewritten, moved, rebuilt). */
  extracted: number;
  /** Sessions that said nothing indexable yet (remembered by cursor, not re-read). */
  empty: number;
  outside_window: number;
  tombstoned: number;
  /** Sessions whose files are gone (their shards keep serving until the window expires them). */
  gone: number;
  /** Sessions dropped by retention. */
  expired: number;
  failed: { session: string; reason: string }[];
  problems: { path: string; reason: string }[];
  bad_lines: number;
  bytes_read: number;
  manifest_writes: number;
  rejected_stale: number;
  quarantined_manifest: string | null;
  garbage_removed: number;
  stopped: boolean;
  duration_ms: number;
  /** Agents swept without a message extractor (nothing of theirs is indexed yet). */
  agents_without_extractor: AgentId[];
}

interface Candidate {
  reader: AgentReader;
  extractor: MessageExtractor;
  session: DiscoveredSession;
  key: string;
  homeIndex: number;
  newestMs: number;
}

function newestMtime(s: DiscoveredSession): number {
  let n = 0;
  for (const f of s.files) if (f.mtimeMs > n) n = f.mtimeMs;
  return n;
}

/**
 * Every session to consider, one per (agent, session id): the earliest home wins (vendor homes come
 * before kept copies, so the vendor copy is preferred while it exists); within one home the newest
 * copy wins, then the smaller path, so the choice never depends on directory order (weak spot 14).
 * Homes are canonicalised so two spellings of one home give one set of cursors (weak spot 13).
 */
async function discoverCandidates(
  agents: readonly AgentHomes[],
  report: SweepReport,
): Promise<{ candidates: Candidate[]; clean: Set<AgentId> }> {
  const byKey = new Map<string, Candidate>();
  const clean = new Set<AgentId>();
  // Agents are discovered concurrently (their walks are I/O); results are merged in agent and home
  // order, so the outcome never depends on which walk finished first.
  const found = await Promise.all(
    agents.map(async ({ reader, homes }) => {
      const extractor = reader.messages;
      if (extractor === undefined)
        return { reader, extractor, lists: [] as { homeIndex: number; sessions: DiscoveredSession[] }[], ok: true };
      const lists: { homeIndex: number; sessions: DiscoveredSession[] }[] = [];
      let ok = true;
      const seen = new Set<string>();
      for (const [homeIndex, home] of homes.entries()) {
        const canonical = await realpath(home).catch(() => null);
        if (canonical === null || seen.has(canonical)) continue;
        seen.add(canonical);
        try {
          lists.push({ homeIndex, sessions: (await reader.discover(canonical)).sessions });
        } catch (error) {
          ok = false;
          report.failed.push({ session: `${reader.id}:${home}`, reason: `discovery failed: ${errorMessage(error)}` });
        }
      }
      return { reader, extractor, lists, ok };
    }),
  );
  for (const { reader, extractor, lists, ok } of found) {
    if (extractor === undefined) {
      report.agents_without_extractor.push(reader.id);
      continue;
    }
    for (const { homeIndex, sessions } of lists) {
      for (const session of sessions) {
        const key = entryKey(reader.id, session.sessionId);
        const c: Candidate = { reader, extractor, session, key, homeIndex, newestMs: newestMtime(session) };
        const prev = byKey.get(key);
        if (prev === undefined) byKey.set(key, c);
        else if (
          prev.homeIndex === homeIndex &&
          (c.newestMs > prev.newestMs || (c.newestMs === prev.newestMs && c.session.path < prev.session.path))
        )
          byKey.set(key, c);
      }
    }
    if (ok) clean.add(reader.id);
  }
  const candidates = [...byKey.values()].sort((a, b) => b.newestMs - a.newestMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { candidates, clean };
}

function identities(session: DiscoveredSession): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of session.files) {
    const s = statSync(f.path, { throwIfNoEntry: false });
    if (s !== undefined) out.set(f.path, s.ino);
  }
  return out;
}

/** Cursors for what the extractor read, or null when a file changed identity or shrank meanwhile. */
async function captureAll(result: MessageExtract, pre: Map<string, number>, nowMs: number): Promise<FileCursor[] | null> {
  const out: FileCursor[] = [];
  for (const f of result.files) {
    const c = await captureCursor(f.path, f.offset, f.mode, nowMs, f.seen);
    if (c === null) return null;
    const before = pre.get(f.path);
    if (before !== undefined && before !== 0 && c.ino !== 0 && before !== c.ino) return null;
    out.push(c);
  }
  return out;
}

function tsBounds(records: readonly MessageRecord[], start: { newest: number; oldest: number }): { newest: number; oldest: number } {
  let { newest, oldest } = start;
  for (const r of records) {
    if (r.ts_ms > newest) newest = r.ts_ms;
    if (r.ts_ms > 0 && (oldest === 0 || r.ts_ms < oldest)) oldest = r.ts_ms;
  }
  return { newest, oldest };
}

function entryFrom(
  c: Candidate,
  cursors: FileCursor[],
  result: MessageExtract,
  fields: Pick<ManifestEntry, 'segments' | 'records' | 'newest_ts_ms' | 'oldest_ts_ms' | 'generation' | 'supersession'>,
): Omit<ManifestEntry, 'marks_digest'> {
  const consumed = new Set(cursors.map((x) => x.path));
  let mtime = 0;
  for (const x of cursors) mtime = Math.max(mtime, Number(BigInt(x.mtime_ns) / 1_000_000n));
  return {
    agent: c.reader.id,
    session_id: c.session.sessionId,
    extractor_version: c.extractor.version,
    ...fields,
    source_mtime_ms: mtime,
    watermark: cursors.reduce((n, x) => n + x.offset, 0),
    cursors,
    ignored: c.session.files.map((f) => f.path).filter((p) => !consumed.has(p)),
    carry: result.carry,
    home: c.session.home,
  };
}

/** The sweep's work on one session, given its plan; returns the new entry or null to leave it. */
async function indexSession(
  root: string,
  c: Candidate,
  plan: SessionPlan,
  entry: ManifestEntry | undefined,
  now: () => number,
  report: SweepReport,
): Promise<ManifestEntry | null> {
  const pre = identities(c.session);
  const resume = plan.kind === 'resume' && entry !== undefined;
  const from = resume ? { files: entry.cursors.map((x) => ({ path: x.path, offset: x.offset, mode: x.mode })), carry: entry.carry } : null;
  const result = await c.extractor.extract(c.session, from);
  report.bytes_read += result.bytesRead;
  report.bad_lines += result.badLines;
  report.problems.push(...result.problems);
  // Cursors compare against the file system's clock (racy-mtime rule), so they take the wall clock.
  const cursors = await captureAll(result, pre, Date.now());
  if (cursors === null) {
    report.failed.push({ session: c.key, reason: 'a file changed while it was read; it is read again next sweep' });
    return null;
  }
  if (resume && !result.fresh) {
    report.resumed++;
    return appendToShard(root, c, entry, cursors, result);
  }
  report.extracted++;
  const retain = entry !== undefined && (plan.kind === 'resume' || (plan.kind === 'full' && plan.retain));
  return rebuildShard(root, c, retain ? entry : undefined, cursors, result, now());
}

async function appendToShard(
  root: string,
  c: Candidate,
  entry: ManifestEntry,
  cursors: FileCursor[],
  result: MessageExtract,
): Promise<ManifestEntry> {
  const records = stamp(result.records, entry.generation);
  let segments: SegmentRef[] = entry.segments;
  const marksDigest = result.marksMode === 'replace' ? contentHash16(JSON.stringify(result.marks)) : '';
  const marksChanged = result.marksMode === 'replace' ? marksDigest !== entry.marks_digest : result.marks.length > 0;
  if (records.length > 0 || marksChanged) {
    const ref = await storeSegment(root, newSegment(c.reader.id, c.session.sessionId, records, result.marks, result.marksMode));
    segments = await compact(root, [...segments, ref]);
  }
  const bounds = tsBounds(records, { newest: entry.newest_ts_ms, oldest: entry.oldest_ts_ms });
  return {
    ...entryFrom(c, cursors, result, {
      segments,
      records: entry.records + records.length,
      newest_ts_ms: bounds.newest,
      oldest_ts_ms: bounds.oldest,
      generation: entry.generation,
      supersession: entry.supersession || result.marks.length > 0,
    }),
    marks_digest: result.marksMode === 'replace' ? marksDigest : entry.marks_digest,
  };
}

/** Merges the tail of a shard's segments when the compaction rule says so. */
async function compact(root: string, refs: SegmentRef[]): Promise<SegmentRef[]> {
  const from = mergeFrom(refs.map((r) => r.bytes));
  if (from >= refs.length - 1) return refs;
  const run = await readShard(root, refs.slice(from));
  // A segment that cannot be read back leaves the shard as it is; the next sweep rebuilds it.
  if (run === null) return refs;
  const merged = await storeSegment(root, mergeSegments(run));
  return [...refs.slice(0, from), merged];
}

async function rebuildShard(
  root: string,
  c: Candidate,
  prior: ManifestEntry | undefined,
  cursors: FileCursor[],
  result: MessageExtract,
  nowMs: number,
): Promise<ManifestEntry> {
  let records: MessageRecord[] = stamp(result.records, 0);
  let generation = 0;
  let restores: Segment['marks'] = [];
  if (prior !== undefined && prior.segments.length > 0) {
    const shard = await readShard(root, prior.segments);
    if (shard !== null) {
      const kept = retainAbandoned(
        shard.flatMap((s) => s.records),
        combineMarks(shard).marks,
        prior.generation,
        result.records,
        nowMs,
      );
      records = kept.records;
      generation = kept.generation;
      restores = kept.restores;
    }
  }
  const marks = [...restores, ...result.marks];
  const segments =
    records.length > 0 || marks.length > 0
      ? [await storeSegment(root, newSegment(c.reader.id, c.session.sessionId, records, marks, 'replace'))]
      : [];
  const bounds = tsBounds(records, { newest: 0, oldest: 0 });
  return {
    ...entryFrom(c, cursors, result, {
      segments,
      records: records.length,
      newest_ts_ms: bounds.newest,
      oldest_ts_ms: bounds.oldest,
      generation,
      supersession: marks.length > 0 || records.some((r) => (r.generation ?? 0) !== generation),
    }),
    marks_digest: contentHash16(JSON.stringify(result.marks)),
  };
}

function allGone(entry: ManifestEntry): boolean {
  for (const c of entry.cursors) if (statSync(c.path, { throwIfNoEntry: false }) !== undefined) return false;
  return entry.cursors.length > 0;
}

function emptyReport(): SweepReport {
  return {
    snapshot: '',
    window_days: defaultWindowDays,
    sessions: 0,
    unchanged: 0,
    resumed: 0,
    extracted: 0,
    empty: 0,
    outside_window: 0,
    tombstoned: 0,
    gone: 0,
    expired: 0,
    failed: [],
    problems: [],
    bad_lines: 0,
    bytes_read: 0,
    manifest_writes: 0,
    rejected_stale: 0,
    quarantined_manifest: null,
    garbage_removed: 0,
    stopped: false,
    duration_ms: 0,
    agents_without_extractor: [],
  };
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
    const opened = await openManifestForWrite(root, now(), opts.windowDays ?? defaultWindowDays);
    report.quarantined_manifest = opened.quarantined;
    const writer = new ManifestWriter(root, opened.manifest, lock, now, opened.stamp);
    if (opts.windowDays !== undefined) writer.setWindow(opts.windowDays);
    const windowDays = writer.manifest.window_days;
    report.window_days = windowDays;
    const horizon = windowDays > 0 ? now() - windowDays * dayMs : Number.NEGATIVE_INFINITY;
    const tombstones = await readTombstones(root);
    const present = await listGenerations(root);
    const { candidates, clean } = await discoverCandidates(opts.agents, report);
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
    for (const { c, plan } of work) {
      if (opts.shouldStop?.() === true || opts.signal?.aborted === true) {
        report.stopped = true;
        break;
      }
      try {
        const next = await indexSession(root, c, plan, writer.manifest.sessions[c.key], now, report);
        if (next !== null) {
          writer.put(c.key, next);
          if (next.records === 0) report.empty++;
        }
      } catch (error) {
        report.failed.push({ session: c.key, reason: errorMessage(error) });
      }
      opts.onProgress?.(++done, work.length);
      if (writer.pending >= batch || performance.now() - lastFlush > 2000) {
        await writer.flush();
        lastFlush = performance.now();
      }
    }

    // Sources gone: an entry of a cleanly discovered agent that no home lists and whose files are gone.
    if (!report.stopped) {
      for (const [key, entry] of Object.entries(writer.manifest.sessions)) {
        if (discovered.has(key) || !clean.has(entry.agent)) continue;
        if (entry.source_gone === true) {
          report.gone++;
          continue;
        }
        if (allGone(entry)) {
          writer.put(key, { ...entry, source_gone: true });
          report.gone++;
        }
      }
    }

    // Retention: an entry leaves once its newest message and its files both left the window.
    for (const [key, entry] of Object.entries(writer.manifest.sessions)) {
      if (Math.max(entry.newest_ts_ms, entry.source_mtime_ms) < horizon) {
        writer.remove(key);
        report.expired++;
      }
    }
    let tombstonesChanged = false;
    for (const [key, at] of tombstones) {
      if (at < horizon) {
        tombstones.delete(key);
        tombstonesChanged = true;
      }
    }
    if (tombstonesChanged) await rewriteTombstones(root, tombstones);

    await writer.flush();
    report.manifest_writes = writer.writes;
    report.rejected_stale = writer.rejected;
    report.snapshot = snapshotId(writer.manifest);
    if (opts.collectGarbage === true) {
      const referenced = new Set<string>();
      for (const e of Object.values(writer.manifest.sessions)) for (const s of e.segments) referenced.add(s.file);
      report.garbage_removed = await collectGarbage(root, referenced, now(), garbageGraceMs);
    }
    report.duration_ms = Math.round(performance.now() - started);
    await writeAtomic(
      storePaths(root).lastSweep,
      JSON.stringify({ at_ms: now(), duration_ms: report.duration_ms, snapshot: report.snapshot }),
    );
    return report;
  } finally {
    await lock.release();
  }
}
