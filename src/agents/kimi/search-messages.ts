// Kimi Code's messages for the search index (seed 000 "The extractors": Kimi Code): the prose of
// the main agent and every child agent, published under the parent session with agent-qualified
// record ids; `context.undo` becomes one exact `record_ids` mark, so undone prose stays findable,
// flagged superseded. A change re-reads the session within the reader's fail-closed bounds.
// Never indexed: reasoning, tool calls and results, the main agent's machine-sent prompts.
import { relative } from 'node:path';
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord, SupersessionMark } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { defaultKimiBounds } from './bounds.js';
import { mainAgentId, wirePath } from './layout.js';
import { wireMessages } from './messages.js';
import { readKimiSession } from './session-read.js';

/** Bump when what this file extracts changes: the index then re-reads every Kimi session. */
export const kimiMessagesVersion = 1;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const logs = await readKimiSession(session.path, defaultKimiBounds);
  const records: MessageRecord[] = [];
  const undone: string[] = [];
  let undoneAt = 0;
  for (const [agentId, log] of logs.logs) {
    const sub = agentId !== mainAgentId;
    const file = relative(session.home, wirePath(session.path, agentId));
    for (const m of wireMessages(log)) {
      if (m.text.trim() === '') continue;
      const rec = cappedRecord({
        role: m.role,
        ts_ms: isoMs(m.at),
        text: m.text,
        locator: sub ? { kind: 'external_record_id', record_id: m.recordId, file } : { kind: 'external_record_id', record_id: m.recordId },
        item_id: m.recordId,
      });
      if (sub) {
        rec.subagent = true;
        rec.thread = agentId;
      }
      records.push(rec);
      if (m.superseded !== null) {
        undone.push(m.recordId);
        undoneAt = Math.max(undoneAt, isoMs(m.superseded.at));
      }
    }
  }
  const marks: SupersessionMark[] =
    undone.length === 0 ? [] : [{ kind: 'record_ids', record_ids: [...new Set(undone)].sort(), at_ms: undoneAt, reason: 'context_undo' }];
  return wholeExtract(files, records, marks, {
    badLines: logs.badLines.reduce((n, b) => n + b.count, 0),
    problems: logs.problems.map((p) => ({ path: p.path, reason: p.reason })),
  });
}

export const kimiSearchMessages: MessageExtractor = { version: kimiMessagesVersion, extract };
