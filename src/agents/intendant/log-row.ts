// One `session.jsonl` line with its line number. The row's reading is the session-log library's
// (`toLogEvent`, the writer of the format), so the reader and the writer never disagree on a row.
import { num, str } from '../../json/narrow.js';
import { type LogEvent, toLogEvent } from '../../sessionlog/log-event.js';
import type { JsonObject } from '../../json/narrow.js';

export interface LogRow extends LogEvent {
  /** 1-based physical line in `session.jsonl` (the message index's `native_event.line_no`). */
  line: number;
}

/** Narrows a parsed line; undefined when it is not a log row (no `event`: drift). */
export function toLogRow(obj: JsonObject, line: number): LogRow | undefined {
  const event = toLogEvent(obj) as LogRow | undefined;
  // `toLogEvent` built a fresh object: it takes the line number itself rather than being copied.
  if (event !== undefined) event.line = line;
  return event;
}

/** A non-negative integer field of `data` (seqs, offsets, byte counts), or undefined. */
export function dataInt(row: LogRow, key: string): number | undefined {
  const v = num(row.data, key);
  return v !== undefined && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export function dataStr(row: LogRow, key: string): string | undefined {
  return str(row.data, key);
}
