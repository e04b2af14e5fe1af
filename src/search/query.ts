// The query core (seed 000 "The query route"): every term in one message, sessions ordered by their
// best hit, at most 3 hits each with snippets and exact highlights, snapshot-bound pages, and the
// time, response-size and fresh-load budgets. It reads the store; it never sweeps.
import { readFile } from 'node:fs/promises';
import { dayMs } from '../fs/clock.js';
import { isNotFound } from '../fs/stat.js';
import { contentHash16, type MessageRecord } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import { SearchError } from './errors.js';
import { fold, firstOccurrence } from './fold.js';
import { highlights } from './highlight.js';
import { defaultWindowDays, snapshotId, type Manifest, type ManifestEntry } from './manifest.js';
import { decodeCursor, encodeCursor, maxPending, type PageCursor } from './page-cursor.js';
import {
  legacyCoverage,
  type AgentCoverage,
  type Coverage,
  type PartialReason,
  type SearchBody,
  type SearchHit,
  type SessionGroup,
} from './response.js';
import { recordAt, recordView, type LoadedSegment, type ShardCache } from './shard-cache.js';
import { makeSnippet } from './snippet.js';
import { guardFormat, storePaths } from './store.js';

export const queryLimits = { maxBytes: 256, maxTerms: 8, defaultLimit: 20, maxLimit: 50, hitsPerSession: 3 } as const;

export interface Budgets {
  /** Wall time per query; past it the page is `partial` (timeout) with no cursor. */
  timeMs: number;
  /** Response body size; a page stops before a session that would pass it (`partial`, budget). */
  responseBytes: number;
  /** Bytes of generation files read from disk per query (`partial`, budget, with a cursor). */
  freshLoadBytes: number;
}

export const defaultBudgets: Budgets = { timeMs: 150, responseBytes: 256 * 1024, freshLoadBytes: 48 * 1024 * 1024 };

export interface SearchRequest {
  q: string;
  /** Only these agents; empty or absent = all. */
  agents?: readonly AgentId[];
  includeSuperseded?: boolean;
  includeSubagents?: boolean;
  /** Sessions per page, 1–50 (default 20). */
  limit?: number;
  cursor?: string | null;
  /** Days back from now; `0` = everything indexed. Default: the store's window. */
  windowDays?: number;
}

export interface QueryEnv {
  root: string;
  cache: ShardCache;
  now?: () => number;
  budgets?: Partial<Budgets>;
}

/**
 * Splits and folds the query: at most 256 bytes and 8 terms, at least one term after folding.
 * Example: parseQuery('Café  302') → ['cafe\u0301', '302'].
 */
export function parseQuery(q: string): string[] {
  if (Buffer.byteLength(q, 'utf8') > queryLimits.maxBytes) {
    throw new SearchError('QueryTooLong', `the query is longer than ${queryLimits.maxBytes} bytes; search for fewer or shorter terms`);
  }
  // Control characters separate terms like spaces do (NUL also separates records in a shard).
  const terms = q
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .map((t) => fold(t).text)
    .filter((t) => t.trim() !== '');
  if (terms.length === 0) throw new SearchError('QueryRequired', 'give at least one search term');
  if (terms.length > queryLimits.maxTerms) {
    throw new SearchError('TooManyTerms', `the query has ${terms.length} terms; at most ${queryLimits.maxTerms} are allowed`);
  }
  return [...new Set(terms)];
}

interface Filters {
  agents: ReadonlySet<AgentId> | null;
  superseded: boolean;
  subagents: boolean;
  horizon: number;
}

interface HitRef {
  seg: LoadedSegment;
  index: number;
  /** Position in the session's record order, for the tiebreak and activity. */
  order: number;
  ts: number;
  active: boolean;
}

interface Match {
  at: number;
  entry: ManifestEntry;
  key: string;
  best: number;
  total: number;
  top: HitRef[];
}

const byBest = (a: { best: number; key: string }, b: { best: number; key: string }): number =>
  b.best - a.best || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const byRecent = (a: HitRef, b: HitRef): number => b.ts - a.ts || b.order - a.order;

