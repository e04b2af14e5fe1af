// The conversation messages of one agent's wire, undone ones included and marked, in the shape a
// message index needs (seed 000: "Kimi context.undo becomes an exact RecordIds mark, keeping
// removed prose findable with superseded=true"). Reasoning and tool payloads are not messages.
import type { Supersession, WireLog } from './wire-entry.js';
import { mainAgentId } from './layout.js';

export interface KimiMessage {
  agentId: string;
  /** `<agent-id>:<native id>`, unique across the session's agents. */
  recordId: string;
  role: 'user' | 'assistant';
  text: string;
  at: string | null;
  subagent: boolean;
  superseded: Supersession | null;
}

/**
 * Yields the user and assistant prose of `log` in source order. A subagent's machine-sent
 * prompts count as user messages: that is how it receives its work.
 */
export function* wireMessages(log: WireLog): Generator<KimiMessage> {
  const subagent = log.agentId !== mainAgentId;
  for (const entry of log.entries) {
    if (entry.kind === 'user') {
      if (entry.trigger !== null && !subagent) continue;
      yield {
        agentId: log.agentId,
        recordId: entry.recordId,
        role: 'user',
        text: entry.text,
        at: entry.at,
        subagent,
        superseded: entry.superseded,
      };
    } else if (entry.kind === 'step') {
      for (const part of entry.parts) {
        if (part.kind !== 'text') continue;
        yield {
          agentId: log.agentId,
          recordId: part.recordId,
          role: 'assistant',
          text: part.text,
          at: part.at,
          subagent,
          superseded: entry.superseded,
        };
      }
    }
  }
}
