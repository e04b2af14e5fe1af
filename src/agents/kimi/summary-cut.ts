// At summary detail a tool result's output is read only for its head (the first 4096 characters,
// where the Agent tool names the agent it launched and how it ended), and not at all in a session
// with one agent (nothing to launch): a long output is cut before it is decoded, which is most of
// a wire's bytes.
import { obj, type JsonObject } from '../../json/narrow.js';
import { parseCutLine } from '../cut-key-strings.js';

/** What of an output the summary reads (`result` and the record's subagent status slice this much). */
export const outputHeadChars = 4096;
/** Outputs shorter than this (raw) past the head kept are parsed as they are: cutting would not pay. */
const minCutBytes = 512;
const outputKey = Buffer.from('"output":"');

function isCutToolResult(o: JsonObject | undefined, headChars: number): boolean {
  const event = obj(o, 'event');
  const output = obj(event, 'result')?.['output'];
  return (
    o?.['type'] === 'context.append_loop_event' &&
    event?.['type'] === 'tool.result' &&
    typeof output === 'string' &&
    output.length >= headChars
  );
}

/**
 * The line parsed with its long `"output"` strings cut to `headChars` characters (0 or
 * `outputHeadChars`), when it is a tool result whose output head survived the cut whole; undefined
 * otherwise (the caller then parses the line as it is).
 */
export function cutToolOutput(b: Buffer, start: number, end: number, headChars: number): JsonObject | undefined {
  // An eighth over the head, as escapes (`\n`) cost a byte more than they read; an output with more
  // escapes or wide characters falls short of the head and is parsed whole.
  const keepBytes = headChars + headChars / 8;
  if (end - start < keepBytes + minCutBytes) return undefined;
  const o = parseCutLine(b, start, end, outputKey, keepBytes, keepBytes + minCutBytes);
  return isCutToolResult(o, headChars) ? o : undefined;
}
