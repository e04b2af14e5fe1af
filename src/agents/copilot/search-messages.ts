// Copilot CLI's messages for the search index: what the person typed and the main agent's and
// sub-agents' replies, by event id. The log only grows, but a sub-agent's events are told apart by
// a `subagent.started` that may come before them anywhere, so a change re-reads the file. Never
// indexed: reasoning, tool calls and results, injected prompts (skills, other agents, autopilot).
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import { str } from '../../json/narrow.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { readEvents } from './read-events.js';
import { isTyped } from './record.js';

/** Bump when what this file extracts changes: the index then re-reads every Copilot CLI session. */
export const copilotMessagesVersion = 1;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles([session.path]);
  const file = await readEvents(session.path);
  const subagentIds = new Set<string>();
  for (const e of file.events) if (e.type === 'subagent.started' && e.agentId !== undefined) subagentIds.add(e.agentId);
  const records: MessageRecord[] = [];
  for (const e of file.events) {
    const role = e.type === 'user.message' && isTyped(e.data) ? 'user' : e.type === 'assistant.message' ? 'assistant' : undefined;
    if (role === undefined) continue;
    const said = (str(e.data, 'content') ?? '').trim();
    if (said === '') continue;
    const id = e.id ?? `line-${e.line}`;
    const r: MessageRecord = cappedRecord({
      role,
      ts_ms: isoMs(e.at),
      text: said,
      locator: { kind: 'external_record_id', record_id: id },
      item_id: id,
    });
    if (e.parentToolCallId !== undefined || (e.agentId !== undefined && subagentIds.has(e.agentId))) r.subagent = true;
    records.push(r);
  }
  return wholeExtract(files, records, [], { badLines: file.badLines });
}

export const copilotSearchMessages: MessageExtractor = { version: copilotMessagesVersion, extract };
