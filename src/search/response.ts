// The search response body: what `agentlog search --json` prints and the HTTP route serves, in the
// seed's shape (seed 000 "The query route" → Response), with agentlog's agent ids as the source.
import type { Locator, MessageRole } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';

export const searchStates = ['ready', 'building', 'partial'] as const;
export type SearchState = (typeof searchStates)[number];

export const partialReasons = ['timeout', 'budget'] as const;
export type PartialReason = (typeof partialReasons)[number];

export interface SearchHit {
  role: MessageRole;
  ts_ms: number;
  seq: number | null;
  superseded: boolean;
  truncated: boolean;
  subagent: boolean;
  snippet: string;
  snippet_offset_bytes: number;
  /** Highlights: [start, end) UTF-8 byte offsets into the original message text, inside the snippet. */
  ranges: [number, number][];
  locator: Locator;
}

export interface SessionGroup {
  /** `<agent>:<session id>`. */
  session_key: string;
  agent: AgentId;
  session_id: string;
  best_ts_ms: number;
  total_hits: number;
  source_gone: boolean;
  /** The up to 3 most recent hits. */
  hits: SearchHit[];
}

export interface AgentCoverage {
  sessions: number;
  oldest_ts_ms: number;
  newest_ts_ms: number;
  source_gone: number;
}

export interface Coverage {
  /** The start of the window searched (0 when all history is kept). */
  indexed_back_to_ms: number;
  /** When the last complete sweep finished, and how long ago (null before the first). */
  last_sweep_ms: number | null;
  stale_by_ms: number | null;
  /** Counts over the sessions inside the window (weak spot 31). */
  agents: Partial<Record<AgentId, AgentCoverage>>;
  /** What Intendant logs written before the message lane can ever yield (seed 000, verbatim). */
  legacy: { ask_human_answers: string; follow_ups: string };
}

export interface SearchBody {
  ok: true;
  state: SearchState;
  partial_reason: PartialReason | null;
  window_days: number;
  sessions: SessionGroup[];
  cursor: string | null;
  coverage: Coverage;
}

export const legacyCoverage = {
  ask_human_answers: 'none before 2026-07 (never persisted)',
  follow_ups: 'best-effort before 2026-07',
} as const;

/** The body of an error answer (the HTTP status comes from the error's code). */
export interface SearchErrorBody {
  ok: false;
  error: string;
  message: string;
}
