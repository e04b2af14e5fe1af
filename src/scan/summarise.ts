// Reads one session and reduces it to what `scan` lists and `usage` reports; shared by the
// in-process path and the worker threads that spread a cold scan over the machine's cores.
import type { AgentReader, DiscoveredSession, FileProblem } from '../agents/types.js';
import { finaliseRecord } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import { bucketsFromRecord, type UsageBuckets } from '../usage/buckets.js';
import { rowFromRecord, type SessionRow } from './session-row.js';

export interface SessionSummary {
  row: SessionRow | null;
  problems: FileProblem[];
  cwds: string[];
  badLines: { path: string; count: number }[];
  /** Tokens by quarter-hour and model, from the draft record (whose turns still carry their models). */
  usage: UsageBuckets | null;
}

export async function summariseSession(reader: AgentReader, session: DiscoveredSession, userHome: string | null): Promise<SessionSummary> {
  const parsed = await reader.parse(session, { detail: 'summary' });
  const bad = parsed.badLines.reduce((n, b) => n + b.count, 0);
  const usage = parsed.record === null ? null : bucketsFromRecord(parsed.record);
  const record = parsed.record === null ? null : finaliseRecord(parsed.record, { detail: 'summary', elide: makeHomeElider(userHome) });
  const row = record === null ? null : rowFromRecord(record, session.path, session.home, bad);
  const problems = [...parsed.problems];
  // A session already reported unreadable or oversized is not also called unparsed.
  if (record === null && problems.length === 0) problems.push({ path: session.path, kind: 'unparsed', reason: 'no session in this file' });
  return { row, problems, cwds: parsed.cwds, badLines: parsed.badLines, usage };
}
