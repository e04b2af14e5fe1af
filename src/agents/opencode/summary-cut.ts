// Below full detail a tool part's output is read only by a `task` call (whose output may name the
// child session it ran), yet outputs (`state.output`, `state.metadata.output`) are most of a
// store's bytes: a part's long output strings are cut away before it is decoded and parsed.
import type { JsonObject } from '../../json/narrow.js';
import { keepNothing, parseCutLine } from '../cut-key-strings.js';

/** Outputs shorter than this (raw bytes) are parsed as they are: cutting would not pay. */
const minCutBytes = 256;
const outputKey = Buffer.from('"output":"');

/**
 * A part's JSON bytes `b[start, end)` parsed with its long `"output"` strings emptied, when it is a
 * tool part of a tool other than `task`; undefined otherwise (the caller then parses it as it is).
 */
export function cutToolPart(b: Buffer, start = 0, end = b.length): JsonObject | undefined {
  if (end - start < minCutBytes) return undefined;
  const o = parseCutLine(b, start, end, outputKey, keepNothing, minCutBytes);
  return o?.['type'] === 'tool' && typeof o['tool'] === 'string' && o['tool'] !== 'task' ? o : undefined;
}
