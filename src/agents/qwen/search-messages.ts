// Qwen Code's messages for the search index: the typed prompts and the replies of every branch of
// the chat, those a `/rewind` left off the active branch marked superseded (one exact `record_ids`
// mark), still findable. A change re-reads the file: a rewind changes which records are live
// anywhere in it. Never indexed: reasoning, tool calls and results, injected prompts, sidechains.
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord, SupersessionMark } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { splitBranches } from './branch.js';
import type { QwenRecord } from './chat-record.js';
import { readChat } from './read-chat.js';
import { typedText, userKind } from './user-text.js';

/** Bump when what this file extracts changes: the index then re-reads every Qwen Code chat. */
export const qwenMessagesVersion = 1;

export function prose(r: QwenRecord): { role: 'user' | 'assistant'; text: string } | undefined {
  if (r.type === 'user' && userKind(r) === 'prompt') return { role: 'user', text: typedText(r) };
  if (r.type === 'assistant') return { role: 'assistant', text: r.texts.join('').trim() };
  return undefined;
}

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles([session.path]);
  const file = await readChat(session.path);
  const { abandoned } = splitBranches(file.records);
  const off = new Set(abandoned);
  const records: MessageRecord[] = [];
  const superseded: string[] = [];
  let newest = 0;
  for (const r of file.records) {
    if (r.sidechain) continue;
    const p = prose(r);
    if (p === undefined || p.text === '') continue;
    const id = r.uuid ?? `line-${r.line}`;
    const ts = isoMs(r.at);
    newest = Math.max(newest, ts);
    records.push(
      cappedRecord({ role: p.role, ts_ms: ts, text: p.text, locator: { kind: 'external_record_id', record_id: id }, item_id: id }),
    );
    if (off.has(r)) superseded.push(id);
  }
  const marks: SupersessionMark[] =
    superseded.length === 0 ? [] : [{ kind: 'record_ids', record_ids: superseded, at_ms: newest, reason: 'qwen_rewound_branch' }];
  return wholeExtract(files, records, marks, { badLines: file.badLines });
}

export const qwenSearchMessages: MessageExtractor = { version: qwenMessagesVersion, extract };
