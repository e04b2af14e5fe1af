// Droid's messages for the search index: what the person typed (without `<system-reminder>` blocks)
// and the replies, of the session and of its sub-agents (flagged), by message id. A change re-reads
// the session: a sub-agent's file may appear beside it at any time. Never indexed: reasoning, tool
// calls and results.
import { relative } from 'node:path';
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { saidText, typedText, type DroidMessage } from './line.js';
import { loadSession } from './load.js';

/** Bump when what this file extracts changes: the index then re-reads every Droid session. */
export const droidMessagesVersion = 1;

function records(messages: readonly DroidMessage[], file: string | undefined): MessageRecord[] {
  const out: MessageRecord[] = [];
  for (const m of messages) {
    const role = m.role === 'user' ? 'user' : m.role === 'assistant' ? 'assistant' : undefined;
    if (role === undefined) continue;
    const said = role === 'user' ? typedText(m) : saidText(m);
    if (said === '') continue;
    const id = m.id ?? `line-${m.line}`;
    const locator =
      file === undefined
        ? { kind: 'external_record_id' as const, record_id: id }
        : { kind: 'external_record_id' as const, record_id: id, file };
    const r = cappedRecord({ role, ts_ms: isoMs(m.at), text: said, locator, item_id: id });
    if (file !== undefined) {
      r.subagent = true;
      r.thread = file;
    }
    out.push(r);
  }
  return out;
}

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const loaded = await loadSession(session);
  const all = records(loaded.file.messages, undefined);
  const childFiles = session.files.filter((f) => f.path !== session.path && f.path.endsWith('.jsonl'));
  for (const [i, child] of loaded.children.entries()) {
    const path = childFiles[i]?.path;
    all.push(...records(child.file.messages, path === undefined ? child.id : relative(session.home, path)));
  }
  return wholeExtract(files, all, [], { badLines: loaded.badLines.reduce((n, b) => n + b.count, 0) });
}

export const droidSearchMessages: MessageExtractor = { version: droidMessagesVersion, extract };
