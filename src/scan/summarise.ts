// Reads one session and reduces it to what `scan` lists and `usage` reports; shared by the
// in-process path and the worker threads that spread a cold scan over the machine's cores.
import type { AgentReader, DiscoveredSession, FileProblem } from '../agents/types.js';
import { summaryAsk } from '../record/finalise.js';
import { type Elider, makeHomeElider } from '../record/home-elide.js';
import { orderTotals } from '../record/serialise.js';
import type { SessionRecord } from '../record/types.js';
import { bucketsFromRecord, type UsageBuckets } from '../usage/buckets.js';
import { rowFromRecord, type SessionRow, SubagentSums } from './session-row.js';

export interface SessionSummary {
  row: SessionRow | null;
  problems: FileProblem[];
  cwds: string[];
  badLines: { path: string; count: number }[];
  /** Tokens by quarter-hour and model, from the draft record (whose turns still carry their models). */
  usage: UsageBuckets | null;
}

/**
 * The row of a reader's draft: what `rowFromRecord` gives on `finaliseRecord(draft)` at summary
 * detail, without rebuilding every turn (the row counts turns and keeps only the first ask's text).
 */
export function summaryRow(
  draft: SessionRecord,
  elide: Elider,
  file: string,
  home: string,
  badLines: number,
  sums?: SubagentSums,
): SessionRow {
  const first = draft.turns.find((t) => t.role === 'user');
  const ask = first === undefined ? '' : summaryAsk(first.text, elide);
  const head: SessionRecord = { ...draft, repo: elide(draft.repo), models: [...draft.models], totals: orderTotals(draft.totals) };
  const row = rowFromRecord(head, file, home, badLines, sums);
  row.first_ask = ask === '' ? null : ask;
  return row;
}

/** The last home's elider: one built per session (two expressions compiled at first use) cost ~8 ms over the bench home's 2,400 sessions (measured). */
let elider: { home: string | null; elide: Elider } | undefined;

function eliderFor(home: string | null): Elider {
  if (elider === undefined || elider.home !== home) elider = { home, elide: makeHomeElider(home) };
  return elider.elide;
}

export async function summariseSession(reader: AgentReader, session: DiscoveredSession, userHome: string | null): Promise<SessionSummary> {
  const parsed = await reader.parse(session, { detail: 'summary' });
  const bad = parsed.badLines.reduce((n, b) => n + b.count, 0);
  const record = parsed.record;
  let usage: UsageBuckets | null = null;
  let row: SessionRow | null = null;
  if (record !== null) {
    // One walk of the subagents buckets them and sums their totals for the row.
    const sums = new SubagentSums(orderTotals(record.totals));
    usage = bucketsFromRecord(record, sums.visit);
    row = summaryRow(record, eliderFor(userHome), session.path, session.home, bad, sums);
  }
  const problems = [...parsed.problems];
  // A session already reported unreadable or oversized is not also called unparsed.
  if (row === null && problems.length === 0) problems.push({ path: session.path, kind: 'unparsed', reason: 'no session in this file' });
  return { row, problems, cwds: parsed.cwds, badLines: parsed.badLines, usage };
}
