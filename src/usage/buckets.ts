// A session's tokens in quarter-hour buckets per model, built once from the record when a session is
// summarised and kept in the scan cache, so a usage report by any local day never re-reads a log.
// Every real time zone's offset is a multiple of 15 minutes, so a quarter-hour in UTC lies wholly
// inside one local day in every zone.
import type { SessionRecord, Subagent, ToolCall, Totals, Turn, UsageApart } from '../record/types.js';

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

class Builder {
  readonly models: string[] = [];
  /** Rows by `slot * 2 + long`, one per model; a number key, not a string built per add. */
  private readonly bySlot = new Map<number, BucketRow[]>();
  private readonly all: BucketRow[] = [];
  private last: BucketRow | undefined;
  private lastModel = '';
  private lastModelIndex = -1;
  split = false;
  private lastAt = '';
  private lastSlot = undatedSlot;

  /**
   * A turn time's quarter-hour slot. A reader often gives the turns of one log line (reasoning,
   * answer, tool calls) one time: it is parsed once. A memo by minute did not pay: `Date.parse`
   * takes ~0.2-0.4 µs, no more than checking that a text is another second of a parsed minute.
   */
  slotOf(at: string | null | undefined): number {
    if (at === null || at === undefined) return undatedSlot;
    if (at === this.lastAt) return this.lastSlot;
    const ms = Date.parse(at);
    const slot = Number.isNaN(ms) ? undatedSlot : Math.floor(ms / slotMs);
    this.lastAt = at;
    this.lastSlot = slot;
    return slot;
  }

  private modelIndex(model: string): number {
    if (model === this.lastModel) return this.lastModelIndex;
    let i = this.models.indexOf(model);
    if (i === -1) i = this.models.push(model) - 1;
    this.lastModel = model;
    this.lastModelIndex = i;
    return i;
  }

  /** Adds counts (cost -1: none logged) under a slot and model; an empty add leaves no row. */
  add(slot: number, model: string, input: number, output: number, write: number, read: number, reasoning: number, cost: number): void {
    if (input + output + write + read + reasoning === 0 && cost <= 0) return;
    const m = this.modelIndex(model);
    const long: 0 | 1 = input + write + read > longPromptTokens ? 1 : 0;
    let row = this.last;
    if (row === undefined || row[0] !== slot || row[1] !== m || row[8] !== long) {
      const key = slot * 2 + long;
      let list = this.bySlot.get(key);
      if (list === undefined) {
        list = [];
        this.bySlot.set(key, list);
      }
      row = undefined;
      for (let i = 0; i < list.length; i++) if ((list[i] as BucketRow)[1] === m) row = list[i];
      if (row === undefined) {
        row = [slot, m, input, output, write, read, reasoning, cost, long];
        list.push(row);
        this.all.push(row);
        this.last = row;
        return;
      }
      this.last = row;
    }
    row[2] += input;
    row[3] += output;
    row[4] += write;
    row[5] += read;
    row[6] += reasoning;
    if (cost >= 0) row[7] = Math.max(row[7], 0) + cost;
  }

  addTotals(slot: number, model: string, t: Totals): void {
    this.add(
      slot,
      model,
      t.input_tokens,
      t.output_tokens,
      t.cache_creation_tokens,
      t.cache_read_tokens,
      t.reasoning_tokens,
      t.cost_usd ?? -1,
    );
  }

  rows(): BucketRow[] {
    return this.all.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[8] - b[8]);
  }
}

interface Container {
  totals: Totals;
  turns: readonly Turn[];
  usage_apart?: readonly UsageApart[] | undefined;
  models: readonly string[];
  started_at: string | null;
}

/** What a container's totals hold beyond the counts placed so far (cost -1: none logged). */
class Rest {
  input: number;
  output: number;
  write: number;
  read: number;
  reasoning: number;
  cost: number;

  constructor(t: Totals) {
    this.input = t.input_tokens;
    this.output = t.output_tokens;
    this.write = t.cache_creation_tokens;
    this.read = t.cache_read_tokens;
    this.reasoning = t.reasoning_tokens;
    this.cost = t.cost_usd ?? -1;
  }

  take(u: Totals): void {
    this.input = Math.max(0, this.input - u.input_tokens);
    this.output = Math.max(0, this.output - u.output_tokens);
    this.write = Math.max(0, this.write - u.cache_creation_tokens);
    this.read = Math.max(0, this.read - u.cache_read_tokens);
    this.reasoning = Math.max(0, this.reasoning - u.reasoning_tokens);
    const cost = u.cost_usd ?? -1;
    if (cost >= 0 && this.cost >= 0) this.cost = Math.max(0, this.cost - cost);
  }

