// OpenCode's session, message and part as this reader holds them, whichever store they came from:
// the JSON tree (`storage/{session,message,part}`), the SQLite database, or an agentlog export.
import { asObject, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { msIso } from '../../text/epoch-iso.js';
import { cutToolPart } from './summary-cut.js';

export interface OcSession {
  id: string;
  /** The session that launched this one through its `task` tool (a subagent), if any. */
  parentId?: string;
  directory?: string;
  title?: string;
  createdMs?: number;
  updatedMs?: number;
}

export interface OcMessage {
  id: string;
  /** The message info (`role`, `time`, `modelID`, `tokens`, `cost`, `path`, `error`…), ids merged in. */
  info: JsonObject;
  /** In creation order. */
  parts: JsonObject[];
}

export interface OcSessionData {
  session: OcSession;
  /** In creation order. */
  messages: OcMessage[];
}

/** A session with every descendant loaded, keyed by id. */
export interface OcTree {
  rootId: string;
  sessions: Map<string, OcSessionData>;
}

/** Epoch milliseconds; OpenCode writes milliseconds, a value that reads as seconds is scaled. */
export function epochMs(value: number | undefined): number | undefined {
  if (value === undefined || value <= 0) return undefined;
  return value < 1e11 ? value * 1000 : value;
}

/** An epoch time as ISO text; a Date only where `epochIso` declines (fractions, years past 9999). */
export function isoTime(ms: number | undefined): string | null {
  const v = epochMs(ms);
  if (v === undefined) return null;
  // ~34 ms of the bench home's cold scan formatted every message and part time through a Date.
  return msIso(v);
}

/** A session from a JSON-tree session file (`{id, parentID, directory, title, time}`). */
export function sessionFromJson(value: JsonObject, fallbackId: string): OcSession {
  const time = obj(value, 'time');
  const s: OcSession = { id: text(value, 'id') ?? fallbackId };
  const parentId = text(value, 'parentID');
  if (parentId !== undefined) s.parentId = parentId;
  const directory = text(value, 'directory');
  if (directory !== undefined) s.directory = directory;
  const title = text(value, 'title');
  if (title !== undefined) s.title = title;
  const created = epochMs(num(time, 'created'));
  if (created !== undefined) s.createdMs = created;
  const updated = epochMs(num(time, 'updated'));
  if (updated !== undefined) s.updatedMs = updated;
  return s;
}

/** A session from a database row (`id`, `parent_id`, `directory`, `title`, `time_created`…). */
export function sessionFromRow(row: JsonObject): OcSession | undefined {
  const id = text(row, 'id');
  if (id === undefined) return undefined;
  const s: OcSession = { id };
  const parentId = text(row, 'parent_id');
  if (parentId !== undefined) s.parentId = parentId;
  const directory = text(row, 'directory');
  if (directory !== undefined) s.directory = directory;
  const title = text(row, 'title');
  if (title !== undefined) s.title = title;
  const created = epochMs(num(row, 'time_created'));
  if (created !== undefined) s.createdMs = created;
  const updated = epochMs(num(row, 'time_updated'));
  if (updated !== undefined) s.updatedMs = updated;
  return s;
}

export function messageCreated(info: JsonObject): number | undefined {
  return epochMs(num(obj(info, 'time'), 'created'));
}

/** The model an OpenCode message names: `modelID` (assistant) or `model.modelID` (user, newer). */
export function messageModel(info: JsonObject): string | undefined {
  return text(info, 'modelID') ?? text(obj(info, 'model'), 'modelID');
}

/** Orders messages by creation time, keeping the store's order (ascending ids) between equals. */
export function sortMessages(messages: OcMessage[]): OcMessage[] {
  return messages
    .map((m, i) => ({ m, i, t: messageCreated(m.info) ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => (a.t !== b.t ? a.t - b.t : a.i - b.i))
    .map((x) => x.m);
}

/**
 * Parses a database `data` column (JSON text, or its UTF-8 bytes: a tool part's long outputs are
 * then cut first, see summary-cut.ts); undefined when it is not a JSON object.
 */
export function parseData(value: unknown): JsonObject | undefined {
  if (Buffer.isBuffer(value)) return cutToolPart(value) ?? parseJson(value.toString('utf8'));
  if (typeof value !== 'string') return asObject(value);
  return parseJson(value);
}

function parseJson(value: string): JsonObject | undefined {
  try {
    return asObject(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** True when `parseData` made a fresh object of the column (its text or bytes), not handed on one the row carried. */
export function parsedFresh(column: unknown): boolean {
  return typeof column === 'string' || Buffer.isBuffer(column);
}

export function partType(part: JsonObject): string {
  return str(part, 'type') ?? '';
}
