// Where everything of a session lives: the logs root under a state root, the fixed file names of
// a session folder, and the `turns/turn_NNN_<suffix>` sidecar names.
import { join } from 'node:path';

export const files = {
  meta: 'session_meta.json',
  events: 'session.jsonl',
  transcript: 'transcript.jsonl',
  conversation: 'conversation.jsonl',
  summary: 'summary.json',
  sessionSummary: 'session_summary.json',
  turns: 'turns',
} as const;

/** `<stateRoot>/logs`: one folder per session below it. */
export function logsRoot(stateRoot: string): string {
  return join(stateRoot, 'logs');
}

/** `turns/turn_007_model.txt`: the turn zero-padded to three digits (wider turns keep all digits). */
export function turnFile(turn: number, suffix: string): string {
  return `${files.turns}/turn_${String(turn).padStart(3, '0')}_${suffix}`;
}
