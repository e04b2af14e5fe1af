// Empty records and subagents for readers to fill in.
import { collectorVersion, emptyTotals, schemaVersion } from './types.js';
import type { AgentId, SessionRecord, Subagent } from './types.js';

export function newRecord(agent: AgentId, sessionId: string): SessionRecord {
  return {
    schema_version: schemaVersion,
    collector_version: collectorVersion,
    agent,
    detail: 'full',
    session_id: sessionId,
    repo: '',
    branch: null,
    models: [],
    started_at: null,
    ended_at: null,
    turns: [],
    totals: emptyTotals(),
    truncated: false,
    omitted_turns: 0,
    omitted_subagent_turns: 0,
  };
}

export function newSubagent(id: string): Subagent {
  return {
    id,
    name: null,
    description: null,
    models: [],
    started_at: null,
    ended_at: null,
    status: null,
    totals: emptyTotals(),
    turns: [],
    truncated: false,
    omitted_turns: 0,
  };
}

/** Adds a model to a first-seen-order list once. */
export function noteModel(models: string[], model: string | undefined): void {
  if (model !== undefined && model !== '' && !models.includes(model)) models.push(model);
}

/** True when ISO timestamp `a` is earlier than `b` (mixed precision compared as instants). */
export function isEarlier(a: string, b: string): boolean {
  // Same-length ISO strings of one format order as text; otherwise compare the instants.
  if (a.length === b.length) return a < b;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a < b : ta < tb;
}

/** Widens a [started_at, ended_at] span with one timestamp. */
export function noteTime(span: { started_at: string | null; ended_at: string | null }, at: string | undefined): void {
  if (at === undefined || at === '') return;
  if (span.started_at === null || isEarlier(at, span.started_at)) span.started_at = at;
  if (span.ended_at === null || isEarlier(span.ended_at, at)) span.ended_at = at;
}