  tokens(): boolean {
    return this.input > 0 || this.output > 0 || this.write > 0 || this.read > 0 || this.reasoning > 0;
  }

  empty(): boolean {
    return this.input === 0 && this.output === 0 && this.write === 0 && this.read === 0 && this.reasoning === 0 && this.cost <= 0;
  }
}

const nonEmpty = (model: string | undefined): model is string => model !== undefined && model !== '';

/**
 * Buckets one container's (the main agent's or a subagent's) own totals by its turns: a turn with a
 * recorded usage (any role: a reader may put a request's counts on its reasoning or event turn)
 * counts as recorded, under the turn's model or the last assistant model before it; so do the counts
 * the reader kept apart with their own time and model. What the totals hold beyond them is shared
 * evenly over the assistant turns without usage (or the last placed turn), so the buckets always add
 * up to the totals.
 */
function addContainer(b: Builder, c: Container): void {
  const first = c.models[0] ?? unknownModel;
  let lastModel = first;
  const rest = new Rest(c.totals);
  // Placing counts only lowers what is left: totals that hold nothing leave nothing to share, so the
  // turns without usage (a share each) need not be kept.
  const sharing = !rest.empty();
  // The turns that get a share, as parallel lists rather than an object per turn.
  const openSlots: number[] = [];
  const openModels: string[] = [];
  // Where the rest goes when no turn is open for a share: the last turn placed, else the first
  // count kept apart, else the container's start (undefined until one of them is known).
  let restSlot: number | undefined;
  let restModel = first;
  const turns = c.turns;
  for (let k = 0; k < turns.length; k++) {
    const t = turns[k] as Turn;
    const assistant = t.role === 'assistant';
    const usage = t.usage;
    const own = t.model;
    if (assistant && nonEmpty(own)) lastModel = own;
    if (usage === undefined && (!assistant || !sharing)) continue;
    const slot = b.slotOf(t.at ?? c.started_at);
    const model = nonEmpty(own) ? own : lastModel;
    restSlot = slot;
    restModel = model;
    if (usage === undefined) {
      openSlots.push(slot);
      openModels.push(model);
    } else {
      b.addTotals(slot, model, usage);
      rest.take(usage);
    }
  }
  const apart = c.usage_apart;
  if (apart !== undefined)
    for (let k = 0; k < apart.length; k++) {
      const a = apart[k] as UsageApart;
      const slot = b.slotOf(a.at ?? c.started_at);
      const model = nonEmpty(a.model) ? a.model : first;
      if (restSlot === undefined) {
        restSlot = slot;
        restModel = model;
      }
      b.addTotals(slot, model, a.usage);
      rest.take(a.usage);
    }
  // Nothing left to share (every count placed, or the log states none): each share would be empty
  // and `add` would skip it, so the turns are not walked again.
  if (rest.empty()) return;
  if (rest.tokens()) b.split = true;
  if (openSlots.length === 0) {
    openSlots.push(restSlot ?? b.slotOf(c.started_at));
    openModels.push(restModel);
  }
  const n = openSlots.length;
  const cost = rest.cost < 0 ? -1 : rest.cost / n;
  const share = (v: number, k: number): number => Math.floor(v / n) + (k < v % n ? 1 : 0);
  for (let k = 0; k < n; k++)
    b.add(
      openSlots[k] as number,
      openModels[k] as string,
      share(rest.input, k),
      share(rest.output, k),
      share(rest.write, k),
      share(rest.read, k),
      share(rest.reasoning, k),
      cost,
    );
}

/** Called with each subagent, nested ones too, in the order the turns launch them (depth first). */
export type SubagentVisit = (sub: Subagent) => void;

function addSubagents(b: Builder, turns: readonly Turn[], visit: SubagentVisit | undefined): void {
  for (let k = 0; k < turns.length; k++) {
    const calls = (turns[k] as Turn).tool_calls;
    if (calls === undefined) continue;
    for (let j = 0; j < calls.length; j++) {
      const sub = (calls[j] as ToolCall).subagent;
      if (sub === undefined) continue;
      visit?.(sub);
      addContainer(b, sub);
      addSubagents(b, sub.turns, visit);
    }
  }
}

/**
 * The record's tokens (its subagents' counted once each, with their own models) in buckets.
 * `visit` sees each subagent on the same walk (the summary adds their totals: summarise.ts).
 */
export function bucketsFromRecord(record: SessionRecord, visit?: SubagentVisit): UsageBuckets {
  const b = new Builder();
  addContainer(b, record);
  addSubagents(b, record.turns, visit);
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
