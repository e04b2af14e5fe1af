// A Goose session as this reader holds it, from a database row and its messages or from a legacy
// JSONL file: the same message shape (conversation/message.rs `Message`) either way.
import { asArray, asObject, bool, obj, str, text, type JsonObject } from '../../json/narrow.js';

export interface GooseMessage {
  /** Goose's id for the message (`message_id`; legacy files: `msg_<session>_<index>`, Goose's own form). */
  id: string;
  role: string;
  /** Epoch seconds (`Message.created`). */
  created: number | undefined;
  content: JsonObject[];
  /** `metadata.userVisible`: false for what only the model sees (injected context, summaries). */
  userVisible: boolean;
}

export interface GooseSession {
  id: string;
  workingDir?: string;
  name?: string;
  /** ISO-8601 creation time. */
  createdAt: string | null;
  model?: string;
  /** The row or metadata line holding Goose's token counters. */
  counters: JsonObject;
  messages: GooseMessage[];
}

/** Parses a JSON text column; undefined when it is not JSON. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** A message from its parts; undefined when the content is not a list (a bad row or line). */
export function gooseMessage(id: string, role: unknown, created: unknown, content: unknown, metadata: unknown): GooseMessage | undefined {
  const items = asArray(content);
  if (items === undefined || typeof role !== 'string') return undefined;
  const list: JsonObject[] = [];
  for (const item of items) {
    const o = asObject(item);
    if (o !== undefined) list.push(o);
  }
  return {
    id,
    role,
    created: typeof created === 'number' && Number.isFinite(created) ? created : undefined,
    content: list,
    userVisible: bool(asObject(metadata), 'userVisible') !== false,
  };
}

/** SQLite's `CURRENT_TIMESTAMP` (`YYYY-MM-DD HH:MM:SS`, UTC) or an RFC 3339 time, as ISO-8601. */
export function isoOfTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const utc = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const t = Date.parse(utc);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function isoOfSeconds(value: number | undefined): string | null {
  if (value === undefined || value <= 0) return null;
  const d = new Date(value < 1e11 ? value * 1000 : value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The model a session ran (`model_config_json.model_name`). */
export function modelOf(config: unknown): string | undefined {
  return text(asObject(parseJson(config)), 'model_name');
}

/** A session from its database row (messages added by the caller). */
export function sessionFromRow(row: JsonObject): GooseSession | undefined {
  const id = text(row, 'id');
  if (id === undefined) return undefined;
  const s: GooseSession = { id, createdAt: isoOfTimestamp(row.created_at), counters: row, messages: [] };
  const wd = text(row, 'working_dir');
  if (wd !== undefined) s.workingDir = wd;
  const name = text(row, 'name') ?? text(row, 'description');
  if (name !== undefined) s.name = name;
  const model = modelOf(row.model_config_json);
  if (model !== undefined) s.model = model;
  return s;
}

/** The text of a tool result's content items (`CallToolResult.content`, or the bare list of older builds). */
export function resultText(value: unknown): string | undefined {
  const items = asArray(value) ?? arr(asObject(value));
  if (items === undefined) return undefined;
  const texts: string[] = [];
  for (const item of items) {
    const o = asObject(item);
    const t = str(o, 'text') ?? str(obj(o, 'resource'), 'text');
    if (t !== undefined) texts.push(t);
  }
  return texts.join('\n');
}

function arr(o: JsonObject | undefined): readonly unknown[] | undefined {
  return asArray(o?.content);
}

export function isErrorResult(value: unknown): boolean {
  return bool(asObject(value), 'isError') === true;
}
