// Gemini CLI's messages for the search index: the user and model prose of a chat recording (a JSON
// document rewritten as the chat grows, or its JSONL variant), by message id. A change re-reads
// the chat; a message the rewrite dropped stays findable, flagged superseded (the index keeps it).
// Never indexed: thoughts, tool calls and results, info/warning/error notes.
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { loadConversation } from './load.js';

/** Bump when what this file extracts changes: the index then re-reads every Gemini chat. */
export const geminiMessagesVersion = 2;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles([session.path]);
  const loaded = await loadConversation(session.path);
  if ('problem' in loaded) return wholeExtract(files, [], [], { problems: [{ path: loaded.problem.path, reason: loaded.problem.reason }] });
  const records: MessageRecord[] = [];
  for (const m of loaded.conversation.messages) {
    if (m.kind === 'event' || m.text.trim() === '') continue;
    records.push(
      cappedRecord({
        role: m.kind,
        ts_ms: isoMs(m.at),
        text: m.text,
        locator: { kind: 'external_record_id', record_id: m.id },
        item_id: m.id,
      }),
    );
  }
  return wholeExtract(files, records, [], { badLines: loaded.conversation.badLines });
}

export const geminiSearchMessages: MessageExtractor = { version: geminiMessagesVersion, extract };
