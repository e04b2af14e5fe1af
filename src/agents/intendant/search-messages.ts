// Intendant's messages for the search index (seed 000 "The extractors": Intendant): the canonical
// message lane of a native session (and what the legacy era reconstructs), with native locators;
// what a `conversation_rewound` cut superseded gets one exact `record_ids` mark and stays findable.
// A change re-reads the session folder. Never indexed: tool output, reasoning, system injections,
// context summaries, wrapper sessions' mirrored messages (the reader's rules).
import { cappedRecord, wholeExtract, wholeFiles } from '../message-files.js';
import type { Locator, MessageRecord, SupersessionMark } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { linksOf } from './discover.js';
import type { MessageLocator } from './messages.js';
import { parseIntendantSession } from './parse-session.js';

/** Bump when what this file extracts changes: the index then re-reads every Intendant session. */
export const intendantMessagesVersion = 2;

/** What sessions written before the message lane (2026-07) can ever yield (seed 000, verbatim). */
export const legacyEraNotes = {
  ask_human_answers: 'none before 2026-07 (never persisted)',
  follow_ups: 'best-effort before 2026-07',
} as const;

/** A stable id per message for `record_ids` marks, from its locator. */
function itemId(l: MessageLocator): string {
  if (l.kind === 'native_message_id') return l.message_id;
  if (l.kind === 'native_event') return `line:${l.line_no}:${l.content_hash16}`;
  return `${l.file}:${l.offset}`;
}

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const parsed = await parseIntendantSession(session.path, { detail: 'messages', links: linksOf(session) });
  const records: MessageRecord[] = [];
  const cut: string[] = [];
  let legacy = false;
  let newest = 0;
  for (const m of parsed.messages) {
    legacy ||= m.legacy;
    if (m.text.trim() === '' || m.locator === undefined) continue;
    const id = itemId(m.locator);
    const ts = m.tsMs ?? 0;
    newest = Math.max(newest, ts);
    const rec = cappedRecord({ role: m.role, ts_ms: ts, text: m.text, locator: m.locator as Locator, item_id: id });
    if (m.seq !== undefined) rec.seq = m.seq;
    records.push(rec);
    if (m.superseded) cut.push(id);
  }
  const marks: SupersessionMark[] =
    cut.length === 0 ? [] : [{ kind: 'record_ids', record_ids: cut, at_ms: newest, reason: 'conversation_rewound' }];
  const badLines = parsed.badLines.reduce((n, b) => n + b.count, 0);
  const out = wholeExtract(files, records, marks, { badLines, problems: parsed.problems.map((p) => ({ path: p.path, reason: p.reason })) });
  return legacy ? { ...out, coverageNotes: { ...legacyEraNotes } } : out;
}

export const intendantSearchMessages: MessageExtractor = { version: intendantMessagesVersion, nativeLocators: true, extract };
