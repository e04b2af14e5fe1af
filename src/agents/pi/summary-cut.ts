// Below full detail a tool result's output is dropped unread (entry.ts), yet it is most of a
// session file's bytes: its text parts are cut away before the line is decoded.
import { obj, type JsonObject } from '../../json/narrow.js';
import { keepNothing, parseCutLine } from '../cut-key-strings.js';

/** Lines shorter than this are parsed as they are: cutting would not pay. */
const minCutBytes = 2048;
/** Text parts longer than this (raw) are emptied. */
const cutAboveBytes = 256;
const textKey = Buffer.from('"text":"');

/**
 * The line parsed with its long `"text"` strings emptied, when it is a tool result message;
 * undefined otherwise (the caller then parses the line as it is).
 */
export function cutToolResult(b: Buffer, start: number, end: number): JsonObject | undefined {
  if (end - start < minCutBytes) return undefined;
  const o = parseCutLine(b, start, end, textKey, keepNothing, cutAboveBytes);
  return o?.['type'] === 'message' && obj(o, 'message')?.['role'] === 'toolResult' ? o : undefined;
}
