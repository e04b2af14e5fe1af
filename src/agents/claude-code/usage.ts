// Token and cost accounting for Claude Code: one streamed message is several lines repeating the
// same message.id, usage and costUSD, so each id counts once (seed 003 "Two formats, two rules").
import { num, type JsonObject } from '../../json/narrow.js';
import { addTurnUsage } from '../../record/turn-usage.js';
import { emptyTotals, type Totals, type Turn, type UsageApart } from '../../record/types.js';

/** [input, output, cache creation, cache read, cost or -1 when the line stated none] */
type Counts = [number, number, number, number, number];

const noCost = -1;

function countsOf(usage: JsonObject | undefined, cost: number | undefined): Counts {
  return [
    num(usage, 'input_tokens') ?? 0,
    num(usage, 'output_tokens') ?? 0,
    num(usage, 'cache_creation_input_tokens') ?? 0,
    num(usage, 'cache_read_input_tokens') ?? 0,
    cost ?? noCost,
  ];
}

/**
 * One message's counts, the turn they belong to (if the message made one), its model, and the time
 * of the line that stated its final counts: its first line, or the later line that raised a count.
 */
interface Message {
  counts: Counts;
  turn: Turn | undefined;
  at: string | null;
  model: string | undefined;
}

/** Raises `seen`'s counts to `next`'s; `seen` takes `next`'s time when `next` raised any of them. */
function merge(seen: Message, next: Message): void {
  let raised = false;
  for (let i = 0; i < 5; i++)
    if ((next.counts[i] as number) > (seen.counts[i] as number)) {
      seen.counts[i] = next.counts[i] as number;
      raised = true;
    }
  if (raised && next.at !== null) seen.at = next.at;
  seen.turn = better(seen.turn, next.turn);
  seen.model ??= next.model;
}

function totalsOf(c: Counts): Totals {
  const t = emptyTotals();
  t.input_tokens = c[0];
  t.output_tokens = c[1];
  t.cache_creation_tokens = c[2];
  t.cache_read_tokens = c[3];
  if (c[4] !== noCost) t.cost_usd = c[4];
  return t;
}

/** A message's turn: its assistant turn wins over a reasoning turn an earlier line of it made. */
function better(seen: Turn | undefined, next: Turn | undefined): Turn | undefined {
  if (seen === undefined) return next;
  return seen.role !== 'assistant' && next?.role === 'assistant' ? next : seen;
}

/**
 * Sums usage once per message id. Streamed lines of one id can carry partial `output_tokens`
 * (ccusage's figures for the real 774 KB corpus session only add up with the final ones), so each
 * field keeps the largest value any line of the id reported. A line with no id counts as it stands.
 * Each message remembers the turn it made, so `settle` can put its final counts on that turn, and
 * the time they were stated, so a message streamed over midnight counts on the day it finished.
 */
export class UsageTally {
  private readonly byId = new Map<string, Message>();
  private readonly loose: Message[] = [];

  /** `line`: the turn this line's message made (undefined when it made none), the line's time and model. */
  add(
    messageId: string | undefined,
    usage: JsonObject | undefined,
    cost: number | undefined,
    line: { turn?: Turn | undefined; at?: string | null; model?: string | undefined } = {},
  ): void {
    if (usage === undefined && cost === undefined) return;
    const message: Message = { counts: countsOf(usage, cost), turn: line.turn, at: line.at ?? null, model: line.model };
    if (messageId === undefined) {
      this.loose.push(message);
      return;
    }
    const seen = this.byId.get(messageId);
    if (seen === undefined) this.byId.set(messageId, message);
    else merge(seen, message);
  }

  /** Takes another tally's messages in (an unjoined sidechain counted as the main agent's own). */
  absorb(other: UsageTally): void {
    for (const [id, m] of other.byId) {
      const seen = this.byId.get(id);
      if (seen === undefined) this.byId.set(id, { ...m, counts: [...m.counts] });
      else merge(seen, m);
    }
    this.loose.push(...other.loose);
  }

  totals(): Totals {
    const t = emptyTotals();
    const addCounts = (c: Counts): void => {
      t.input_tokens += c[0];
      t.output_tokens += c[1];
      t.cache_creation_tokens += c[2];
      t.cache_read_tokens += c[3];
      if (c[4] !== noCost) t.cost_usd = (t.cost_usd ?? 0) + c[4];
    };
    for (const m of this.byId.values()) addCounts(m.counts);
    for (const m of this.loose) addCounts(m.counts);
    return t;
  }

  /**
   * Sets a record's or subagent's totals, and writes each message's counts on its turn
   * (`Turn.usage`), or apart with its time and model when the message made no turn or its final
   * counts were stated at another time than the turn's (a usage report counts them then).
   */
  settle(into: { totals: Totals; usage_apart?: UsageApart[] }): void {
    const apart: UsageApart[] = [];
    const all = [...this.byId.values(), ...this.loose];
    for (const m of all) if (m.turn !== undefined) delete m.turn.usage;
    for (const m of all) {
      if (m.turn !== undefined && (m.at === null || m.at === m.turn.at)) addTurnUsage(m.turn, totalsOf(m.counts));
      else apart.push({ at: m.at, ...(m.model === undefined ? {} : { model: m.model }), usage: totalsOf(m.counts) });
    }
    into.totals = this.totals();
    if (apart.length > 0) into.usage_apart = apart;
  }
}
