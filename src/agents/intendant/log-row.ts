// One `session.jsonl` line narrowed to the LogEvent shape (research/intendant.md §1.3): every field
// optional but `event`, absent optionals omitted by the writer, drift tolerated.
import { asObject, num, str, type JsonObject } from '../../json/narrow.js';

export interface LogRow {
  /** 1-based physical line in `session.jsonl` (the message index's `native_event.line_no`). */
  line: number;
  /** Local time of day, `HH:MM:SS.mmm`, no date. */
  ts?: string;
  /** Epoch ms, UTC; absent on rows written before 2026-07. */
  tsMs?: number;
  turn?: number;
  event: string;
  level?: string;
  message?: string;
  data?: JsonObject;
  file?: string;
  file2?: string;
}

/** Narrows a parsed line; undefined when it has no `event` string (not a log line: drift). */
export function toLogRow(obj: JsonObject, line: number): LogRow | undefined {
  const event = str(obj, 'event');
  if (event === undefined || event === '') return undefined;
  const row: LogRow = { line, event };
  const ts = str(obj, 'ts');
  if (ts !== undefined) row.ts = ts;
  const tsMs = num(obj, 'ts_ms');
  if (tsMs !== undefined) row.tsMs = tsMs;
  const turn = num(obj, 'turn');
  if (turn !== undefined) row.turn = turn;
  const level = str(obj, 'level');
  if (level !== undefined) row.level = level;
  const message = str(obj, 'message');
  if (message !== undefined) row.message = message;
  const data = asObject(obj.data);
  if (data !== undefined) row.data = data;
  const file = str(obj, 'file');
  if (file !== undefined) row.file = file;
  const file2 = str(obj, 'file2');
  if (file2 !== undefined) row.file2 = file2;
  return row;
}

/** A non-negative integer field of `data` (seqs, offsets, byte counts), or undefined. */
export function dataInt(row: LogRow, key: string): number | undefined {
  const v = num(row.data, key);
  return v !== undefined && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export function dataStr(row: LogRow, key: string): string | undefined {
  return str(row.data, key);
}
