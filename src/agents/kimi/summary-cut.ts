// At summary detail a tool result's output is read only for its head (the first 4096 characters),
// where the Agent tool names the agent it launched (`agent_id:`) and how it ended (`status:`), and
// not at all in a session of one agent (nothing to launch). A long output is cut before it is
// decoded, which is most of a wire's bytes: to its head, or to nothing when its head cannot hold
// either word.
import { obj, type JsonObject } from '../../json/narrow.js';
import { type KeepBytes, keepNothing, parseCutLine } from '../cut-key-strings.js';

/** What of an output the summary reads (`result` and the record's subagent status slice this much). */
export const outputHeadChars = 4096;
/** Outputs that would lose fewer raw bytes than this are parsed as they are: cutting would not pay. */
const minCutBytes = 512;
/**
 * Raw bytes kept of a head: an eighth over it, as escapes (`\n`) cost a byte more than they read;
 * an output with more escapes or wide characters falls short of the head and is parsed whole.
 */
const headBytes = outputHeadChars + outputHeadChars / 8;
/** Raw bytes that can decode into the head: a character is at most six (`\uXXXX`). */
const headSpanBytes = 6 * outputHeadChars;
const outputKey = Buffer.from('"output":"');
/** What the head is read for, and the escape that could spell either without its letters. */
const headWords = ['agent_id:', 'status:', '\\u'].map((w) => Buffer.from(w));

/** An output's raw body: its head when the first characters may hold a word the summary reads, else nothing. */
const keepHead: KeepBytes = (b, from, to) => {
  const span = b.subarray(from, Math.min(to, from + headSpanBytes));
  return headWords.some((w) => span.includes(w)) ? headBytes : 0;
};

function isCutToolResult(o: JsonObject | undefined, headChars: number): boolean {
  const event = obj(o, 'event');
  const output = obj(event, 'result')?.['output'];
  return (
    o?.['type'] === 'context.append_loop_event' &&
    event?.['type'] === 'tool.result' &&
    typeof output === 'string' &&
    // Empty: cut to nothing (or empty as written); else the head must have survived whole.
    (output === '' || output.length >= headChars)
  );
}

/**
 * The line parsed with its long `"output"` strings cut, keeping `headChars` characters (0 or
 * `outputHeadChars`) where they may matter, when it is a tool result whose output head survived
 * the cut; undefined otherwise (the caller then parses the line as it is).
 */
export function cutToolOutput(b: Buffer, start: number, end: number, headChars: number): JsonObject | undefined {
  if (end - start < minCutBytes) return undefined;
  const o = parseCutLine(b, start, end, outputKey, headChars === 0 ? keepNothing : keepHead, minCutBytes);
  return isCutToolResult(o, headChars) ? o : undefined;
}
