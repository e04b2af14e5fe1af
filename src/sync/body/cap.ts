// The body cap (seed 003 "Size limits"): past 786,432 bytes a session first loses its subagents'
// inner turns (subagent by subagent in the order they ran, each from its oldest inner turn on, never
// its first turn (the task) or its last (the final answer); one event turn stands for the run), then
// its own oldest turns after the opening one. Sizes are computed arithmetically from each turn's
// serialised length, so the work is linear; the result is a pure function of the record.
import { serialiseRecord } from '../../record/serialise.js';
import type { SessionRecord, Subagent, Turn } from '../../record/types.js';

export const bodyCapBytes = 786_432;

/** Room kept for counters that gain a digit while the turns are cut (checked exactly at the end). */
const counterSlack = 64;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The turn that stands where `count` turns were removed. */
export function omittedEvent(count: number, at: string | null): Turn {
  return { role: 'event', at, text: `${count} ${count === 1 ? 'turn' : 'turns'} omitted to fit the body cap` };
}

export interface CapResult {
  record: SessionRecord;
  /** The serialised body, when it fits. */
  body: string | null;
  bytes: number;
}

interface Cut {
  /** How many turns from index 1 on to remove. */
  count: number;
  /** The container's serialised length after the cut. */
  after: number;
}

/**
 * The fewest turns to remove from index 1 on (keeping the first, and the last unless `keepLast` is
 * false) so that `over - (before - after) <= 0`; the most allowed when none is enough. `fixed(k)` is
 * the container's length with an empty turn list after removing k turns.
 */
function planCut(turns: readonly Turn[], before: number, over: number, keepLast: boolean, fixed: (k: number) => number): Cut | null {
  const n = turns.length;
  const maxK = keepLast ? n - 2 : n - 1;
  if (maxK < 1) return null;
  const lens = turns.map(bytesOf);
  const first = lens[0]!;
  let rest = 0;
  for (let i = 1; i < n; i++) rest += lens[i]!;
  let best: Cut | null = null;
  for (let k = 1; k <= maxK; k++) {
    rest -= lens[k]!;
    const event = bytesOf(omittedEvent(k, turns[1]!.at ?? null));
    const kept = n - k + 1; // first, the event, and what follows the cut
    const after = fixed(k) + first + event + rest + (kept - 1);
    best = { count: k, after };
    if (over - (before - after) <= 0) return best;
  }
  return best;
}

function cutTurns(turns: Turn[], count: number): Turn[] {
  return [turns[0]!, omittedEvent(count, turns[1]!.at ?? null), ...turns.slice(count + 1)];
}

class Capper {
  constructor(
    private bytes: number,
    private readonly limit: number,
    private readonly record: SessionRecord,
  ) {}

  get fits(): boolean {
    return this.bytes <= this.limit;
  }

  /** Trims one subagent's inner turns; true once the body fits. */
  private trim(sub: Subagent): boolean {
    const before = bytesOf(sub);
    const fixed = (k: number): number => bytesOf({ ...sub, turns: [], truncated: true, omitted_turns: sub.omitted_turns + k });
    const cut = planCut(sub.turns, before, this.bytes - this.limit, true, fixed);
    if (cut === null) return false;
    sub.turns = cutTurns(sub.turns, cut.count);
    sub.truncated = true;
    sub.omitted_turns += cut.count;
    this.record.omitted_subagent_turns += cut.count;
    this.bytes -= before - cut.after;
    return this.fits;
  }

  /** Visits subagents in the order they ran, a parent before the ones it launched. */
  subagents(turns: readonly Turn[]): boolean {
    for (const t of turns) {
      for (const c of t.tool_calls ?? []) {
        if (c.subagent === undefined) continue;
        if (this.trim(c.subagent)) return true;
        if (this.subagents(c.subagent.turns)) return true;
      }
    }
    return false;
  }

  /** Removes the session's own oldest turns after the opening one, the latest kept while that can fit. */
  main(): void {
    const r = this.record;
    const before = this.bytes;
    const over = this.bytes - this.limit;
    const fixed = (k: number): number =>
      Buffer.byteLength(serialiseRecord({ ...r, turns: [], truncated: true, omitted_turns: r.omitted_turns + k }), 'utf8');
    const keepingLast = planCut(r.turns, before, over, true, fixed);
    const chosen =
      keepingLast !== null && over - (before - keepingLast.after) <= 0 ? keepingLast : planCut(r.turns, before, over, false, fixed);
    if (chosen === null) return;
    r.turns = cutTurns(r.turns, chosen.count);
    r.truncated = true;
    r.omitted_turns += chosen.count;
    this.bytes -= before - chosen.after;
  }
}

/**
 * The record held to `cap` bytes serialised, and its body; `body` is null when even the opening
 * turn alone is past the cap (the session is then not sent).
 */
export function capRecord(record: SessionRecord, cap: number = bodyCapBytes): CapResult {
  const whole = serialiseRecord(record);
  const size = Buffer.byteLength(whole, 'utf8');
  if (size <= cap) return { record, body: whole, bytes: size };
  // A copy in wire form (costs rounded, keys ordered): every length below is then a wire length.
  const r = JSON.parse(whole) as SessionRecord;
  const capper = new Capper(size, cap - counterSlack, r);
  if (!capper.subagents(r.turns)) capper.main();
  const body = serialiseRecord(r);
  const bytes = Buffer.byteLength(body, 'utf8');
  return { record: r, body: bytes <= cap ? body : null, bytes };
}
