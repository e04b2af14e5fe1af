// Deterministic wire form of the record: fixed key order, nothing from the clock or environment,
// so the same files always give the same bytes (the sync ledger keys on their sha256).
import type { SessionRecord, Subagent, Totals, ToolCall, Turn } from './types.js';

/** Costs are rounded before serialising so float summation order cannot change the bytes. */
function roundCost(cost: number | null): number | null {
  return cost === null ? null : Math.round(cost * 1e6) / 1e6;
}

export function orderTotals(t: Totals): Totals {
  return {
    input_tokens: t.input_tokens,
    output_tokens: t.output_tokens,
    cache_read_tokens: t.cache_read_tokens,
    cache_creation_tokens: t.cache_creation_tokens,
    reasoning_tokens: t.reasoning_tokens,
    cost_usd: roundCost(t.cost_usd),
  };
}

function orderToolCall(c: ToolCall): ToolCall {
  const out: ToolCall = { name: c.name };
  if (c.format !== undefined) out.format = c.format;
  if (c.path !== undefined) out.path = c.path;
  if (c.input !== undefined) out.input = c.input;
  if (c.output !== undefined) out.output = c.output;
  if (c.status !== undefined) out.status = c.status;
  if (c.exit_code !== undefined) out.exit_code = c.exit_code;
  if (c.subagent !== undefined) out.subagent = orderSubagent(c.subagent);
  return out;
}

function orderTurn(t: Turn): Turn {
  const out: Turn = { role: t.role, at: t.at, text: t.text };
  if (t.model !== undefined) out.model = t.model;
  if (t.tool_calls !== undefined) out.tool_calls = t.tool_calls.map(orderToolCall);
  return out;
}

export function orderSubagent(s: Subagent): Subagent {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    models: [...s.models],
    started_at: s.started_at,
    ended_at: s.ended_at,
    status: s.status,
    totals: orderTotals(s.totals),
    turns: s.turns.map(orderTurn),
    truncated: s.truncated,
    omitted_turns: s.omitted_turns,
  };
}

/** Rebuilds the record with every object's keys in wire order. */
export function orderRecord(r: SessionRecord): SessionRecord {
  return {
    schema_version: r.schema_version,
    collector_version: r.collector_version,
    agent: r.agent,
    detail: r.detail,
    session_id: r.session_id,
    repo: r.repo,
    branch: r.branch,
    models: [...r.models],
    started_at: r.started_at,
    ended_at: r.ended_at,
    turns: r.turns.map(orderTurn),
    totals: orderTotals(r.totals),
    truncated: r.truncated,
    omitted_turns: r.omitted_turns,
    omitted_subagent_turns: r.omitted_subagent_turns,
  };
}

/** Compact JSON in wire order. */
export function serialiseRecord(r: SessionRecord): string {
  return JSON.stringify(orderRecord(r));
}

/** Pretty JSON in wire order (what `show --json` prints). */
export function serialiseRecordPretty(r: SessionRecord): string {
  return JSON.stringify(orderRecord(r), null, 2);
}

/**
 * Writes the compact serialisation piece by piece (one turn at a time), so printing a very large
 * record never builds its whole JSON text in memory. The bytes equal `serialiseRecord`'s.
 */
export function writeRecord(r: SessionRecord, write: (chunk: string) => void): void {
  const ordered = orderRecord({ ...r, turns: [] });
  const head = JSON.stringify(ordered);
  const marker = '"turns":[]';
  const at = head.indexOf(marker);
  write(head.slice(0, at + marker.length - 1));
  for (const [i, turn] of r.turns.entries()) write((i === 0 ? '' : ',') + JSON.stringify(orderTurn(turn)));
  write(head.slice(at + marker.length - 1));
}
