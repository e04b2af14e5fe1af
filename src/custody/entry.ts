// The entry model for custody reads: one per non-blank transcript line, generic over JSONL agents.
// A line that is not a JSON object is kept as a raw entry with its text, never dropped (vendor drift).
import type { EntryView } from '../agents/types.js';
import { asArray, asObject, isObject, parseObjectLine, str, type JsonObject } from '../json/narrow.js';

export interface Entry {
  /** 1-based line number, known when the read began at the top of the file; null on backward pages. */
  line: number | null;
  /** Byte offset of the line's first byte: always known, and what page tokens point at. */
  offset: number;
  /** The line's length in bytes (without its newline). */
  bytes: number;
  /** `json`: the line is a JSON object; `raw`: it is not (its text is kept); `oversized`: too long to hold. */
  kind: 'json' | 'raw' | 'oversized';
  type: string | null;
  /** `subtype`, or the type of a wrapped payload (`response_item` → `message`). */
  subtype: string | null;
  timestamp: string | null;
  role: string | null;
  /** One line of the text the entry carries, at most `previewChars` characters. */
  preview: string;
  object: JsonObject | null;
  /** The line as written, for raw entries (clipped to `rawTextBytes`). */
  text: string | null;
}

export const previewChars = 200;
/** Raw lines longer than this keep only their start. */
export const rawTextBytes = 64 * 1024;
/** Lines longer than this are not held in memory: they become `oversized` entries. */
export const maxLineBytes = 64 * 1024 * 1024;

/** `text` as one line of at most `previewChars` characters. */
export function previewLine(text: string): string {
  return oneLine(text);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > previewChars ? `${flat.slice(0, previewChars - 1)}…` : flat;
}

/** The readable text of a content value: a string, or an array of blocks in the shapes agents use. */
function contentText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value;
  if (depth > 3) return '';
  const list = asArray(value);
  if (list !== undefined)
    return list
      .map((v) => contentText(v, depth + 1))
      .filter((t) => t !== '')
      .join(' ');
  const block = asObject(value);
  if (block === undefined) return '';
  const kind = str(block, 'type');
  const direct = str(block, 'text') ?? str(block, 'thinking');
  if (direct !== undefined) return direct;
  if (kind === 'tool_use' || kind === 'function_call' || kind === 'custom_tool_call') return `[${kind} ${str(block, 'name') ?? '?'}]`;
  if (kind === 'tool_result' || kind === 'function_call_output')
    return `[${kind}] ${contentText(block.content ?? block.output, depth + 1)}`.trim();
  return contentText(block.content, depth + 1);
}

function previewOf(obj: JsonObject): string {
  const message = obj.message;
  const payload = asObject(obj.payload);
  const candidates: unknown[] = [
    isObject(message) ? message.content : message,
    obj.content,
    payload?.content,
    payload?.message,
    payload?.text,
    obj.text,
    obj.summary,
  ];
  for (const c of candidates) {
    const t = contentText(c);
    if (t.trim() !== '') return oneLine(t);
  }
  return '';
}

function stringField(obj: JsonObject | undefined, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = str(obj, k);
    if (v !== undefined && v !== '') return v;
  }
  return null;
}

/** How the session's agent reads one of its lines (`AgentReader.entryView`). */
export type EntryViewer = (line: JsonObject) => EntryView;

/**
 * The entry for one line, or null for a blank line (blank lines are not entries and never count).
 * With `view`, the agent's reader says the line's time, role and text, as `show` reads them.
 */
export function parseEntry(text: string, offset: number, bytes: number, line: number | null, view?: EntryViewer): Entry | null {
  if (text.trim() === '') return null;
  const obj = parseObjectLine(text);
  if (obj === undefined) {
    const clipped = Buffer.byteLength(text) > rawTextBytes ? `${Buffer.from(text).subarray(0, rawTextBytes).toString('utf8')}…` : text;
    return {
      line,
      offset,
      bytes,
      kind: 'raw',
      type: null,
      subtype: null,
      timestamp: null,
      role: null,
      preview: oneLine(text),
      object: null,
      text: clipped,
    };
  }
  const message = asObject(obj.message);
  const payload = asObject(obj.payload);
  const seen = view?.(obj);
  return {
    line,
    offset,
    bytes,
    kind: 'json',
    type: stringField(obj, 'type'),
    subtype: stringField(obj, 'subtype') ?? stringField(payload, 'type'),
    timestamp: seen !== undefined ? seen.timestamp : stringField(obj, 'timestamp', 'time', 'created_at', 'ts'),
    role: seen !== undefined ? seen.role : (stringField(message, 'role') ?? stringField(obj, 'role') ?? stringField(payload, 'role')),
    preview: seen !== undefined ? oneLine(seen.text) : previewOf(obj),
    object: obj,
    text: null,
  };
}

/** A line too long to hold (over `maxLineBytes`): counted and located, its text not read. */
export function oversizedEntry(offset: number, bytes: number, line: number | null): Entry {
  return {
    line,
    offset,
    bytes,
    kind: 'oversized',
    type: null,
    subtype: null,
    timestamp: null,
    role: null,
    preview: `[line of ${bytes} bytes not read]`,
    object: null,
    text: null,
  };
}
