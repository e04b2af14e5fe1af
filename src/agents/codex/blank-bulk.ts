// Below the full detail level a rollout's bulk is strings nothing reads: a tool's whole output, an
// encrypted reasoning blob, an agent message's text (the record takes the response item's twin). A
// long line of those kinds is parsed with that one string cut out, so its bytes are searched for
// quotes but never decoded or parsed: a cold scan of the 1 GiB bench home's Codex rollouts spends
// most of its time on `function_call_output` lines (92 of 116 MiB).
import { decodeLine } from '../../fs/read-lines.js';
import { parseObjectLine, text, type JsonObject } from '../../json/narrow.js';
import { closingQuote } from '../cut-key-strings.js';
import type { CodexLine } from './codex-line.js';

export type BulkyKey = 'output' | 'encrypted_content' | 'message';

/** A key whose string value a kind of line carries in bulk, and how to tell that kind in a line's head. */
interface Bulk {
  kind: Buffer;
  key: BulkyKey;
  /** `"key":"`: the opening quote of the value ends it. */
  opening: Buffer;
}

function bulk(kind: string, key: BulkyKey): Bulk {
  return { kind: Buffer.from(`"${kind}"`), key, opening: Buffer.from(`"${key}":"`) };
}

const bulks: readonly Bulk[] = [
  bulk('function_call_output', 'output'),
  bulk('custom_tool_call_output', 'output'),
  bulk('reasoning', 'encrypted_content'),
  bulk('agent_message', 'message'),
];

/**
 * Shorter lines are parsed whole: cutting costs a few searches and two decodes, which a short line
 * does not repay (the bench's tool outputs average 8 KiB).
 */
export const minBulkyLineBytes = 1024;
/** Where a line's kind is looked for: the envelope and the payload's `type` come first. */
const headBytes = 256;

export interface BlankedLine {
  obj: JsonObject;
  /** The key whose (first) string value was read as `""`. */
  key: BulkyKey;
}

/**
 * Parses `buf[start, end)` with the first string value under its kind's bulky key read as `""`, or
 * answers undefined (the line is then parsed whole). Exact: in valid JSON `"key":"` can only open a
 * value, and the value runs to the first unescaped quote, so the cut line parses iff the whole one
 * does, to the same object but for that value, unless the cut value itself held a raw control
 * character or a bad escape (which JSON.parse rejects; serde_json never writes one). A NUL byte, a
 * crash's trace, sends the line to the whole parse.
 */
export function parseBlanked(buf: Buffer, start: number, end: number): BlankedLine | undefined {
  // A view of the line: a search of `buf` itself would run on through the rest of the read chunk.
  const line = buf.subarray(start, end);
  const head = line.subarray(0, headBytes);
  const found = bulks.find((b) => head.indexOf(b.kind) !== -1);
  if (found === undefined) return undefined;
  const at = line.indexOf(found.opening);
  if (at === -1) return undefined;
  const open = at + found.opening.length;
  const close = closingQuote(line, open - 1, 0, line.length);
  if (close === -1 || line.indexOf(0) !== -1) return undefined;
  const obj = parseObjectLine(buf.toString(undefined, start, start + open) + decodeLine(buf, start + close, end));
  return obj === undefined ? undefined : { obj, key: found.key };
}

/**
 * True when nothing below the full level reads the blanked value of a line of this kind: a tool's
 * output (unless the call launched an agent, whose result names it), a reasoning item's encrypted
 * content, an `agent_message` event's text. Any value under that key is unread, wherever it sat.
 */
export function blankIsUnread(line: CodexLine, key: BulkyKey, launched: (callId: string) => boolean): boolean {
  const kind = line.payload.type;
  if (key === 'output') {
    if (line.type !== 'response_item' || (kind !== 'function_call_output' && kind !== 'custom_tool_call_output')) return false;
    const id = text(line.payload, 'call_id');
    return id === undefined || !launched(id);
  }
  if (key === 'encrypted_content') return line.type === 'response_item' && kind === 'reasoning';
  return line.type === 'event_msg' && kind === 'agent_message';
}
