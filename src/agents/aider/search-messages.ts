// Aider's messages for the search index: what the person typed and aider's replies, per run. The
// history file is shared by every run of a repository, so a change re-reads the run.
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { parseRunLocator } from './discover.js';
import { readRun } from './history-file.js';
import { readAiderRun } from './run.js';

/** Bump when what this file extracts changes: the index then re-reads every run. */
export const aiderMessagesVersion = 1;

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const locator = parseRunLocator(session.path);
  if (locator === undefined) return wholeExtract(files, [], [], { problems: [{ path: session.path, reason: 'not an aider run' }] });
  const run = readAiderRun(readRun(locator.file, locator.offset).text);
  const records: MessageRecord[] = [];
  run.turns.forEach((t, i) => {
    if (t.role !== 'user' && t.role !== 'assistant') return;
    const id = String(i);
    records.push(
      cappedRecord({ role: t.role, ts_ms: isoMs(t.at), text: t.text, locator: { kind: 'external_record_id', record_id: id }, item_id: id }),
    );
  });
  return wholeExtract(files, records, []);
}

export const aiderSearchMessages: MessageExtractor = { version: aiderMessagesVersion, extract };