class Budget {
  fresh = 0;
  constructor(
    readonly deadline: number,
    readonly freshLimit: number,
  ) {}
  get timedOut(): boolean {
    return performance.now() > this.deadline;
  }
}

/** Matches one session; 'budget' when loading it would pass the fresh-load budget. */
async function matchSession(
  at: number,
  key: string,
  entry: ManifestEntry,
  terms: readonly string[],
  f: Filters,
  cache: ShardCache,
  budget: Budget,
): Promise<Match | 'budget' | null> {
  const passing: boolean[] = [];
  for (const ref of entry.segments) {
    const filter = await cache.filter(ref.file);
    passing.push(filter === null || terms.every((t) => filter.mayContain(t)));
  }
  if (!passing.includes(true)) return null;
  // Activity depends on every record, so a shard with marks or older generations loads whole.
  const need = entry.segments.filter((_, i) => entry.supersession || passing[i] === true);
  const cost = need.reduce((n, ref) => n + (cache.isResident(ref.file) ? 0 : ref.bytes), 0);
  if (budget.fresh > 0 && budget.fresh + cost > budget.freshLimit) return 'budget';
  const loaded = new Map<string, LoadedSegment>();
  for (const ref of need) {
    const got = await cache.load(ref.file);
    // A missing or corrupt file: skip the session; the next sweep re-extracts it.
    if (got.state !== 'ok') return null;
    budget.fresh += got.freshBytes;
    loaded.set(ref.file, got.segment);
  }
  const active = entry.supersession
    ? cache.activityOf(
        entry,
        entry.segments.map((r) => loaded.get(r.file) as LoadedSegment),
      )
    : null;
  const driver = [...terms].sort((a, b) => b.length - a.length)[0] as string;
  const top: HitRef[] = [];
  let total = 0;
  let base = 0;
  entry.segments.forEach((ref, si) => {
    const seg = loaded.get(ref.file);
    const n = ref.records;
    if (seg === undefined || passing[si] !== true) {
      base += n;
      return;
    }
    const records = seg.segment.records;
    let pos = 0;
    for (;;) {
      const hit = seg.hay.indexOf(driver, pos);
      if (hit === -1) break;
      const i = recordAt(seg, hit);
      pos = seg.starts[i + 1] as number;
      const r = records[i] as MessageRecord;
      const isActive = active === null ? true : active[base + i] !== false;
      if (r.ts_ms < f.horizon || (!f.subagents && r.subagent === true) || (!f.superseded && !isActive)) continue;
      const view = recordView(seg, i);
      if (!terms.every((t) => firstOccurrence(view, t) !== -1)) continue;
      total++;
      const ref2: HitRef = { seg, index: i, order: base + i, ts: r.ts_ms, active: isActive };
      if (top.length < queryLimits.hitsPerSession) {
        top.push(ref2);
        top.sort(byRecent);
      } else if (byRecent(ref2, top[top.length - 1] as HitRef) < 0) {
        top[top.length - 1] = ref2;
        top.sort(byRecent);
      }
    }
    base += n;
  });
  if (total === 0) return null;
  return { at, entry, key, best: (top[0] as HitRef).ts, total, top };
}

/** The hit as the response shows it: a snippet around the earliest highlight, every highlight in it. */
function hitBody(h: HitRef, terms: readonly string[]): SearchHit {
  const r = h.seg.segment.records[h.index] as MessageRecord;
  const h2 = highlights(recordView(h.seg, h.index), r.text, terms);
  const s = makeSnippet(r.text, h2.anchor, h2.ranges);
  return {
    role: r.role,
    ts_ms: r.ts_ms,
    seq: r.seq ?? null,
    superseded: !h.active,
    truncated: r.truncated === true,
    subagent: r.subagent === true,
    snippet: s.snippet,
    snippet_offset_bytes: s.offset,
    ranges: s.ranges,
    locator: r.locator,
  };
}

function groupBody(m: Match, terms: readonly string[]): SessionGroup {
  return {
    session_key: m.key,
    agent: m.entry.agent,
    session_id: m.entry.session_id,
    best_ts_ms: m.best,
    total_hits: m.total,
    source_gone: m.entry.source_gone === true,
    hits: m.top.map((h) => hitBody(h, terms)),
  };
}

