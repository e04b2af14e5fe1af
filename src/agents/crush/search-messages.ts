// Crush's messages for the search index: the typed text of user messages and the text of
// assistant messages, of a session and its sub-agents, by message id. Never indexed: reasoning,
// tool calls and results, summaries. A change to the database (or its log) re-reads the session.
import { str, text } from '../../json/narrow.js';
import type { MessageRecord } from '../../record/message-index.js';
import { cappedRecord, wholeExtract, wholeFiles } from '../message-files.js';
import { defaultBusyTimeoutMs } from '../sqlite-store.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { isTitleSession } from './build-record.js';
import { loadCrush } from './load.js';
import { msOf } from './parts.js';

/** Bump when what this file extracts changes: the index then re-reads every Crush session. */
export const crushMessagesVersion = 1;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const { tree, problems } = await loadCrush(session, defaultBusyTimeoutMs, false);
  const records: MessageRecord[] = [];
  for (const [id, data] of tree?.sessions ?? []) {
    if (isTitleSession(id, text(data.row, 'parent_session_id'))) continue;
    const sub = id !== tree?.rootId;
    for (const { row: m, parts } of data.messages) {
      const role = str(m, 'role');
      if ((role !== 'user' && role !== 'assistant') || m.is_summary_message === 1) continue;
      const body = parts
        .filter((p) => p.type === 'text')
        .map((p) => (str(p.data, 'text') ?? '').trim())
        .filter((t) => t !== '')
        .join(role === 'user' ? '\n' : '\n\n')
        .trim();
      const messageId = text(m, 'id');
      if (body === '' || messageId === undefined) continue;
      const rec = cappedRecord({
        role,
        ts_ms: msOf(m.created_at),
        text: body,
        locator: { kind: 'external_record_id', record_id: messageId },
        item_id: messageId,
      });
      if (sub) {
        rec.subagent = true;
        rec.thread = id;
      }
      records.push(rec);
    }
  }
  // A database's size says nothing about what one session read from it: only an export's counts.
  const bytesRead = files.filter((f) => !/\.db(-wal|-shm)?$/.test(f.path)).reduce((n, f) => n + f.offset, 0);
  return wholeExtract(files, records, [], { problems: problems.map((p) => ({ path: p.path, reason: p.reason })), bytesRead });
}

export const crushSearchMessages: MessageExtractor = { version: crushMessagesVersion, extract };
