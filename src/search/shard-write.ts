// The sweep's write step for one session: run its extractor (from its cursors when it only grew),
// then append a segment to its shard or rebuild the shard, and return the manifest entry that
// describes the result (cursors, bounds, generation, coverage notes).
import { statSync } from 'node:fs';
import type { DiscoveredSession } from '../agents/types.js';
import { contentHash16, type MessageExtract, type MessageRecord, type MessageResume } from '../record/message-index.js';
import { mergeFrom } from './compaction.js';
import { captureCursor, type FileCursor } from './file-cursor.js';
import type { ManifestEntry, SegmentRef } from './manifest.js';
import { retainAbandoned, stamp } from './retain.js';
import { combineMarks, type Segment } from './segment.js';
import type { SessionPlan } from './session-plan.js';
import { newSegment, readShard, storeSegment, mergeSegments } from './shard-build.js';
import type { Candidate } from './sweep-discovery.js';
import type { SweepReport } from './sweep-report.js';

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
  priorNotes?: Record<string, string>,
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
    // An append adds to what the session's earlier records were noted for; a rebuild starts over.
    ...(priorNotes !== undefined || result.coverageNotes !== undefined
      ? { coverage_notes: { ...priorNotes, ...result.coverageNotes } }
      : {}),
  };
}

/** How a sweep has one session's messages extracted: here, in a worker of its own, or on the pool (sweep.ts decides). */
export type Extract = (session: DiscoveredSession, from: MessageResume | null) => Promise<MessageExtract>;

/** The sweep's work on one session, given its plan; returns the new entry or null to leave it. */
export async function indexSession(
  root: string,
  c: Candidate,
  plan: SessionPlan,
  entry: ManifestEntry | undefined,
  now: () => number,
  report: SweepReport,
  extract: Extract,
): Promise<ManifestEntry | null> {
  const pre = identities(c.session);
  const resume = plan.kind === 'resume' && entry !== undefined;
  // The carry is a copy: an extractor advances the state it resumes from in place, and the entry it
  // came from must still say where the last good read ended if this one fails half-way.
  const from = resume
    ? { files: entry.cursors.map((x) => ({ path: x.path, offset: x.offset, mode: x.mode })), carry: structuredClone(entry.carry) }
    : null;
  const result = await extract(c.session, from);
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
    ...entryFrom(
      c,
      cursors,
      result,
      {
        segments,
        records: entry.records + records.length,
        newest_ts_ms: bounds.newest,
        oldest_ts_ms: bounds.oldest,
        generation: entry.generation,
        supersession: entry.supersession || result.marks.length > 0,
      },
      entry.coverage_notes,
    ),
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
