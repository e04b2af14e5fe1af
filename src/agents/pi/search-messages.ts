// Pi's messages for the search index (seed 000 "The extractors": Pi): the user and assistant prose
// of every branch of the session tree; prose off the active branch gets one exact `record_ids`
// mark and stays findable, flagged superseded. A change re-reads the file (a branch switch can
// change which entries are live anywhere in it). A `!` command is indexed by its command text. Never
// indexed: reasoning, tool calls and results, a `!` command's output, custom entries, compaction and
// branch summaries.
import { cappedRecord, isoMs, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord, SupersessionMark } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { defaultPiBounds } from './bounds.js';
import { splitBranches } from './branch.js';
import { bashTurnText, type PiEntry } from './entry.js';
import { readPiFile } from './session-file.js';

/** Bump when what this file extracts changes: the index then re-reads every Pi session. */
export const piMessagesVersion = 2;

function prose(e: PiEntry): { role: 'user' | 'assistant'; text: string } | undefined {
  if (e.body.type === 'user') return { role: 'user', text: e.body.text };
  if (e.body.type === 'bash') return { role: 'user', text: bashTurnText(e.body.command) };
  // Text parts are joined with a newline, as every other agent's are, so one text reads the same in the index whichever agent wrote it.
  if (e.body.type === 'assistant')
    return {
      role: 'assistant',
      text: e.body.parts
        .filter((p) => p.kind === 'text')
        .map((p) => p.text)
        .join('\n'),
    };
  return undefined;
}

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles([session.path]);
  const read = await readPiFile(session.path, defaultPiBounds);
  if (!read.ok) return wholeExtract(files, [], [], { problems: [{ path: session.path, reason: read.reason }] });
  const { abandoned } = splitBranches(read.file.entries);
  const off = new Set(abandoned);
  const records: MessageRecord[] = [];
  const superseded: string[] = [];
  let newest = 0;
  for (const e of read.file.entries) {
    const p = prose(e);
    if (p === undefined || p.text.trim() === '') continue;
    const id = e.id ?? `line-${e.line}`;
    const ts = isoMs(e.at);
    newest = Math.max(newest, ts);
    records.push(
      cappedRecord({ role: p.role, ts_ms: ts, text: p.text, locator: { kind: 'external_record_id', record_id: id }, item_id: id }),
    );
    if (off.has(e)) superseded.push(id);
  }
  const marks: SupersessionMark[] =
    superseded.length === 0 ? [] : [{ kind: 'record_ids', record_ids: superseded, at_ms: newest, reason: 'pi_inactive_branch' }];
  return wholeExtract(files, records, marks, { badLines: read.file.badLines });
}

export const piSearchMessages: MessageExtractor = { version: piMessagesVersion, extract };
