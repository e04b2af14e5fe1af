// The closed vocabularies the Intendant reader keys on (research/intendant.md §1.3, §1.5, §3.1).

/** Provenances of text a person wrote; `system_injection`, `tool_output`, … are machinery. */
export const userProvenances = ['task', 'resume_task', 'follow_up', 'steer', 'ask_human_answer'] as const;
export type UserProvenance = (typeof userProvenances)[number];

export function isUserProvenance(value: string | undefined): value is UserProvenance {
  return value !== undefined && (userProvenances as readonly string[]).includes(value);
}

/**
 * Relationship kinds that are lineage, not delegation: a fork or rewind child is a conversation the
 * person goes on with, so it stays a session of its own. Every other kind (subagent, side,
 * fission, …; the vocabulary is open) nests the child in its parent.
 */
export const lineageKinds = ['fork', 'anchor-fork', 'anchor_fork', 'rewind'] as const;

export function nestsAsSubagent(kind: string): boolean {
  return !(lineageKinds as readonly string[]).includes(kind);
}

/** Rows that become event turns, with the word the turn says when the row has no message. */
export const eventTurnRows = {
  interrupted: 'interrupted',
  safety_cap_reached: 'safety cap reached',
  context_compacted: 'context compacted',
  context_compaction: 'context compacted',
  compaction: 'context compacted',
  conversation_rolled_back: 'conversation rolled back',
} as const satisfies Record<string, string>;
export type EventTurnRow = keyof typeof eventTurnRows;

export function isEventTurnRow(event: string): event is EventTurnRow {
  return Object.hasOwn(eventTurnRows, event);
}

/** Generic log rows: the only ones that carry `Model: …` and `Round N follow-up: …` lines. */
export const generalRows = ['info', 'debug', 'warn', 'error'] as const;

/** Every row the record is built from; everything else is telemetry the record does not need. */
export const recordRows = [
  'conversation_message',
  'conversation_rewound',
  'conversation_message_epoch',
  'session_started',
  'steer_requested',
  'steer_delivered',
  'model_response',
  'reasoning',
  'agent_started',
  'agent_input',
  'agent_output',
  'session_identity',
  'session_relationship',
  'sub_agent_result',
  ...generalRows,
  ...(Object.keys(eventTurnRows) as EventTurnRow[]),
] as const;

/**
 * The rest of the documented vocabulary (§1.3): read past without a word. A row whose event is in
 * neither list is drift and is counted (`unknownEvents`), never an error.
 */
export const otherKnownRows = [
  'session_start',
  'turn_start',
  'round_complete',
  'task_complete',
  'done_signal',
  'session_end',
  'session_ended',
  'messages_input',
  'json_extracted',
  'approval',
  'approval_resolved',
  'auto_approved',
  'human_question',
  'human_response_sent',
  'steer_queued',
  'steer_accepted',
  'steer_cancelled',
  'steer_cancel_failed',
  'context_snapshot',
  'snapshot_created',
  'rolled_back',
  'redone',
  'history_pruned',
  'session_attached',
  'session_capabilities',
  'session_note',
  'session_goal',
  'session_vitals',
  'session_pr_published',
  'presence_checkpoint',
  'user_notification',
  'user_transcript',
  'cu_task_start',
  'cu_turn',
  'cu_task_complete',
  'cu_task_error',
  'tool_request',
  'tool_response',
  'display_ready',
  'display_resize',
  'display_taken',
  'display_released',
  'debug_screen_ready',
  'debug_screen_torn_down',
  'recording_started',
  'recording_stopped',
  'recording_error',
  'recording_deleted',
  'presence_log',
  'presence_usage_update',
  'live_usage_update',
  'live_audio_started',
  'live_audio_progress',
  'live_audio_completed',
  'presence_connected',
  'presence_disconnected',
  'summary',
] as const;

const recordRowSet: ReadonlySet<string> = new Set(recordRows);
const knownRowSet: ReadonlySet<string> = new Set([...recordRows, ...otherKnownRows]);

export function isRecordRow(event: string): boolean {
  return recordRowSet.has(event);
}

/** Known events, plus the open `voice_*` telemetry family. */
export function isKnownRow(event: string): boolean {
  return knownRowSet.has(event) || event.startsWith('voice_');
}

/** A child session's meta status as the record's subagent status (`idle` ends a round: done). */
export const subagentStatusOfMeta = {
  completed: 'completed',
  idle: 'completed',
  interrupted: 'stopped',
  running: 'running',
  failed: 'failed',
  error: 'failed',
} as const satisfies Record<string, 'completed' | 'failed' | 'stopped' | 'running'>;

export function statusOfMeta(status: string | undefined): (typeof subagentStatusOfMeta)[keyof typeof subagentStatusOfMeta] | null {
  return status !== undefined && Object.hasOwn(subagentStatusOfMeta, status)
    ? subagentStatusOfMeta[status as keyof typeof subagentStatusOfMeta]
    : null;
}
