// One line of a Codex rollout narrowed to its envelope: `{timestamp, type, payload}` (newer builds
// add `ordinal` and a line-level `metadata`; the 2025 builds wrote bare response items with no
// envelope at all). Lines are narrowed by hand rather than with a schema: a rollout can hold
// hundreds of thousands of lines and the scan must stay near raw `JSON.parse` speed.
import { isObject, num, obj, str, type JsonObject } from '../../json/narrow.js';

export interface CodexLine {
  /** The line's ISO timestamp, or null when missing or not a timestamp (fixtures trim them). */
  at: string | null;
  type: string;
  payload: JsonObject;
  ordinal: number | undefined;
  /** Line-level metadata of newer builds (`inherited_user_message` on a forked child's copies). */
  metadata: JsonObject | undefined;
}

/** Response item kinds the envelope-less 2025 rollouts wrote as bare lines. */
const bareItemKinds = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/** A string that reads as an ISO-8601 date-time (`2026-02-23T19:34:26.098Z`). */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value.length < 11) return null;
  const c4 = value.charCodeAt(4);
  const c10 = value.charCodeAt(10);
  return c4 === 45 /* - */ && c10 === 84 /* T */ && value.charCodeAt(0) >= 48 && value.charCodeAt(0) <= 57 ? value : null;
}

/**
 * Narrows a parsed line; undefined for anything that is not a Codex line. `bare` accepts the
 * envelope-less items of the 2025 layout (only once a file opened with that layout's meta line).
 */
export function codexLine(line: JsonObject, bare = false): CodexLine | undefined {
  const type = str(line, 'type');
  if (type === undefined) return legacyMeta(line);
  const payload = line.payload;
  if (isObject(payload)) {
    return { at: isoTime(line.timestamp), type, payload, ordinal: num(line, 'ordinal'), metadata: obj(line, 'metadata') };
  }
  if (bare && payload === undefined && bareItemKinds.has(type)) {
    return { at: isoTime(line.timestamp), type: 'response_item', payload: line, ordinal: undefined, metadata: undefined };
  }
  return undefined;
}

/** The first line of an envelope-less rollout: `{id, timestamp, instructions?, git?}`. */
function legacyMeta(line: JsonObject): CodexLine | undefined {
  if (str(line, 'id') === undefined || str(line, 'timestamp') === undefined) return undefined;
  if (line.role !== undefined || line.record_type !== undefined) return undefined;
  return { at: isoTime(line.timestamp), type: 'session_meta', payload: line, ordinal: undefined, metadata: undefined };
}

/** True when a parsed first line is unmistakably Codex's: the `{timestamp, type, payload}` envelope. */
export function isEnvelopeLine(line: JsonObject): boolean {
  return typeof line.timestamp === 'string' && typeof line.type === 'string' && isObject(line.payload);
}
