// The UI event stream `replay` produces from `session.jsonl`: what a dashboard connecting late
// renders, in log order, after a `replay_start` carrying provider/model/autonomy.
import type { Attachment, Tokens } from './message-lane.js';

export interface ReplayBase {
  ts: string;
  ts_ms: number | null;
  turn: number | null;
}

export type ReplayEvent =
  | (ReplayBase & { kind: 'replay_start'; session_id: string; provider: string | null; model: string | null; autonomy: string | null })
  | (ReplayBase & { kind: 'turn_start'; budget_pct: number | null; remaining_tokens: number | null })
  | (ReplayBase & {
      kind: 'model_response';
      content: string;
      clipped: boolean;
      tokens: Tokens | null;
      model: string | null;
      source: string | null;
      session_id: string | null;
    })
  | (ReplayBase & {
      kind: 'user_message';
      text: string;
      provenance: string | null;
      seq: number | null;
      ref_seq: number | null;
      attachments: Attachment[];
    })
  | (ReplayBase & { kind: 'reasoning'; content: string; summary: string | null })
  | (ReplayBase & { kind: 'agent_input'; functions: string[] })
  | (ReplayBase & {
      kind: 'agent_output';
      stdout: string;
      stderr: string;
      clipped: boolean;
      output_id: string | null;
      source: string | null;
      session_id: string | null;
    })
  | (ReplayBase & { kind: 'approval'; category: string | null; decision: string; preview: string })
  | (ReplayBase & { kind: 'log'; level: string; source: 'user' | 'server' | 'system'; message: string })
  | (ReplayBase & { kind: 'conversation_rewound'; cut_after_seq: number; rewind_kind: string; superseded_at_ms: number | null })
  | (ReplayBase & {
      kind: 'context_snapshot';
      source: string;
      label: string;
      format: string | null;
      file: string | null;
      exact_replay_available: boolean;
      token_count: number | null;
      item_count: number | null;
      session_id: string | null;
    })
  | (ReplayBase & { kind: 'session_identity'; session_id: string; source: string; backend_session_id: string })
  | (ReplayBase & {
      kind: 'session_relationship';
      parent_session_id: string;
      child_session_id: string;
      relationship: string;
      ephemeral: boolean;
    })
  | (ReplayBase & { kind: 'session_attached'; session_id: string; source: string })
  | (ReplayBase & { kind: 'round_complete'; round: number; turns_in_round: number | null })
  | (ReplayBase & { kind: 'session_end'; outcome: string; total_turns: number | null });

export type ReplayKind = ReplayEvent['kind'];
