// One `session.jsonl` line with its line number. The row's reading is the session-log library's
// (`toLoggedRow`, beside the writer of the format), so the reader and the writer never disagree on a row.
import { num, str } from '../../json/narrow.js';
import { type LoggedRow, toLoggedRow } from '../../sessionlog/log-event.js';
import type { JsonObject } from '../../json/narrow.js';

/** A row with its 1-based physical line in `session.jsonl` (the message index's `native_event.line_no`). */
export type LogRow = LoggedRow;

/**
 * Narrows a parsed line; undefined when it is not a log row (no `event`: drift). Every row has every
 * field, in one object: rows in many shapes made each field read in the record's build a megamorphic
 * lookup (`--trace-deopt`), and a LogEvent copied into a row was a second object per row.
 */
export const toLogRow: (obj: JsonObject, line: number) => LogRow | undefined = toLoggedRow;

/** A non-negative integer field of `data` (seqs, offsets, byte counts), or undefined. */
export function dataInt(row: LogRow, key: string): number | undefined {
  const v = num(row.data, key);
  return v !== undefined && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export function dataStr(row: LogRow, key: string): string | undefined {
  return str(row.data, key);
}
