// Matching one session's shard: every term in one message, the filters applied, its total hits and
// up to 3 most recent hits; the n-gram filters skip segments that cannot match, and the time and
// fresh-load budgets are checked as it goes (inside the record loop too: one shard can be huge).
import type { MessageRecord } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import { firstOccurrence } from './fold.js';
import type { ManifestEntry } from './manifest.js';
import { queryLimits } from './query-parse.js';
import { recordAt, recordView, type LoadedSegment, type ShardCache } from './shard-cache.js';

export interface Filters {
  agents: ReadonlySet<AgentId> | null;
  superseded: boolean;
  subagents: boolean;
  horizon: number;
}

export interface HitRef {
  seg: LoadedSegment;
  index: number;
  /** Position in the session's record order, for the tiebreak and activity. */
  order: number;
  ts: number;
  active: boolean;
}

export interface Match {
  /** The session's index in the snapshot's scan order. */
  at: number;
  entry: ManifestEntry;
  key: string;
  best: number;
  total: number;
  top: HitRef[];
}

/** Sessions by their best hit, newest first, then by key: one total order for every page. */
export const byBest = (a: { best: number; key: string }, b: { best: number; key: string }): number =>
  b.best - a.best || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const byRecent = (a: HitRef, b: HitRef): number => b.ts - a.ts || b.order - a.order;

/** Records matched between two looks at the clock. */
const clockEvery = 256;

/** What one page may spend: wall time, and bytes of generation files read from disk. */
export class ScanBudget {
  fresh = 0;
  /** While set (a page's first new session) neither limit applies, so every page moves the scan on. */
  exempt = false;

  constructor(
    readonly deadline: number,
    readonly freshLimit: number,
  ) {}

  get timedOut(): boolean {
    return !this.exempt && performance.now() > this.deadline;
  }

  wouldOverrun(cost: number): boolean {
    return !this.exempt && this.fresh > 0 && this.fresh + cost > this.freshLimit;
  }
}

export type MatchOutcome = Match | null | 'budget' | 'timeout';

/**
 * Matches one session: null when nothing in it matches, 'budget' when loading it would pass the
 * fresh-load budget, 'timeout' when the deadline passed on the way (the session counts as unsearched).
 */
export async function matchSession(
  at: number,
  key: string,
  entry: ManifestEntry,
  terms: readonly string[],
  f: Filters,
  cache: ShardCache,
  budget: ScanBudget,
): Promise<MatchOutcome> {
  const passing: boolean[] = [];
  for (const ref of entry.segments) {
    const filter = await cache.filter(ref.file);
    passing.push(filter === null || terms.every((t) => filter.mayContain(t)));
  }
  if (!passing.includes(true)) return null;
  // Activity depends on every record, so a shard with marks or older generations loads whole.
  const need = entry.segments.filter((_, i) => entry.supersession || passing[i] === true);
  const cost = need.reduce((n, ref) => n + (cache.isResident(ref.file) ? 0 : ref.bytes), 0);
  if (budget.wouldOverrun(cost)) return 'budget';
  const loaded = new Map<string, LoadedSegment>();
  for (const ref of need) {
    const got = await cache.load(ref.file);
    // A missing or corrupt file: skip the session; the next sweep re-extracts it.
    if (got.state !== 'ok') return null;
    budget.fresh += got.freshBytes;
    loaded.set(ref.file, got.segment);
  }
  if (budget.timedOut) return 'timeout';
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
  let steps = 0;
  for (const [si, ref] of entry.segments.entries()) {
    const seg = loaded.get(ref.file);
    if (seg === undefined || passing[si] !== true) {
      base += ref.records;
      continue;
    }
    const records = seg.segment.records;
    for (let pos = 0; ; ) {
      const hit = seg.hay.indexOf(driver, pos);
      if (hit === -1) break;
      if (++steps % clockEvery === 0 && budget.timedOut) return 'timeout';
      const i = recordAt(seg, hit);
      pos = seg.starts[i + 1] as number;
      const r = records[i] as MessageRecord;
      const isActive = active === null ? true : active[base + i] !== false;
      if (r.ts_ms < f.horizon || (!f.subagents && r.subagent === true) || (!f.superseded && !isActive)) continue;
      const view = recordView(seg, i);
      if (!terms.every((t) => firstOccurrence(view, t) !== -1)) continue;
      total++;
      const h: HitRef = { seg, index: i, order: base + i, ts: r.ts_ms, active: isActive };
      if (top.length < queryLimits.hitsPerSession) {
        top.push(h);
        top.sort(byRecent);
      } else if (byRecent(h, top[top.length - 1] as HitRef) < 0) {
        top[top.length - 1] = h;
        top.sort(byRecent);
      }
    }
    base += ref.records;
  }
  if (total === 0) return null;
  return { at, entry, key, best: (top[0] as HitRef).ts, total, top };
}
