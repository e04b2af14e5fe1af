// Goose's messages for the search index: the text the user saw of user and assistant messages, by
// Goose's message id. Never indexed: what only the model saw, reasoning, tool requests and results.
// A database session is re-read when the database changes; a legacy file is read whole.
import type { MessageRecord } from '../../record/message-index.js';
import { cappedRecord, wholeExtract, wholeFiles } from '../message-files.js';
import { defaultBusyTimeoutMs } from '../sqlite-store.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { visibleText } from './build-record.js';
import { loadGoose } from './load.js';

/** Bump when what this file extracts changes: the index then re-reads every Goose session. */
export const gooseMessagesVersion = 1;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const { session: s, bad, problems } = await loadGoose(session, defaultBusyTimeoutMs, false);
  const records: MessageRecord[] = [];
  for (const m of s?.messages ?? []) {
    if (!m.userVisible || (m.role !== 'user' && m.role !== 'assistant')) continue;
    const body = visibleText(m.content);
    if (body === '') continue;
    const ts = m.created === undefined ? 0 : m.created < 1e11 ? m.created * 1000 : m.created;
    records.push(
      cappedRecord({ role: m.role, ts_ms: ts, text: body, locator: { kind: 'external_record_id', record_id: m.id }, item_id: m.id }),
    );
  }
  const bytesRead = files.filter((f) => !/\.db(-wal|-shm)?$/.test(f.path)).reduce((n, f) => n + f.offset, 0);
  return wholeExtract(files, records, [], {
    problems: problems.map((p) => ({ path: p.path, reason: p.reason })),
    bytesRead,
    badLines: bad,
  });
}

export const gooseSearchMessages: MessageExtractor = { version: gooseMessagesVersion, extract };
