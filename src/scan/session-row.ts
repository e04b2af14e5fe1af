// The one-line summary of a session that `scan` lists (and caches).
import type { AgentId, SessionRecord, Totals } from '../record/types.js';
import { countToolCalls } from '../record/finalise.js';
import { orderTotals } from '../record/serialise.js';
import { addTotals, emptyTotals } from '../record/types.js';
import type { Subagent, Turn } from '../record/types.js';

export interface SessionRow {
  agent: AgentId;
  session_id: string;
  /** The name a person gave it (`agentlog rename`), else null. */
  name: string | null;
  repo: string;
  branch: string | null;
  /** The first thing the person asked, cut to 200 characters (the summary level keeps only it). */
  first_ask: string | null;
  models: string[];
  started_at: string | null;
  ended_at: string | null;
  turns: number;
  tool_calls: number;
  /** The main agent's own totals, as in the record. */
  totals: Totals;
  /** The main agent's totals plus every subagent's, for display and comparison with other tools. */
  totals_with_subagents: Totals;
  subagents: number;
  /** The session's main file or folder. */
  file: string;
  /** The agent home it was found under. */
  home: string;
  bad_lines: number;
}

/** Adds every subagent's totals (nested ones too) into `into`; answers how many subagents there are. */
function addSubagentTotals(turns: readonly Turn[], into: Totals): number {
  let n = 0;
  for (const t of turns) {
    if (t.tool_calls === undefined) continue;
    for (const c of t.tool_calls) {
      if (c.subagent === undefined) continue;
      // Rounded as the wire record rounds it, so a row from a draft adds what one from the record would.
      addTotals(into, orderTotals(c.subagent.totals));
      n += 1 + addSubagentTotals(c.subagent.turns, into);
    }
  }
  return n;
}

/**
 * The main agent's totals plus its subagents', summed by `visit` on a walk of the subagents the
 * caller makes anyway (bucketing them: summarise.ts) instead of a walk of every turn again.
 */
export class SubagentSums {
  readonly all: Totals;
  count = 0;

  constructor(own: Totals) {
    this.all = addTotals(emptyTotals(), own);
  }

  /** Takes one subagent (nested ones too, in launch order as `addSubagentTotals` walks them). */
  readonly visit = (sub: Subagent): void => {
    addTotals(this.all, orderTotals(sub.totals));
    this.count++;
  };
}

/** The row of a record; `sums`: its subagents already summed (from the record's own totals). */
export function rowFromRecord(record: SessionRecord, file: string, home: string, badLines: number, sums?: SubagentSums): SessionRow {
  let all: Totals;
  let subagents: number;
  if (sums === undefined) {
    all = addTotals(emptyTotals(), record.totals);
    subagents = addSubagentTotals(record.turns, all);
  } else {
    all = sums.all;
    subagents = sums.count;
  }
  return {
    agent: record.agent,
    session_id: record.session_id,
    name: null,
    repo: record.repo,
    branch: record.branch,
    first_ask: record.turns.find((t) => t.role === 'user' && t.text !== '')?.text ?? null,
    models: record.models,
    started_at: record.started_at,
    ended_at: record.ended_at,
    turns: record.turns.length,
    tool_calls: countToolCalls(record.turns),
    totals: record.totals,
    totals_with_subagents: all,
    subagents,
    file,
    home,
    bad_lines: badLines,
  };
}
