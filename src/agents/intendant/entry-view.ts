// One `session.jsonl` row as `tail` shows it: `ts_ms` as ISO (rows from before 2026-07 carry only a
// local time of day, shown as it is written), the speaker of a conversation row (else the row's
// event) and what was said.
import type { JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { dataStr, toLogRow } from './log-row.js';
import { isoOf } from './row-time.js';

export function intendantEntryView(o: JsonObject): EntryView {
  const row = toLogRow(o, 0);
  if (row === undefined) return { timestamp: null, role: null, text: '' };
  const timestamp = isoOf(row.ts_ms) ?? (row.ts === '' ? null : row.ts);
  // Who speaks on a conversation row; any other row is labelled by its event (a `model_response` is
  // the diagnostic twin of the conversation row in the lane era, and the only copy before it).
  const role = row.event === 'conversation_message' ? (dataStr(row, 'role') ?? row.event) : row.event;
  const text = dataStr(row, 'text') ?? row.message ?? '';
  return { timestamp, role, text };
}
