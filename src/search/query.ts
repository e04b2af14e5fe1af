// The query core (seed 000 "The query route"): every term in one message, sessions ordered by their
// best hit, at most 3 hits each, snapshot-bound pages, and the time, response-size and fresh-load
// budgets. A page shows only sessions in their final place, so a page cut short by a budget is a
// shorter prefix of the one answer, never another answer, and its cursor goes on where it stopped.
// It reads the store; it never sweeps.
import { contentHash16 } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import { coverageOf, horizonOf, lastSweepAt } from './coverage.js';
import { defaultWindowDays, indexFormat, snapshotId } from './manifest.js';
import { byBest, matchSession, ScanBudget, type Filters, type Match } from './match.js';
import { takePage } from './page.js';
import { decodeCursor, encodeCursor, maxPending, type PageCursor } from './page-cursor.js';
import { pageLimit, parseQuery, windowOf } from './query-parse.js';
import type { PartialReason, SearchBody, Searched } from './response.js';
import { ScanPlan } from './scan-plan.js';
import type { ShardCache } from './shard-cache.js';
import { guardFormat } from './store.js';

export { parseQuery, queryLimits } from './query-parse.js';

export interface Budgets {
  /** Wall time per page; past it the page ends (`partial`, timeout) with a cursor that goes on. */
  timeMs: number;
  /** Response body size; a page stops before a session that would pass it (`partial`, budget). */
  responseBytes: number;
  /** Bytes of generation files read from disk per page (`partial`, budget, with a cursor). */
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

/** A session known to match: placed by its best hit, its hits matched only when it is shown. */
interface Candidate {
  at: number;
  key: string;
  best: number;
  match: Match | null;
}

/** The next cursor: where the scan goes on, the matches not shown yet, and the last one shown. */
function nextCursor(base: Omit<PageCursor, 'pending' | 'next'>, next: number, rest: readonly Candidate[]): string {
  let keep = [...rest].sort((a, b) => a.at - b.at);
  let resume = next;
  if (keep.length > maxPending) {
    // Too many to carry: keep the best, rescan from the first one dropped; `after` keeps shown ones out.
    const ranked = [...keep].sort(byBest);
    const dropped = ranked.slice(maxPending);
    keep = ranked.slice(0, maxPending).sort((a, b) => a.at - b.at);
    resume = Math.min(resume, ...dropped.map((d) => d.at));
  }
  return encodeCursor({ ...base, next: resume, pending: keep.map((c) => ({ at: c.at, best: c.best })) });
}

/** Runs one search over the store's current snapshot: one page of the answer. */
export async function search(req: SearchRequest, env: QueryEnv): Promise<SearchBody> {
  const budgets = { ...defaultBudgets, ...env.budgets };
  const now = (env.now ?? Date.now)();
  const budget = new ScanBudget(performance.now() + budgets.timeMs, budgets.freshLoadBytes);
  const terms = parseQuery(req.q);
  const limit = pageLimit(req.limit);
  const windowDays = windowOf(req.windowDays);
  const read = await env.cache.manifest();
  const manifest = read.state === 'ok' ? read.manifest : null;
  if (manifest !== null) guardFormat(manifest);
  const lastSweep = await lastSweepAt(env.root);
  const storeDays = manifest?.window_days ?? defaultWindowDays;
  const days = windowDays ?? storeDays;
  const horizon = horizonOf(days, now);
  const agentSet = req.agents !== undefined && req.agents.length > 0 ? new Set(req.agents) : null;
  const f: Filters = { agents: agentSet, superseded: req.includeSuperseded !== false, subagents: req.includeSubagents !== false, horizon };
  const fingerprint = contentHash16(
    JSON.stringify([terms, agentSet === null ? 'all' : [...agentSet].sort(), f.superseded, f.subagents, days]),
  );
  const coverage = coverageOf(manifest, horizon, horizonOf(storeDays, now), lastSweep, now);
  const snap = manifest === null ? '' : snapshotId(manifest);
  const cursor: PageCursor | null =
    req.cursor !== undefined && req.cursor !== null && req.cursor !== '' ? decodeCursor(req.cursor, fingerprint, snap) : null;
  // Nothing published yet (no sweep has written the store), or a store of an older format that the
  // next sweep rebuilds (its generation files are never read as this format's): building.
  if (manifest === null || manifest.revision === 0 || manifest.format < indexFormat) {
    const searched: Searched = { sessions: 0, of: 0, complete: false, newest_unsearched_ms: null };
    return { ok: true, state: 'building', partial_reason: null, window_days: days, sessions: [], cursor: null, searched, coverage };
  }

  const plan = new ScanPlan(manifest, horizon, agentSet);
  const after = cursor?.after ?? null;
  const sortsAfter = (c: { best: number; key: string }): boolean => after === null || byBest(c, { best: after.ts, key: after.key }) > 0;
  const match = (i: number): ReturnType<typeof matchSession> => {
    const [key, entry] = plan.order[i] as (typeof plan.order)[number];
    return matchSession(i, key, entry, terms, f, env.cache, budget);
  };
  // Matched on an earlier page and not shown yet: placed by the best hit the cursor carries.
  const candidates: Candidate[] = (cursor?.pending ?? [])
    .filter((p) => p.at < plan.length && plan.eligible(p.at))
    .map((p) => ({ at: p.at, key: (plan.order[p.at] as (typeof plan.order)[number])[0], best: p.best, match: null }));
  const pendingSet = new Set(candidates.map((c) => c.at));
  const frontier = (from: number): number => plan.frontier(from, (i) => pendingSet.has(i));

  let cut: PartialReason | null = null;
  let next = cursor?.next ?? 0;
  for (let first = true; next < plan.length; next++) {
    if (pendingSet.has(next) || !plan.eligible(next)) continue;
    // Settled: the page's last place holds a hit newer than anything not searched yet.
    if (candidates.length >= limit) {
      candidates.sort(byBest);
      if ((candidates[limit - 1] as Candidate).best > frontier(next)) break;
    }
    // A page always searches one new session whatever its budgets, so a cursor always moves on.
    budget.exempt = first;
    first = false;
    const m = budget.timedOut ? 'timeout' : await match(next);
    budget.exempt = false;
    if (m === 'budget' || m === 'timeout') {
      cut = m;
      break;
    }
    if (m !== null && sortsAfter(m)) candidates.push({ at: m.at, key: m.key, best: m.best, match: m });
  }

  candidates.sort(byBest);
  const bound = frontier(next);
  const settledCount = candidates.findIndex((c) => c.best <= bound);
  const settled = settledCount === -1 ? candidates : candidates.slice(0, settledCount);
  // The sessions shown are matched now if an earlier page found them (at most a page of them).
  budget.exempt = true;
  const show: Match[] = [];
  const vanished = new Set<string>();
  for (const c of settled.slice(0, limit)) {
    const m = c.match ?? (await match(c.at));
    // A shard gone since the earlier page (or a cursor claiming a match that is not there).
    if (m === null || typeof m !== 'object') vanished.add(c.key);
    else show.push(m);
  }
  const page = takePage(show, limit, terms, budgets.responseBytes);
  const shown = new Set(page.sessions.map((g) => g.session_key));
  let partial: PartialReason | null = null;
  if (!page.full) partial = 'budget';
  else if (page.sessions.length < limit && cut !== null) partial = cut;
  const last = page.sessions[page.sessions.length - 1];
  const newAfter = last !== undefined ? { ts: last.best_ts_ms, key: last.session_key } : after;
  const rest = candidates.filter(
    (c) => !shown.has(c.key) && !vanished.has(c.key) && (newAfter === null || byBest(c, { best: newAfter.ts, key: newAfter.key }) > 0),
  );
  const complete = bound === Number.NEGATIVE_INFINITY;
  const more = rest.length > 0 || !complete;
  return {
    ok: true,
    state: partial !== null ? 'partial' : 'ready',
    partial_reason: partial,
    window_days: days,
    sessions: page.sessions,
    cursor: more ? nextCursor({ qh: fingerprint, snap, after: newAfter }, next, rest) : null,
    searched: {
      sessions: plan.eligibleBefore(next),
      of: plan.eligibleCount,
      complete,
      newest_unsearched_ms: complete ? null : bound,
    },
    coverage,
  };
}
