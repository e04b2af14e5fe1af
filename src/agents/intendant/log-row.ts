// One `session.jsonl` line with its line number. The row's reading is the session-log library's
// (`toLogEvent`, the writer of the format), so the reader and the writer never disagree on a row.
import { num, str } from '../../json/narrow.js';
import { type LogEvent, toLogEvent } from '../../sessionlog/log-event.js';
import type { JsonObject } from '../../json/narrow.js';

export interface LogRow extends LogEvent {
  /** 1-based physical line in `session.jsonl` (the message index's `native_event.line_no`). */
  line: number;
}

/**
 * Narrows a parsed line; undefined when it is not a log row (no `event`: drift). Every row has every
 * field (an absent one is undefined), so all rows share one shape: `toLogEvent` leaves out what a
 * line lacks, and its rows came in so many shapes that each field read in the record's build was a
 * megamorphic lookup, and a shape the compiled build had not met yet threw it away (`--trace-deopt`).
 */
export function toLogRow(obj: JsonObject, line: number): LogRow | undefined {
  const e = toLogEvent(obj);
  if (e === undefined) return undefined;
  return {
    ts: e.ts,
    ts_ms: e.ts_ms,
    turn: e.turn,
    event: e.event,
    level: e.level,
    message: e.message,
    data: e.data,
    file: e.file,
    file2: e.file2,
    line,
  };
}

/** A non-negative integer field of `data` (seqs, offsets, byte counts), or undefined. */
export function dataInt(row: LogRow, key: string): number | undefined {
  const v = num(row.data, key);
  return v !== undefined && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export function dataStr(row: LogRow, key: string): string | undefined {
  return str(row.data, key);
}
