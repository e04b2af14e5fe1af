// A session's tokens in quarter-hour buckets per model, built once from the record when a session is
// summarised and kept in the scan cache, so a usage report by any local day never re-reads a log.
// Every real time zone's offset is a multiple of 15 minutes, so a quarter-hour in UTC lies wholly
// inside one local day in every zone.
import type { SessionRecord, Subagent, Totals, Turn, UsageApart } from '../record/types.js';

export const slotMs = 15 * 60_000;
/** The slot of tokens whose turn carried no usable time (counted, shown as an undated period). */
export const undatedSlot = -1;
/** Providers charge a long-context rate per request once the prompt passes this many tokens. */
export const longPromptTokens = 200_000;

/** [slot, model index, input, output, cache write, cache read, reasoning, logged cost or -1, long prompt 0|1] */
export type BucketRow = [number, number, number, number, number, number, number, number, 0 | 1];

/**
 * `basis` is `turns` when every token came from a per-turn figure the reader recorded; `split` when
 * a container's totals were shared evenly over its assistant turns (the reader records no per-turn
 * usage), so days are estimates while totals stay exact.
 */
export interface UsageBuckets {
  models: string[];
  rows: BucketRow[];
  basis: 'turns' | 'split';
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

function isBucketRow(v: unknown, models: number): v is BucketRow {
  if (!Array.isArray(v) || v.length !== 9) return false;
  const [slot, model, , , , , , cost, long] = v as unknown[];
  if (!Number.isSafeInteger(slot) || (slot as number) < undatedSlot) return false;
  if (!isCount(model) || (model as number) >= models) return false;
  for (let i = 2; i < 7; i++) if (!isCount(v[i])) return false;
  return typeof cost === 'number' && Number.isFinite(cost) && (long === 0 || long === 1);
}

/** Whether a cached value is usage buckets (the scan cache's schema checks with it: buckets-schema.ts). */
export function isUsageBuckets(v: unknown): v is UsageBuckets {
  if (typeof v !== 'object' || v === null) return false;
  const { models, rows, basis } = v as Record<string, unknown>;
  if (basis !== 'turns' && basis !== 'split') return false;
  if (!Array.isArray(models) || !models.every((m) => typeof m === 'string')) return false;
  return Array.isArray(rows) && rows.every((r) => isBucketRow(r, models.length));
}

/** The model name used where a log names none: never priced. */
export const unknownModel = '<unknown>';

type Counts = [number, number, number, number, number, number];

function countsOf(t: Totals): Counts {
  return [t.input_tokens, t.output_tokens, t.cache_creation_tokens, t.cache_read_tokens, t.reasoning_tokens, t.cost_usd ?? -1];
}

function slotOf(at: string | null | undefined): number {
  if (at === null || at === undefined) return undatedSlot;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undatedSlot : Math.floor(ms / slotMs);
}

class Builder {
  readonly models: string[] = [];
  private readonly byKey = new Map<string, BucketRow>();
  split = false;

  private modelIndex(model: string): number {
    let i = this.models.indexOf(model);
    if (i === -1) i = this.models.push(model) - 1;
    return i;
  }

  add(slot: number, model: string, c: Counts): void {
    if (c[0] + c[1] + c[2] + c[3] + c[4] === 0 && c[5] <= 0) return;
    const m = this.modelIndex(model);
    const long: 0 | 1 = c[0] + c[2] + c[3] > longPromptTokens ? 1 : 0;
    const key = `${slot}:${m}:${long}`;
    const row = this.byKey.get(key);
    if (row === undefined) {
      this.byKey.set(key, [slot, m, c[0], c[1], c[2], c[3], c[4], c[5], long]);
      return;
    }
    for (let i = 0; i < 5; i++) row[i + 2] = (row[i + 2] as number) + (c[i] as number);
    if (c[5] >= 0) row[7] = Math.max(row[7], 0) + c[5];
  }