function coverageOf(m: Manifest | null, horizon: number, storeHorizon: number, lastSweep: number | null, now: number): Coverage {
  const agents: Partial<Record<AgentId, AgentCoverage>> = {};
  for (const e of Object.values(m?.sessions ?? {})) {
    if (e.records === 0 || e.newest_ts_ms < horizon) continue;
    const c = (agents[e.agent] ??= { sessions: 0, oldest_ts_ms: 0, newest_ts_ms: 0, source_gone: 0 });
    c.sessions++;
    if (e.oldest_ts_ms > 0 && (c.oldest_ts_ms === 0 || e.oldest_ts_ms < c.oldest_ts_ms)) c.oldest_ts_ms = e.oldest_ts_ms;
    if (e.newest_ts_ms > c.newest_ts_ms) c.newest_ts_ms = e.newest_ts_ms;
    if (e.source_gone === true) c.source_gone++;
  }
  const back = Math.max(horizon, storeHorizon);
  return {
    indexed_back_to_ms: Number.isFinite(back) ? back : 0,
    last_sweep_ms: lastSweep,
    stale_by_ms: lastSweep === null ? null : Math.max(0, now - lastSweep),
    agents,
    legacy: { ...legacyCoverage },
  };
}

async function lastSweepAt(root: string): Promise<number | null> {
  try {
    const v = JSON.parse(await readFile(storePaths(root).lastSweep, 'utf8')) as { at_ms?: unknown };
    return typeof v.at_ms === 'number' ? v.at_ms : null;
  } catch (error) {
    if (isNotFound(error) || error instanceof SyntaxError) return null;
    throw error;
  }
}

function horizonOf(days: number, now: number): number {
  return days > 0 ? now - days * dayMs : Number.NEGATIVE_INFINITY;
}

