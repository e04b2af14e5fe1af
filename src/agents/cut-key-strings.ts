// At summary detail, decodes a JSONL line with the long string values of one key cut short, so the
// bulk a summary never reads (a tool's whole output) is neither decoded nor parsed. The caller
// checks the parsed object is the kind of line it meant to cut and otherwise parses the line whole.
import { asObject, type JsonObject } from '../json/narrow.js';

/** How many raw bytes of a string value's body `b[from, to)` to keep. */
export type KeepBytes = (b: Buffer, from: number, to: number) => number;

/** Keeps nothing of a cut string: the summary reads none of it. */
export const keepNothing: KeepBytes = () => 0;

/** Whether the byte at `i` is escaped (an odd run of backslashes before it). */
function escaped(b: Buffer, i: number, start: number): boolean {
  let k = i - 1;
  while (k >= start && b[k] === 92) k--;
  return (i - 1 - k) % 2 === 1;
}

/** Index of the quote closing the string whose opening quote is at `q`, or -1 (before `end`); `start` bounds the escape look-back. */
export function closingQuote(b: Buffer, q: number, start: number, end: number): number {
  let i = q;
  for (;;) {
    i = b.indexOf(34, i + 1);
    if (i === -1 || i >= end) return -1;
    if (!escaped(b, i, start)) return i;
  }
}

/**
 * `b[start, end)` decoded with every string value of `"<key>":"…"` cut to at most its first
 * `keep(b, from, to)` raw bytes (asked of the value's raw body `b[from, to)`), where that saves
 * more than `minBytes`; undefined when nothing was cut. A cut never splits a UTF-8
 * character or a two-byte escape; one that splits a `\uXXXX` escape leaves invalid JSON, which the
 * caller's parse rejects.
 * Example: cutKeyStrings(Buffer.from('{"output":"abcdef"}'), 0, 19, Buffer.from('"output":"'), 2, 3)
 * === '{"output":"ab"}'.
 */
export function cutKeyStrings(
  line: Buffer,
  lineStart: number,
  lineEnd: number,
  key: Buffer,
  keep: KeepBytes,
  minBytes: number,
): string | undefined {
  // A view of the line alone: a search in the whole read chunk would run past the line's end.
  const b = line.subarray(lineStart, lineEnd);
  const start = 0;
  const end = b.length;
  let out = '';
  let from = start;
  let at = start;
  for (;;) {
    const k = b.indexOf(key, at);
    if (k === -1) break;
    const open = k + key.length - 1;
    if (escaped(b, k, start)) {
      at = open;
      continue;
    }
    const close = closingQuote(b, open, start, end);
    if (close === -1) return undefined;
    const keepBytes = keep(b, open + 1, close);
    if (close - open - 1 - keepBytes > minBytes) {
      let cut = open + 1 + keepBytes;
      while (cut > open + 1 && ((b[cut] as number) & 0xc0) === 0x80) cut--;
      if (escaped(b, cut, open + 1)) cut--;
      out += b.toString('utf8', from, cut);
      from = close;
    }
    at = close + 1;
  }
  if (from === start) return undefined;
  return out + b.toString('utf8', from, end > from && b[end - 1] === 13 ? end - 1 : end);
}

/** The line parsed after `cutKeyStrings`, or undefined when nothing was cut or the cut line is not a JSON object. */
export function parseCutLine(
  b: Buffer,
  start: number,
  end: number,
  key: Buffer,
  keep: KeepBytes,
  minBytes: number,
): JsonObject | undefined {
  const line = cutKeyStrings(b, start, end, key, keep, minBytes);
  if (line === undefined) return undefined;
  try {
    return asObject(JSON.parse(line));
  } catch {
    return undefined;
  }
}