  rows(): BucketRow[] {
    return [...this.byKey.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[8] - b[8]);
  }
}

interface Placed {
  slot: number;
  model: string;
}

interface Container {
  totals: Totals;
  turns: readonly Turn[];
  usage_apart?: readonly UsageApart[] | undefined;
  models: readonly string[];
  started_at: string | null;
}

/**
 * Buckets one container's (the main agent's or a subagent's) own totals by its turns: a turn with a
 * recorded usage (any role: a reader may put a request's counts on its reasoning or event turn)
 * counts as recorded, under the turn's model or the last assistant model before it; so do the counts
 * the reader kept apart with their own time and model. What the totals hold beyond them is shared
 * evenly over the assistant turns without usage (or the last placed turn), so the buckets always add
 * up to the totals.
 */
function addContainer(b: Builder, c: Container): void {
  let lastModel = c.models[0] ?? unknownModel;
  const rest = countsOf(c.totals);
  const record = (p: Placed, usage: Totals): void => {
    const u = countsOf(usage);
    b.add(p.slot, p.model, u);
    for (let i = 0; i < 5; i++) rest[i] = Math.max(0, (rest[i] as number) - (u[i] as number));
    if (u[5] >= 0 && rest[5] >= 0) rest[5] = Math.max(0, rest[5] - u[5]);
  };
  const nothingToShare = (): boolean => rest.every((v, i) => (i < 5 ? v === 0 : v <= 0));
  // Placing counts only lowers what is left: totals that hold nothing leave nothing to share, so the
  // turns without usage (a share each) need not be kept.
  const sharing = !nothingToShare();
  const open: Placed[] = [];
  let lastPlaced: Placed | undefined;
  for (const t of c.turns) {
    if (t.role === 'assistant' && t.model !== undefined && t.model !== '') lastModel = t.model;
    if (t.usage === undefined && (t.role !== 'assistant' || !sharing)) continue;
    const p: Placed = { slot: slotOf(t.at ?? c.started_at), model: t.model !== undefined && t.model !== '' ? t.model : lastModel };
    lastPlaced = p;
    if (t.usage === undefined) open.push(p);
    else record(p, t.usage);
  }
  for (const a of c.usage_apart ?? []) {
    const p: Placed = {
      slot: slotOf(a.at ?? c.started_at),
      model: a.model !== undefined && a.model !== '' ? a.model : (c.models[0] ?? unknownModel),
    };
    lastPlaced ??= p;
    record(p, a.usage);
  }
  // Nothing left to share (every count placed, or the log states none): each share would be empty
  // and `add` would skip it, so the turns are not walked again.
  if (nothingToShare()) return;
  const targets = open.length > 0 ? open : lastPlaced !== undefined ? [lastPlaced] : [];
  if (targets.length === 0) {
    b.add(slotOf(c.started_at), c.models[0] ?? unknownModel, rest);
    if (rest.some((v, i) => i < 5 && v > 0)) b.split = true;
    return;
  }
  if (rest.some((v, i) => i < 5 && v > 0)) b.split = true;
  const n = targets.length;
  targets.forEach((p, k) => {
    const share: Counts = [0, 0, 0, 0, 0, rest[5] < 0 ? -1 : rest[5] / n];
    for (let i = 0; i < 5; i++) {
      const v = rest[i] as number;
      share[i] = Math.floor(v / n) + (k < v % n ? 1 : 0);
    }
    b.add(p.slot, p.model, share);
  });
}

function addSubagents(b: Builder, turns: readonly Turn[]): void {
  for (const t of turns) {
    for (const call of t.tool_calls ?? []) {
      const sub: Subagent | undefined = call.subagent;
      if (sub === undefined) continue;
      addContainer(b, sub);
      addSubagents(b, sub.turns);
    }
  }
}

/** The record's tokens (its subagents' counted once each, with their own models) in buckets. */
export function bucketsFromRecord(record: SessionRecord): UsageBuckets {
  const b = new Builder();
  addContainer(b, record);
  addSubagents(b, record.turns);
  return { models: b.models, rows: b.rows(), basis: b.split ? 'split' : 'turns' };
}

/** Sums bucket rows back into totals (for checking against the record's). */
export function bucketTotals(buckets: UsageBuckets): Counts {
  const t: Counts = [0, 0, 0, 0, 0, -1];
  for (const r of buckets.rows) {
    for (let i = 0; i < 5; i++) t[i] = (t[i] as number) + (r[i + 2] as number);
    if (r[7] >= 0) t[5] = Math.max(t[5], 0) + r[7];
  }
  return t;
}
