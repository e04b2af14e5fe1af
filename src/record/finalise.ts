// Turns what a reader built into the wire record: home elision, the detail level, the turn-model
// rule and wire key order. Readers build at `full` detail and call this once.
import { cutChars } from './clip.js';
import { beforeClip } from './spill-scope.js';
import type { Elider } from './home-elide.js';
import { orderRecord } from './serialise.js';
import type { Detail, SessionRecord, Subagent, ToolCall, Turn } from './types.js';

export interface FinaliseOptions {
  detail: Detail;
  elide: Elider;
}

/** Summary keeps the first user ask cut to this many characters and no other text. */
export const summaryAskChars = 200;

/** What the summary level keeps of the first user turn's text: elided, then cut. */
export function summaryAsk(text: string, elide: Elider): string {
  const ask = elide(text);
  // A cut, like a clip: under sync the whole ask is redacted before it (spill-scope's hook).
  return cutChars(ask.length > summaryAskChars ? beforeClip(ask) : ask, summaryAskChars);
}

function finaliseCall(call: ToolCall, opts: FinaliseOptions): ToolCall {
  const subagent = call.subagent === undefined ? undefined : finaliseSubagent(call.subagent, opts);
  if (opts.detail !== 'full') {
    // Under messages and summary a call carries its name (and the subagent it launched, whose own
    // turns follow the same level) but no input or output.
    return subagent === undefined ? { name: call.name } : { name: call.name, subagent };
  }
  const out: ToolCall = { ...call };
  if (out.path !== undefined) out.path = opts.elide(out.path);
  if (out.input !== undefined) out.input = opts.elide(out.input);
  if (out.output !== undefined) out.output = opts.elide(out.output);
  if (subagent !== undefined) out.subagent = subagent;
  return out;
}

function finaliseTurns(turns: Turn[], opts: FinaliseOptions): Turn[] {
  let previousModel: string | undefined;
  let askKept = false;
  return turns.map((turn) => {
    let text = '';
    if (opts.detail !== 'summary') text = opts.elide(turn.text);
    else if (turn.role === 'user' && !askKept) {
      text = summaryAsk(turn.text, opts.elide);
      askKept = true;
    }
    const out: Turn = { role: turn.role, at: turn.at, text };
    if (turn.role === 'assistant' && turn.model !== undefined && opts.detail !== 'summary') {
      if (turn.model !== previousModel) out.model = turn.model;
      previousModel = turn.model;
    }
    if (turn.tool_calls !== undefined) out.tool_calls = turn.tool_calls.map((c) => finaliseCall(c, opts));
    else if (turn.role === 'assistant') out.tool_calls = [];
    return out;
  });
}

function finaliseSubagent(sub: Subagent, opts: FinaliseOptions): Subagent {
  return {
    ...sub,
    description: sub.description === null ? null : opts.elide(sub.description),
    turns: finaliseTurns(sub.turns, opts),
  };
}

/** Applies elision, the detail level and the model rule, and puts every key in wire order. */
export function finaliseRecord(draft: SessionRecord, opts: FinaliseOptions): SessionRecord {
  return orderRecord({
    ...draft,
    detail: opts.detail,
    repo: opts.elide(draft.repo),
    turns: finaliseTurns(draft.turns, opts),
  });
}

/** Counts tool calls in a turn list (not inside subagents). */
export function countToolCalls(turns: readonly Turn[]): number {
  let n = 0;
  for (const t of turns) n += t.tool_calls?.length ?? 0;
  return n;
}

/** Counts subagents launched anywhere in a turn list, nested ones included. */
export function countSubagents(turns: readonly Turn[]): number {
  let n = 0;
  for (const t of turns) {
    for (const c of t.tool_calls ?? []) {
      if (c.subagent !== undefined) n += 1 + countSubagents(c.subagent.turns);
    }
  }
  return n;
}