/** Runs one search over the store's current snapshot. */
export async function search(req: SearchRequest, env: QueryEnv): Promise<SearchBody> {
  const budgets = { ...defaultBudgets, ...env.budgets };
  const now = (env.now ?? Date.now)();
  const budget = new Budget(performance.now() + budgets.timeMs, budgets.freshLoadBytes);
  const terms = parseQuery(req.q);
  const limit = req.limit ?? queryLimits.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > queryLimits.maxLimit) {
    throw new SearchError('InvalidParameter', `limit must be a whole number from 1 to ${queryLimits.maxLimit}`);
  }
  const windowDays = req.windowDays;
  if (windowDays !== undefined && (!Number.isInteger(windowDays) || windowDays < 0)) {
    throw new SearchError('InvalidParameter', 'window_days must be a whole number of days (0 = all history)');
  }
  const read = await env.cache.manifest();
  const manifest = read.state === 'ok' ? read.manifest : null;
  if (manifest !== null) guardFormat(manifest);
  const lastSweep = await lastSweepAt(env.root);
  const days = windowDays ?? manifest?.window_days ?? defaultWindowDays;
  const horizon = horizonOf(days, now);
  const storeHorizon = horizonOf(manifest?.window_days ?? defaultWindowDays, now);
  const agentSet = req.agents !== undefined && req.agents.length > 0 ? new Set(req.agents) : null;
  const f: Filters = { agents: agentSet, superseded: req.includeSuperseded !== false, subagents: req.includeSubagents !== false, horizon };
  const fingerprint = contentHash16(
    JSON.stringify([terms, agentSet === null ? 'all' : [...agentSet].sort(), f.superseded, f.subagents, days]),
  );
  const empty = (state: 'building'): SearchBody => ({
    ok: true,
    state,
    partial_reason: null,
    window_days: days,
    sessions: [],
    cursor: null,
    coverage: coverageOf(manifest, horizon, storeHorizon, lastSweep, now),
  });
  const snap = manifest === null ? '' : snapshotId(manifest);
  const cursor: PageCursor | null =
    req.cursor !== undefined && req.cursor !== null && req.cursor !== '' ? decodeCursor(req.cursor, fingerprint, snap) : null;
  // Nothing published yet (no sweep has written the store): building.
  if (manifest === null || manifest.revision === 0) return empty('building');

  const order = Object.entries(manifest.sessions).sort(
    ([ka, a], [kb, b]) => b.newest_ts_ms - a.newest_ts_ms || (ka < kb ? -1 : ka > kb ? 1 : 0),
  );
  const eligible = (i: number): boolean => {
    const [, e] = order[i] as [string, ManifestEntry];
    return e.records > 0 && e.newest_ts_ms >= horizon && (f.agents === null || f.agents.has(e.agent));
  };
  const after = cursor?.after ?? null;
  const sortsAfterCursor = (m: Match): boolean => after === null || byBest(m, { best: after.ts, key: after.key }) > 0;
  const matched: Match[] = [];
  let partial = null as PartialReason | null;
  let next = cursor?.next ?? 0;
  let scanDone = false;

  const visit = async (i: number): Promise<'ok' | 'stop'> => {
    if (budget.timedOut) {
      partial = 'timeout';
      return 'stop';
    }
    if (!eligible(i)) return 'ok';
    const [key, entry] = order[i] as [string, ManifestEntry];
    const m = await matchSession(i, key, entry, terms, f, env.cache, budget);
    if (m === 'budget') {
      partial = 'budget';
      return 'stop';
    }
    if (m !== null && sortsAfterCursor(m)) matched.push(m);
    return 'ok';
  };

  const pending = cursor?.pending ?? [];
  const pendingSet = new Set(pending);
  let stoppedAtPending = -1;
  for (const [k, i] of pending.entries()) {
    if (i >= order.length) continue;
    if ((await visit(i)) === 'stop') {
      stoppedAtPending = k;
      break;
    }
  }
  if (partial === null) {
    for (; next < order.length; next++) {
      if (pendingSet.has(next)) continue;
      // Early exit: with more than a page matched, an entry whose newest message is older than the
      // page's last needed hit cannot enter the page.
      if (matched.length > limit) {
        matched.sort(byBest);
        const bar = matched[limit] as Match;
        if ((order[next] as [string, ManifestEntry])[1].newest_ts_ms < bar.best) break;
      }
      if ((await visit(next)) === 'stop') break;
    }
    scanDone = next >= order.length;
  }
  matched.sort(byBest);

  // The page: up to `limit` sessions, stopping before one that would pass the response budget.
  const sessions: SessionGroup[] = [];
  let size = 2048;
  let shown = 0;
  for (const m of matched) {
    if (sessions.length >= limit) break;
    const g = groupBody(m, terms);
    const bytes = Buffer.byteLength(JSON.stringify(g));
    if (sessions.length > 0 && size + bytes > budgets.responseBytes) {
      partial ??= 'budget';
      break;
    }
    size += bytes;
    sessions.push(g);
    shown++;
  }
  let rest = matched.slice(shown).map((m) => m.at);
  if (stoppedAtPending >= 0) rest = rest.concat(pending.slice(stoppedAtPending));
  const more = rest.length > 0 || !scanDone;
  let nextCursor: string | null = null;
  // A timed-out page scanned an unknown subset: no cursor, the caller runs the query again.
  if (partial !== 'timeout' && more) {
    const ordered = partial === null;
    let keep = [...new Set(rest)].sort((a, b) => a - b);
    let resume = next;
    if (keep.length > maxPending) {
      // Too many to carry: rescan from the first one dropped; `after` keeps shown sessions out.
      const dropped = keep.slice(maxPending);
      keep = keep.slice(0, maxPending);
      resume = Math.min(resume, ...dropped);
    }
    const last = sessions[sessions.length - 1];
    nextCursor = encodeCursor({
      qh: fingerprint,
      snap,
      next: resume,
      pending: keep,
      after: ordered && last !== undefined ? { ts: last.best_ts_ms, key: last.session_key } : after,
    });
  }
  return {
    ok: true,
    state: partial !== null ? 'partial' : 'ready',
    partial_reason: partial,
    window_days: days,
    sessions,
    cursor: nextCursor,
    coverage: coverageOf(manifest, horizon, storeHorizon, lastSweep, now),
  };
}
