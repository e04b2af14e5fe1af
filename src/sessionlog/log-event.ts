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
 * A row of `session.jsonl` as a reader keeps it: `toLogEvent`'s reading with every field on the
 * object (an absent one undefined) and the row's 1-based line in the file.
 */
export interface LoggedRow {
  ts: string;
  ts_ms: number | undefined;
  turn: number | undefined;
  event: string;
  level: Level | string | undefined;
  message: string | undefined;
  data: JsonObject | undefined;
  file: string | undefined;
  file2: string | undefined;
  line: number;
}

/**
 * Narrows a parsed line to a `LoggedRow`: the one reading of a `session.jsonl` row, for this
 * library's replay and for the Intendant reader alike. Undefined when `event` is missing or empty
 * (the writer never writes one: such a line is not a log row). A row without `ts` reads with `ts: ''`;
 * a field of the wrong type reads as absent (drift is tolerated, never guessed at). Every field is on
 * the object in one order, so a reader keeping thousands of rows reads them all through one shape.
 */
export function toLoggedRow(obj: JsonObject, line: number): LoggedRow | undefined {
  const event = str(obj, 'event');
  if (event === undefined || event === '') return undefined;
  return {
    ts: str(obj, 'ts') ?? '',
    ts_ms: num(obj, 'ts_ms'),
    turn: num(obj, 'turn'),
    event,
    level: str(obj, 'level'),
    message: str(obj, 'message'),
    data: asObject(obj.data),
    file: str(obj, 'file'),
    file2: str(obj, 'file2'),
    line,
  };
}

/** `toLoggedRow`'s reading as a LogEvent: absent fields left out, as the writer leaves them out of a line. */
export function toLogEvent(obj: JsonObject): LogEvent | undefined {
  const r = toLoggedRow(obj, 0);
  if (r === undefined) return undefined;
  const e: LogEvent = { ts: r.ts, event: r.event };
  if (r.ts_ms !== undefined) e.ts_ms = r.ts_ms;
  if (r.turn !== undefined) e.turn = r.turn;
  if (r.level !== undefined) e.level = r.level;
  if (r.message !== undefined) e.message = r.message;
  if (r.data !== undefined) e.data = r.data;
  if (r.file !== undefined) e.file = r.file;
  if (r.file2 !== undefined) e.file2 = r.file2;
  return e;
}
