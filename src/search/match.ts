// Matching one session's shard: every term in one message, the filters applied, its total hits and
// up to 3 most recent hits; the n-gram filters skip segments that cannot match, and the time and
// fresh-load budgets are checked as it goes (inside the record loop too: one shard can be huge).
import type { MessageRecord } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import { acceptMatch, firstOccurrence } from './fold.js';
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
  record: MessageRecord;
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

const byRecent = (a: Pick<HitRef, 'ts' | 'order'>, b: Pick<HitRef, 'ts' | 'order'>): number => b.ts - a.ts || b.order - a.order;

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
  let active: boolean[] | null = null;
  if (entry.supersession) {
    active = await cache.activityOf(
      entry,
      entry.segments.map((r) => loaded.get(r.file) as LoadedSegment),
    );
    // A record that does not read back: its file is quarantined; the next sweep re-extracts the session.
    if (active === null) return null;
  }
  const top: Omit<HitRef, 'record'>[] = [];
  const max = queryLimits.hitsPerSession;
  let total = 0;
  let base = 0;
  let steps = 0;
  // Where each term was last found: in the record that all of them agree on, once they do.
  const found = new Array<number>(terms.length).fill(0);
  for (const [si, ref] of entry.segments.entries()) {
    const seg = loaded.get(ref.file);
    if (seg === undefined || passing[si] !== true) {
      base += ref.records;
      continue;
    }
    const { hay, starts, body } = seg;
    const n = body.count;
    // Leapfrog over the terms: each is looked for from the current record on, and a term found
    // further on moves every other term's search there, so a rare term skips the records where only
    // a common one occurs (a term in every message no longer costs a check per message).
    let target = 0;
    scan: while (target < n) {
      for (let k = 0, agreed = 0; agreed < terms.length; k = (k + 1) % terms.length) {
        const at = hay.indexOf(terms[k] as string, starts[target] as number);
        if (at === -1) break scan;
        if (++steps % clockEvery === 0 && budget.timedOut) return 'timeout';
        found[k] = at;
        const r = at < (starts[target + 1] as number) ? target : recordAt(seg, at);
        if (r === target) agreed++;
        else {
          target = r;
          agreed = 1;
        }
      }
      const i = target++;
      const ts = body.ts[i] as number;
      const isActive = active === null ? true : active[base + i] !== false;
      if (ts < f.horizon || (!f.subagents && body.isSubagent(i)) || (!f.superseded && !isActive)) continue;
      // Every term where it was found (no NUL in a term, so inside the record), else further on in it.
      const view = recordView(seg, i);
      let every = true;
      for (let k = 0; k < terms.length && every; k++) {
        const t = terms[k] as string;
        const at = found[k] as number;
        every = acceptMatch(view, at, at + t.length) || firstOccurrence(view, t) !== -1;
      }
      if (!every) continue;
      total++;
      // The most recent hits, kept in order by insertion (most hits are not among them).
      const order = base + i;
      const last = top[top.length - 1];
      if (top.length === max && last !== undefined && byRecent({ ts, order }, last) >= 0) continue;
      if (top.length === max) top.pop();
      top.push({ seg, index: i, order, ts, active: isActive });
      for (let p = top.length - 1; p > 0; p--) {
        const a = top[p] as (typeof top)[number];
        const b = top[p - 1] as (typeof top)[number];
        if (byRecent(a, b) >= 0) break;
        top[p - 1] = a;
        top[p] = b;
      }
    }
    base += ref.records;
  }
  if (total === 0) return null;
  // The hits shown are read whole now (each record's fields are read on demand, see segment-body.ts).
  const shown: HitRef[] = [];
  for (const h of top) {
    const record = h.seg.body.record(h.index);
    if (record === null) {
      await cache.condemn(h.seg.file);
      return null;
    }
    shown.push({ ...h, record });
  }
  return { at, entry, key, best: (shown[0] as HitRef).ts, total, top: shown };
}
