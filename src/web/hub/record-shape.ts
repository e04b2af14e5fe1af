// A hub source's body made safe to draw: the record JSON as some client sent it (schema 1 to 3),
// narrowed field by field into the record shape the transcript components expect. Anything of the
// wrong type becomes its empty value; nothing is trusted to be a string before it is checked.
import type { SessionRecord, Subagent, ToolCall, Totals, Turn } from '../../record/types.js';
import { agentIds, subagentStatuses, toolFormats, toolStatuses, turnRoles } from '../../record/types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined =>
  typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : undefined;

function totals(v: unknown): Totals {
  const t = obj(v) ?? {};
  return {
    input_tokens: num(t.input_tokens),
    output_tokens: num(t.output_tokens),
    cache_read_tokens: num(t.cache_read_tokens),
    cache_creation_tokens: num(t.cache_creation_tokens),
    reasoning_tokens: num(t.reasoning_tokens),
    cost_usd: typeof t.cost_usd === 'number' && Number.isFinite(t.cost_usd) ? t.cost_usd : null,
  };
}

function subagent(v: unknown, depth: number): Subagent | undefined {
  const s = obj(v);
  if (s === null || depth > 8) return undefined;
  return {
    id: str(s.id) ?? '',
    name: str(s.name),
    description: str(s.description),
    models: arr(s.models).filter((m): m is string => typeof m === 'string'),
    started_at: str(s.started_at),
    ended_at: str(s.ended_at),
    status: oneOf(subagentStatuses, s.status) ?? null,
    totals: totals(s.totals),
    turns: turns(s.turns, depth + 1),
    truncated: s.truncated === true,
    omitted_turns: num(s.omitted_turns),
  };
}

function toolCall(v: unknown, depth: number): ToolCall | null {
  const c = obj(v);
  if (c === null) return null;
  const out: ToolCall = { name: str(c.name) ?? 'tool' };
  const format = oneOf(toolFormats, c.format);
  const status = oneOf(toolStatuses, c.status);
  const sub = subagent(c.subagent, depth);
  if (format !== undefined) out.format = format;
  if (str(c.path) !== null) out.path = c.path as string;
  if (str(c.input) !== null) out.input = c.input as string;
  if (str(c.output) !== null) out.output = c.output as string;
  if (status !== undefined) out.status = status;
  if (typeof c.exit_code === 'number') out.exit_code = c.exit_code;
  if (sub !== undefined) out.subagent = sub;
  return out;
}

function turns(v: unknown, depth: number): Turn[] {
  const out: Turn[] = [];
  for (const item of arr(v)) {
    const t = obj(item);
    if (t === null) continue;
    const turn: Turn = { role: oneOf(turnRoles, t.role) ?? 'event', at: str(t.at), text: str(t.text) ?? '' };
    if (str(t.model) !== null) turn.model = t.model as string;
    if (turn.role === 'assistant')
      turn.tool_calls = arr(t.tool_calls)
        .map((c) => toolCall(c, depth))
        .filter((c): c is ToolCall => c !== null);
    out.push(turn);
  }
  return out;
}

/** The record to draw, or null when the body is not a session record at all. */
export function recordOf(body: string): SessionRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  const r = obj(raw);
  if (r === null || !Array.isArray(r.turns)) return null;
  // A body naming no agent agentlog reads is not a record to draw (the hub files only records).
  const agent = oneOf(agentIds, r.agent);
  if (agent === undefined) return null;
  return {
    schema_version: 3,
    collector_version: 3,
    agent,
    detail: 'full',
    session_id: str(r.session_id) ?? '',
    repo: str(r.repo) ?? '',
    branch: str(r.branch),
    models: arr(r.models).filter((m): m is string => typeof m === 'string'),
    started_at: str(r.started_at),
    ended_at: str(r.ended_at),
    turns: turns(r.turns, 0),
    totals: totals(r.totals),
    truncated: r.truncated === true,
    omitted_turns: num(r.omitted_turns),
    omitted_subagent_turns: num(r.omitted_subagent_turns),
  };
}
