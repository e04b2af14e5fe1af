// One line of `session.jsonl`: its shape, its fixed field order on the wire, and the narrowing a
// reader applies to a parsed line (research/intendant.md §1.3).
import { asObject, num, str, type JsonObject } from '../json/narrow.js';

export const levels = ['info', 'warn', 'error', 'debug'] as const;
export type Level = (typeof levels)[number];

export interface LogEvent {
  /** Local time of day `HH:MM:SS.mmm` (kept for the format; `ts_ms` carries the date). */
  ts: string;
  /** Epoch ms, UTC. Always written by this library; absent on logs from before 2026-07. */
  ts_ms?: number;
  turn?: number;
  event: string;
  level?: Level | string;
  message?: string;
  data?: JsonObject;
  /** Log-dir-relative path of the full content. */
  file?: string;
  /** A second file (stderr). */
  file2?: string;
}

/** The preview length of content events, in characters (code points, never half a character). */
export const previewChars = 200;

/** The first `max` characters of `text`, cut on a code point boundary. */
export function preview(text: string, max = previewChars): string {
  let count = 0;
  for (let i = 0; i < text.length; ) {
    if (count === max) return text.slice(0, i);
    const cp = text.codePointAt(i) as number;
    i += cp > 0xffff ? 2 : 1;
    count++;
  }
  return text;
}

/** One compact line (no newline), fields in wire order, absent optionals omitted (never null). */
export function serialiseEvent(e: LogEvent): string {
  const out: Record<string, unknown> = { ts: e.ts };
  if (e.ts_ms !== undefined) out.ts_ms = e.ts_ms;
  if (e.turn !== undefined) out.turn = e.turn;
  out.event = e.event;
  if (e.level !== undefined) out.level = e.level;
  if (e.message !== undefined) out.message = e.message;
  if (e.data !== undefined) out.data = e.data;
  if (e.file !== undefined) out.file = e.file;
  if (e.file2 !== undefined) out.file2 = e.file2;
  return JSON.stringify(out);
}

/**
 * Narrows a parsed line to a LogEvent: the one reading of a `session.jsonl` row, for this library's
 * replay and for the Intendant reader alike. Undefined when `event` is missing or empty (the writer
 * never writes one: such a line is not a log row). A row without `ts` reads with `ts: ''`; a field of
 * the wrong type reads as absent (drift is tolerated, never guessed at).
 */
export function toLogEvent(obj: JsonObject): LogEvent | undefined {
  const event = str(obj, 'event');
  if (event === undefined || event === '') return undefined;
  const e: LogEvent = { ts: str(obj, 'ts') ?? '', event };
  const tsMs = num(obj, 'ts_ms');
  if (tsMs !== undefined) e.ts_ms = tsMs;
  const turn = num(obj, 'turn');
  if (turn !== undefined) e.turn = turn;
  const level = str(obj, 'level');
  if (level !== undefined) e.level = level;
  const message = str(obj, 'message');
  if (message !== undefined) e.message = message;
  const data = asObject(obj.data);
  if (data !== undefined) e.data = data;
  const file = str(obj, 'file');
  if (file !== undefined) e.file = file;
  const file2 = str(obj, 'file2');
  if (file2 !== undefined) e.file2 = file2;
  return e;
}
