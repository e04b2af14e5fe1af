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

/** Restores a string of the record before it is written (a spilled tool output); identity by default. */
export type TextRestorer = (text: string) => string;

/** JSON of `value` with `restore` applied to every string in it. */
function json(value: unknown, restore: TextRestorer | undefined): string {
  return restore === undefined
    ? JSON.stringify(value)
    : JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? restore(v) : v));
}

/** Writes `{…, "<key>":[` + each item + `]…}` where `<key>` holds `items`, from the JSON of the rest. */
function writeAround<T>(
  whole: object,
  key: string,
  items: readonly T[],
  each: (item: T) => void,
  write: (chunk: string) => void,
  restore: TextRestorer | undefined,
): void {
  const head = json(whole, restore);
  const marker = `"${key}":[]`;
  // The key's own value is the empty array put there; every string before it is a JSON string, so
  // the first occurrence of the marker at the top level is this one.
  const at = head.indexOf(marker);
  write(head.slice(0, at + marker.length - 1));
  for (const [i, item] of items.entries()) {
    if (i > 0) write(',');
    each(item);
  }
  write(head.slice(at + marker.length - 1));
}

function writeCall(c: ToolCall, write: (chunk: string) => void, restore: TextRestorer | undefined): void {
  if (c.subagent === undefined) {
    write(json(orderToolCall(c), restore));
    return;
  }
  const head = json(orderToolCall({ ...c, subagent: undefined }), restore);
  write(`${head.slice(0, -1)},"subagent":`);
  const s = orderSubagent({ ...c.subagent, turns: [] });
  writeAround(s, 'turns', c.subagent.turns, (t: Turn) => writeTurn(t, write, restore), write, restore);
  write('}');
}

/** Writes one turn; a turn whose calls launched subagents is written call by call, turn by turn. */
function writeTurn(t: Turn, write: (chunk: string) => void, restore: TextRestorer | undefined): void {
  const calls = t.tool_calls;
  if (calls === undefined || !calls.some((c) => c.subagent !== undefined)) {
    write(json(orderTurn(t), restore));
    return;
  }
  writeAround(orderTurn({ ...t, tool_calls: [] }), 'tool_calls', calls, (c: ToolCall) => writeCall(c, write, restore), write, restore);
}

/**
 * Writes the compact serialisation piece by piece (one turn at a time, a subagent's turns one by one
 * too), so printing a very large record never builds its whole JSON text in memory. The bytes equal
 * `serialiseRecord`'s; with `restore`, those of the record whose strings were passed through it.
 */
export function writeRecord(r: SessionRecord, write: (chunk: string) => void, restore?: TextRestorer): void {
  writeAround(orderRecord({ ...r, turns: [] }), 'turns', r.turns, (t: Turn) => writeTurn(t, write, restore), write, restore);
}
