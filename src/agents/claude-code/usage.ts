// Token and cost accounting for Claude Code: one streamed message is several lines repeating the
// same message.id, usage and costUSD, so each id counts once (seed 003 "Two formats, two rules").
import { num, type JsonObject } from '../../json/narrow.js';
import { emptyTotals, type Totals } from '../../record/types.js';

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
 * Sums usage once per message id. Streamed lines of one id can carry partial `output_tokens`
 * (ccusage's figures for the real 774 KB corpus session only add up with the final ones), so each
 * field keeps the largest value any line of the id reported. A line with no id counts as it stands.
 */
export class UsageTally {
  private readonly byId = new Map<string, Counts>();
  private readonly loose: Counts[] = [];

  add(messageId: string | undefined, usage: JsonObject | undefined, cost: number | undefined): void {
    if (usage === undefined && cost === undefined) return;
    const counts = countsOf(usage, cost);
    if (messageId === undefined) {
      this.loose.push(counts);
      return;
    }
    const seen = this.byId.get(messageId);
    if (seen === undefined) {
      this.byId.set(messageId, counts);
      return;
    }
    for (let i = 0; i < 5; i++) if ((counts[i] as number) > (seen[i] as number)) seen[i] = counts[i] as number;
  }

  /** Takes another tally's messages in (an unjoined sidechain counted as the main agent's own). */
  absorb(other: UsageTally): void {
    for (const [id, counts] of other.byId) {
      const seen = this.byId.get(id);
      if (seen === undefined) this.byId.set(id, [...counts]);
      else for (let i = 0; i < 5; i++) if ((counts[i] as number) > (seen[i] as number)) seen[i] = counts[i] as number;
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
    for (const c of this.byId.values()) addCounts(c);
    for (const c of this.loose) addCounts(c);
    return t;
  }
}
