// Cline's and Roo Code's messages for the search index: the typed text and the assistant's prose of
// a task and its subtasks, read from documents rewritten whole, so a change re-reads the task.
// Never indexed: reasoning, tool calls and results, injected context.
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import type { Turn } from '../../record/types.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { parseTask } from './parse.js';
import type { ClineAgentId } from './variant.js';

/** Bump when what this file extracts changes: the index then re-reads every task. */
export const clineMessagesVersion = 1;

function collect(turns: readonly Turn[], thread: string | null, out: MessageRecord[]): void {
  turns.forEach((t, i) => {
    if ((t.role === 'user' || t.role === 'assistant') && t.text.trim() !== '') {
      const id = `${thread ?? 'main'}:${i}`;
      const r = cappedRecord({
        role: t.role,
        ts_ms: isoMs(t.at),
        text: t.text,
        locator: { kind: 'external_record_id', record_id: id },
        item_id: id,
      });
      out.push(thread === null ? r : { ...r, thread, subagent: true });
    }
    for (const c of t.tool_calls ?? []) if (c.subagent !== undefined) collect(c.subagent.turns, c.subagent.id, out);
  });
}

export function clineSearchMessages(agent: ClineAgentId): MessageExtractor {
  return {
    version: clineMessagesVersion,
    async extract(session: DiscoveredSession) {
      const files = await wholeFiles(session.files.map((f) => f.path));
      const parsed = await parseTask(agent, session, false);
      const records: MessageRecord[] = [];
      if (parsed.record !== null) collect(parsed.record.turns, null, records);
      return wholeExtract(files, records, [], {
        badLines: parsed.badLines.reduce((n, b) => n + b.count, 0),
        problems: parsed.problems.map((p) => ({ path: p.path, reason: p.reason })),
      });
    },
  };
}
