// At summary detail a tool result's output is read only for its head (the first 4096 characters,
// where the Agent tool names the agent it launched and how it ended): a long output is cut before
// it is decoded, which is most of a wire's bytes.
import { obj, type JsonObject } from '../../json/narrow.js';
import { parseCutLine } from '../cut-key-strings.js';

/** What of an output the summary reads (`result` and the record's subagent status slice this much). */
export const outputHeadChars = 4096;
/**
 * Raw bytes kept of a cut output: an eighth over the head, as escapes (`\n`) cost a byte more than
 * they read; an output with more escapes or wide characters falls short and is parsed whole.
 */
const keepBytes = outputHeadChars + outputHeadChars / 8;
/** Outputs shorter than this (raw) are parsed as they are: cutting would not pay. */
const minCutBytes = outputHeadChars + outputHeadChars / 2;
const outputKey = Buffer.from('"output":"');

function isCutToolResult(o: JsonObject | undefined): boolean {
  const event = obj(o, 'event');
  const output = obj(event, 'result')?.['output'];
  return (
    o?.['type'] === 'context.append_loop_event' &&
    event?.['type'] === 'tool.result' &&
    typeof output === 'string' &&
    output.length >= outputHeadChars
  );
}

/**
 * The line parsed with its long `"output"` strings cut, when it is a tool result whose output head
 * survived the cut whole; undefined otherwise (the caller then parses the line as it is).
 */
export function cutToolOutput(b: Buffer, start: number, end: number): JsonObject | undefined {
  if (end - start < minCutBytes) return undefined;
  const o = parseCutLine(b, start, end, outputKey, keepBytes, minCutBytes);
  return isCutToolResult(o) ? o : undefined;
}
