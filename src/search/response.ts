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
  /**
   * What some of these sessions can never yield, in the agent reader's words (present only when a
   * session in the window said so).
   */
  notes?: Record<string, string>;
}

export interface Coverage {
  /** The start of the window searched (0 when all history is kept). */
  indexed_back_to_ms: number;
  /** When the last complete sweep finished, and how long ago (null before the first). */
  last_sweep_ms: number | null;
  stale_by_ms: number | null;
  /** Counts over the sessions inside the window. */
  agents: Partial<Record<AgentId, AgentCoverage>>;
}

/**
 * What the answer has searched so far, this page and the pages before it: every page shows the next
 * sessions of one fixed order, and only those no unsearched session could outrank.
 */
export interface Searched {
  /** Sessions of the window searched. */
  sessions: number;
  /** Sessions of the window that could hold a hit (they said something inside it). */
  of: number;
  /** Every session of the window was searched: an empty answer means nothing matches. */
  complete: boolean;
  /**
   * The newest message of any session not searched yet (null when complete): every hit newer than
   * this has been found, and the cursor goes on with the older ones.
   */
  newest_unsearched_ms: number | null;
}

export interface SearchBody {
  ok: true;
  state: SearchState;
  partial_reason: PartialReason | null;
  window_days: number;
  sessions: SessionGroup[];
  cursor: string | null;
  searched: Searched;
  coverage: Coverage;
}

/** The body of an error answer (the HTTP status comes from the error's code). */
export interface SearchErrorBody {
  ok: false;
  error: string;
  message: string;
}
