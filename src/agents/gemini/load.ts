// Reads a Gemini CLI chat file, either one JSON document (`session-*.json`) or the newer JSONL
// variant (`session-*.jsonl`: a metadata line, message lines, `$set` patch lines, appended live).
import { statSync } from 'node:fs';
import { readRegularFileSync } from '../../fs/read-open.js';
import { arr, asObject, isObject, str, type JsonObject } from '../../json/narrow.js';
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import type { FileProblem } from '../types.js';
import { geminiMessage, type GeminiMessage } from './message.js';

/** A JSON document is read whole, so it is bounded; larger files are reported, never half-read. */
export const maxDocumentBytes = 64 * 1024 * 1024;
/** One JSONL record (a message with its tool results) above this is skipped and counted. */
export const maxRecordBytes = 32 * 1024 * 1024;

export interface GeminiMeta {
  sessionId?: string;
  projectHash?: string;
  startTime?: string;
  lastUpdated?: string;
  kind?: string;
}

export interface Conversation {
  meta: GeminiMeta;
  /** In file order; a later record with a message's id replaced the earlier one in place. */
  messages: GeminiMessage[];
  badLines: number;
}

export type LoadResult = { conversation: Conversation } | { problem: FileProblem };

function mergeMeta(meta: GeminiMeta, raw: JsonObject): void {
  for (const key of ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind'] as const) {
    const v = str(raw, key);
    if (v !== undefined && v !== '') meta[key] = v;
  }
}

/** Messages keyed by id: `Map#set` on a known id keeps the first position, as a replacement should. */
class MessageList {
  private readonly byId = new Map<string, GeminiMessage>();
  private count = 0;

  /** `full`: tool calls carry input and output (the lower detail levels drop them unbuilt). */
  constructor(private readonly full: boolean) {}

  /** Returns false when the value was not a message. */
  add(value: unknown): boolean {
    const msg = geminiMessage(value, `#${this.count++}`, this.full);
    if (msg === undefined) return false;
    this.byId.set(msg.id, msg);
    return true;
  }

  reset(): void {
    this.byId.clear();
  }

  list(): GeminiMessage[] {
    return [...this.byId.values()];
  }
}

export function isJsonl(path: string): boolean {
  return path.toLowerCase().endsWith('.jsonl');
}

/** A document is read in one synchronous call: it is parsed whole at once anyway. */
async function loadDocument(path: string, full: boolean): Promise<LoadResult> {
  const size = statSync(path).size;
  if (size > maxDocumentBytes) {
    return {
      problem: {
        path,
        kind: 'oversized',
        reason: `${size} bytes is over the ${maxDocumentBytes}-byte bound for a Gemini CLI chat document`,
      },
    };
  }
  const raw = readRegularFileSync(path);
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    // Gemini CLI rewrites the whole document on every message, so a torn write is one bad record.
    return { conversation: { meta: {}, messages: [], badLines: 1 } };
  }
  if (!isObject(doc)) return { conversation: { meta: {}, messages: [], badLines: 1 } };
  const meta: GeminiMeta = {};
  mergeMeta(meta, doc);
  const list = new MessageList(full);
  let badLines = 0;
  for (const m of arr(doc, 'messages') ?? []) {
    if (!list.add(m) && !isObject(m)) badLines++;
  }
  return { conversation: { meta, messages: list.list(), badLines } };
}

async function loadJsonl(path: string, full: boolean): Promise<LoadResult> {
  const meta: GeminiMeta = {};
  const list = new MessageList(full);
  const r = await forEachJsonObject(
    path,
    (obj) => {
      const patch = asObject(obj.$set);
      if (patch !== undefined) {
        mergeMeta(meta, patch);
        const messages = arr(patch, 'messages');
        if (messages !== undefined) {
          list.reset();
          for (const m of messages) list.add(m);
        }
        return;
      }
      if (typeof obj.type === 'string') {
        list.add(obj);
        return;
      }
      // The metadata line (first, and again if the file is rewritten); other records are drift.
      if (typeof obj.sessionId === 'string') mergeMeta(meta, obj);
    },
    { maxLineBytes: maxRecordBytes },
  );
  return { conversation: { meta, messages: list.list(), badLines: r.badLines } };
}

/**
 * Loads one chat file. Throws only for I/O (a missing or unreadable file). Without `full`, tool
 * calls carry their names only (what every detail level below full keeps of them).
 */
export function loadConversation(path: string, full = true): Promise<LoadResult> {
  return isJsonl(path) ? loadJsonl(path, full) : loadDocument(path, full);
}
