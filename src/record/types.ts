// The normalised session record, schema v3 (seed 003 "What a session becomes" and "Subagents").
// Wire key order is fixed by `serialise.ts`; these types say what may appear where.

export const schemaVersion = 3 as const;
export const collectorVersion = 3 as const;

/** Every agent format agentlog reads. Adding one is a compile error wherever a table forgot it. */
export const agentIds = [
  'claude_code',
  'codex',
  'kimi',
  'pi',
  'intendant',
  'gemini',
  'opencode',
  'cline',
  'roo_code',
  'qwen',
  'crush',
  'copilot',
  'droid',
  'goose',
  'aider',
  'cursor',
] as const;
export type AgentId = (typeof agentIds)[number];

export const detailLevels = ['full', 'messages', 'summary'] as const;
export type Detail = (typeof detailLevels)[number];

export const turnRoles = ['user', 'assistant', 'reasoning', 'event'] as const;
export type TurnRole = (typeof turnRoles)[number];

export const toolFormats = ['shell', 'diff', 'json', 'text'] as const;
export type ToolFormat = (typeof toolFormats)[number];

export const toolStatuses = ['ok', 'error', 'interrupted'] as const;
export type ToolStatus = (typeof toolStatuses)[number];

export const subagentStatuses = ['completed', 'failed', 'stopped', 'running'] as const;
export type SubagentStatus = (typeof subagentStatuses)[number];

export function isAgentId(value: string): value is AgentId {
  return (agentIds as readonly string[]).includes(value);
}

export function isDetail(value: string): value is Detail {
  return (detailLevels as readonly string[]).includes(value);
}

/**
 * Token counts, each token counted once. `input_tokens` is the input *without* its cached part: an
 * agent whose log counts cache reads inside its input figure (Codex `input_tokens`, Gemini `input`,
 * Intendant `prompt`) has them taken out by its reader, so adding `input_tokens` and
 * `cache_read_tokens` gives the whole input back, as Claude Code's usage states it.
 */
export interface Totals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  reasoning_tokens: number;
  /** Null where the log states no cost: a price table is never applied into the record. */
  cost_usd: number | null;
}

export interface ToolCall {
  name: string;
  format?: ToolFormat;
  path?: string;
  input?: string;
  output?: string;
  status?: ToolStatus;
  exit_code?: number;
  subagent?: Subagent;
}

export interface Turn {
  role: TurnRole;
  /** ISO-8601 timestamp as the log wrote it, or null when the line had none. */
  at: string | null;
  text: string;
  /**
   * Readers set the model on every assistant turn they know it for; `finaliseRecord` keeps it only
   * where it differs from the previous assistant turn's, as the seed's wire shape asks.
   */
  model?: string;
  /**
   * What this assistant turn's request(s) used, where the log records usage per message, counted
   * by the reader's own rule. Not on the wire: `agentlog usage` reads it from the draft to split a
   * session's tokens by the day each turn happened (without it, totals are shared over the turns).
   */
  usage?: Totals;
  /** Present on assistant turns (possibly empty), absent on the others. */
  tool_calls?: ToolCall[];
}

/**
 * One request's counts that the log records apart from any turn of the record (a Pi request on an
 * abandoned branch, an undone Kimi call, a usage row written apart from its message), with the time
 * it was written and the model that served it. Not on the wire: `agentlog usage` reads it from the
 * draft, as it reads `Turn.usage`.
 */
export interface UsageApart {
  at: string | null;
  model?: string;
  usage: Totals;
}

export interface Subagent {
  id: string;
  name: string | null;
  description: string | null;
  models: string[];
  started_at: string | null;
  ended_at: string | null;
  status: SubagentStatus | null;
  totals: Totals;
  /** Counts of requests that have no turn here (see `UsageApart`); `totals` includes them. */
  usage_apart?: UsageApart[];
  turns: Turn[];
  truncated: boolean;
  omitted_turns: number;
}

export interface SessionRecord {
  schema_version: typeof schemaVersion;
  collector_version: typeof collectorVersion;
  agent: AgentId;
  detail: Detail;
  session_id: string;
  /** The session's working directory, home-elided to `~`; "" when the log names none. */
  repo: string;
  branch: string | null;
  models: string[];
  started_at: string | null;
  ended_at: string | null;
  turns: Turn[];
  totals: Totals;
  /** Counts of requests that have no turn here (see `UsageApart`); `totals` includes them. */
  usage_apart?: UsageApart[];
  truncated: boolean;
  omitted_turns: number;
  omitted_subagent_turns: number;
}

export function emptyTotals(): Totals {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: null,
  };
}

/** Adds `b` into `a` in place (used for per-message counters, which are summed once each). */
export function addTotals(a: Totals, b: Totals): Totals {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_read_tokens += b.cache_read_tokens;
  a.cache_creation_tokens += b.cache_creation_tokens;
  a.reasoning_tokens += b.reasoning_tokens;
  if (b.cost_usd !== null) a.cost_usd = (a.cost_usd ?? 0) + b.cost_usd;
  return a;
}
